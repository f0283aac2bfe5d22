/**
 * Scoring of assessments (learner §4, §5, §9; mentor §5; decision 005), pure so that the server scores and
 * every screen explains the score with the same rules:
 *
 * - every question is worth 10 points;
 * - single-answer types (MCQ, CODE_MCQ, MCQ_IMAGE) are all or nothing; a question with no type is an MCQ;
 * - multi-select types (MSQ, MSQ_IMAGE): the 10 points are split equally across the correct options, each
 *   correct option chosen earns its share, and choosing any wrong option scores the question 0
 *   (docs/decisions/005-msq-scoring.md);
 * - fill-in-blank: the answer must equal one of the accepted values; numbers are compared as numbers
 *   ('3.0' equals 3), text trimmed and without regard to case;
 * - percentage = score × 100 / (10 × questions), displayed rounded up;
 * - a certificate (feather, badge) is earned when score / questions ≥ 6;
 * - a resource gets its green tick at 60 %.
 */
import type { TestStatus } from '../schemas/assessment';
import { RESOURCE_TICK_THRESHOLD } from './progress';
import { effectiveType, isMultiAnswer, isTextAnswer, type MaybeQuestionType } from './question-types';

/** Points of one question, whatever its type. */
export const POINTS_PER_QUESTION = 10;
/** Certificate eligibility: at least this average per question (on 10). */
export const CERTIFICATE_AVERAGE = 6;
/** A resource shows a green tick once any of its assessments scored this percentage or more. */
export const RESOURCE_TICK_PERCENTAGE = RESOURCE_TICK_THRESHOLD;
/** A prerequisite scored below this percentage puts its sections first in the learner's roadmap. */
export const PREREQUISITE_PASS_PERCENTAGE = 60;

export interface ScoringOption {
  id: string;
  /** Option text, image path, or an accepted fill-in-blank value. */
  value: string;
  isCorrect: boolean;
}

export interface ScoringQuestion {
  type?: MaybeQuestionType;
  options: readonly ScoringOption[];
}

/** What the learner gave: option ids (one for single-answer types), or a typed value for fill-in-blank. */
export interface GivenAnswer {
  answerIds?: readonly string[] | string | null;
  answerText?: string | number | null;
}

/** Two decimals, as the points are stored; removes float noise such as 0.1 + 0.2. */
export const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

/** The value as a number when it is written as one ('3', '-2.50', '.5', '1e3'), else null. */
export function parseNumber(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const s = value.trim();
  if (!NUMBER.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** Whether a typed answer equals an accepted value: as numbers when both are numbers, else as text. */
export function matchesAccepted(accepted: string, given: string | number): boolean {
  const a = parseNumber(accepted);
  const g = parseNumber(given);
  if (a !== null && g !== null) return a === g;
  const text = String(given).trim();
  return text !== '' && text.toLowerCase() === accepted.trim().toLowerCase();
}

/** The accepted values of a fill-in-blank question: its options marked correct, or all when none is marked. */
export function acceptedValues(q: ScoringQuestion): string[] {
  const marked = q.options.filter((o) => o.isCorrect);
  return (marked.length ? marked : q.options).map((o) => o.value).filter((v) => v.trim() !== '');
}

const idsOf = (a: GivenAnswer): string[] => {
  const ids = a.answerIds;
  if (ids === undefined || ids === null) return [];
  return [...new Set(typeof ids === 'string' ? [ids] : ids)].filter((id) => id !== '');
};

/** The points one answer earns (0 to 10). */
export function scoreQuestion(q: ScoringQuestion, a: GivenAnswer | null | undefined): number {
  if (!a) return 0;
  const type = effectiveType(q.type);
  if (isTextAnswer(type)) {
    const given = a.answerText;
    if (given === undefined || given === null || String(given).trim() === '') return 0;
    return acceptedValues(q).some((v) => matchesAccepted(v, given)) ? POINTS_PER_QUESTION : 0;
  }
  const chosen = idsOf(a);
  const correct = new Set(q.options.filter((o) => o.isCorrect).map((o) => o.id));
  if (chosen.length === 0 || correct.size === 0) return 0;
  if (isMultiAnswer(type)) {
    if (chosen.some((id) => !correct.has(id))) return 0;
    return round2((POINTS_PER_QUESTION * chosen.length) / correct.size);
  }
  return chosen.length === 1 && correct.has(chosen[0]!) ? POINTS_PER_QUESTION : 0;
}

/**
 * What choosing one correct option earns, as scoreQuestion counts it — for the editor and the question
 * card to show beside each correct option: a single-answer question's whole 10 points; for a
 * multi-select question an equal share of them across its `correctCount` correct options (decision 005:
 * two correct → 5 each, three → 3.33). Fill-in-blank has no options to choose; it earns the whole points.
 */
export function correctOptionPoints(type: MaybeQuestionType, correctCount: number): number {
  if (!isMultiAnswer(type)) return POINTS_PER_QUESTION;
  return correctCount > 0 ? round2(POINTS_PER_QUESTION / correctCount) : 0;
}

/** score × 100 / (10 × questions), to two decimals; 0 for a test without questions. */
export function percentageOf(score: number, questionCount: number): number {
  if (questionCount <= 0) return 0;
  return round2((score * 100) / (POINTS_PER_QUESTION * questionCount));
}

/** The percentage as shown: rounded up (a stored 70.00 stays 70). */
export function displayPercentage(percentage: number): number {
  return Math.ceil(round2(percentage));
}

/** A certificate (or badge, or feather) is earned when score / questions ≥ 6. */
export function isCertificateEligible(score: number, questionCount: number): boolean {
  return questionCount > 0 && round2(score) / questionCount >= CERTIFICATE_AVERAGE;
}

export interface ScoreSummary {
  score: number;
  percentage: number;
  questionCount: number;
  eligible: boolean;
}

/** The totals of a test from the points of each question (unanswered questions count, with 0 points). */
export function summarise(points: readonly number[], questionCount = points.length): ScoreSummary {
  const score = round2(points.reduce((sum, p) => sum + p, 0));
  return {
    score,
    percentage: percentageOf(score, questionCount),
    questionCount,
    eligible: isCertificateEligible(score, questionCount),
  };
}

/** The status after evaluation: GENERATE_CERTIFICATE until the award image exists, then VIEW_CERTIFICATE. */
export function statusAfterEvaluation(eligible: boolean, imageExists: boolean): TestStatus {
  if (!eligible) return 'NO_ENOUGH_MARKS';
  return imageExists ? 'VIEW_CERTIFICATE' : 'GENERATE_CERTIFICATE';
}

/** Whether a resource shows the green tick, from the best percentage of its assessments (null: none). */
export function earnsResourceTick(bestPercentage: number | null | undefined): boolean {
  return typeof bestPercentage === 'number' && round2(bestPercentage) >= RESOURCE_TICK_PERCENTAGE;
}

/** Whether a prerequisite was passed in the initial assessment (else its sections come first). */
export function passesPrerequisite(percentage: number): boolean {
  return round2(percentage) >= PREREQUISITE_PASS_PERCENTAGE;
}
