/**
 * Scoring as the engine calls it: one question against its answer key, and a link's totals.
 *
 * INTERIM: the rules belong in shared/rules/scoring.ts, which the catalogue work is writing; once it lands
 * these two functions delegate to it and hold no rules of their own. Until then they follow issue 4 §3:
 * 10 points a question; single-answer types all or nothing; multi-select points split equally across the
 * correct options and any wrong option scores 0; fill-in-blank by exact value, numbers compared as numbers;
 * percentage = score × 100 / (10 × questions); eligible when score / questions ≥ 6.
 */
import type { KeyQuestion, StoredAnswer } from './engine';

const round2 = (n: number) => Math.round(n * 100) / 100;
const asNumber = (s: string) => (/^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(s) ? Number(s) : null);

export function scoreQuestion(q: KeyQuestion, a: StoredAnswer): number {
  if (q.type === 'FILL_IN_BLANK') {
    const given = (a.answerText ?? '').trim();
    if (given === '') return 0;
    const accepted = q.options
      .filter((o) => o.isCorrect || q.options.length === 1)
      .map((o) => o.value.trim());
    const ok = accepted.some((want) => {
      const wn = asNumber(want);
      const gn = asNumber(given);
      return wn !== null && gn !== null ? wn === gn : want.toLowerCase() === given.toLowerCase();
    });
    return ok ? q.points : 0;
  }
  const correct = new Set(q.options.filter((o) => o.isCorrect).map((o) => o.id));
  if (q.type === 'MSQ' || q.type === 'MSQ_IMAGE') {
    if (a.answerIds.length === 0 || correct.size === 0) return 0;
    if (a.answerIds.some((id) => !correct.has(id))) return 0;
    return round2((10 * a.answerIds.length) / correct.size);
  }
  return a.answerIds.length === 1 && correct.has(a.answerIds[0]!) ? 10 : 0;
}

export function summarise(points: readonly number[], questionCount: number) {
  const score = round2(points.reduce((s, p) => s + p, 0));
  const percentage = questionCount ? round2((score * 100) / (10 * questionCount)) : 0;
  return { score, percentage, questionCount, eligible: questionCount > 0 && score / questionCount >= 6 };
}
