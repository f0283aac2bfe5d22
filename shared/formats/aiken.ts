/**
 * Moodle's Aiken format (docs.moodle.org "Aiken format"): single-answer multiple-choice questions in plain
 * text. A question's text comes first (one line, or several), then its answers, each a capital letter and a
 * full stop or a bracket, usually then a space (`A. …`, `B) …`; Moodle's reader, qformat_aiken, takes
 * `C)text` too), then `ANSWER: B`. Questions are separated by blank
 * lines. Every question becomes an MCQ; Aiken carries no subject, topic, explanation or tags, which come
 * from the import's defaults.
 */

import { choiceRecord } from './convert';
import { said } from './problems';
import { type BankQuestion, emptyResult, type ReadResult, shorten } from './record';

const OPTION = /^([A-Z])[.)][ \t]?(.*)$/;
const ANSWER = /^ANSWER:\s*([A-Z])\s*$/;

export function readAiken(text: string): ReadResult {
  const result = emptyResult();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let start = -1;
  let stem: string[] = [];
  let options: { letter: string; text: string }[] = [];
  const flush = (answer: string | null, at: number) => {
    const line = start + 1;
    result.total++;
    const place = { line };
    if (!options.length) {
      result.errors.push({
        ...place,
        field: 'answers',
        ...said('import.problem.aikenNoAnswers'),
      });
    } else if (answer === null) {
      result.errors.push({
        ...place,
        field: 'ANSWER',
        ...said('import.problem.aikenNoAnswerLine', { line: at }),
      });
    } else if (!options.some((o) => o.letter === answer)) {
      result.errors.push({
        ...place,
        field: 'ANSWER',
        ...said('import.problem.aikenNotAnswer', {
          answer,
          letters: options.map((o) => o.letter).join(', '),
        }),
      });
    } else {
      const built = choiceRecord(
        { text: stem.join('\n').trim(), code: null, images: [], lost: [] },
        options.map((o) => ({
          parts: { text: o.text.trim(), code: null, images: [], lost: [] },
          correct: o.letter === answer,
        })),
        'single',
      );
      if ('record' in built) result.records.push({ ...place, value: built.record });
      else result.unsupported.push({ ...place, ...built.refusal, title: shorten(stem.join(' ')) });
    }
    start = -1;
    stem = [];
    options = [];
  };
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) {
      if (start >= 0) flush(null, i + 1);
      return;
    }
    if (start < 0) start = i;
    const answer = ANSWER.exec(line);
    if (answer && start >= 0) {
      flush(answer[1]!, i + 1);
      return;
    }
    const option = OPTION.exec(line);
    if (option && stem.length) options.push({ letter: option[1]!, text: option[2]! });
    else if (options.length) options[options.length - 1]!.text += ` ${line}`;
    else stem.push(line);
  });
  if (start >= 0) flush(null, lines.length);
  return result;
}

/** Whether Aiken can hold the question: a single-answer question with text answers, at most 26 of them. */
export const aikenCanWrite = (q: BankQuestion) =>
  q.type === 'MCQ' && !q.image && q.options.length <= 26 && q.options.every((o) => !/[\r\n]/.test(o.value));

export function writeAiken(questions: readonly BankQuestion[]): string {
  return questions
    .filter(aikenCanWrite)
    .map(
      (q) =>
        `${q.question.replace(/\r?\n\s*\r?\n/g, '\n')}\n${q.options
          .map((o, i) => `${String.fromCharCode(65 + i)}. ${o.value}`)
          .join('\n')}\nANSWER: ${String.fromCharCode(65 + q.options.findIndex((o) => o.correct))}\n`,
    )
    .join('\n');
}
