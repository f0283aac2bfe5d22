/**
 * Item analysis, one attempt cut into pieces and the additive sums they are added into (the server keeps the
 * sums per assessment and question in its aggregate tables). The figures are read from these sums
 * (`item-analysis.ts`, `test-figures.ts`); docs/item-analysis.md defines them.
 */
import { POINTS_PER_QUESTION, round2 } from './scoring';

// ---------------------------------------------------------------- one attempt, cut into pieces

/**
 * An answer first saved at least this long before the submission was saved as it was given (an autosave);
 * one first saved by the submission itself carries the submission's time, give or take the two clocks.
 */
export const SAVED_BEFORE_SUBMISSION_MS = 1_000;

/** The option key of a received choice question answered with no option. */
export const OMITTED = 'none';

/** One question as an evaluated attempt received it. */
export interface ReceivedItem {
  questionId: string;
  /** Points earned (0 to POINTS_PER_QUESTION). */
  points: number;
  /** The options chosen, for a choice question (empty: none chosen); null for a typed answer. */
  chosen: readonly string[] | null;
  /** When the taker first saved an answer to it (ms); null when it was never saved before the submission. */
  firstSavedAt: number | null;
}

export interface EvaluatedAttempt {
  items: readonly ReceivedItem[];
  /** When the clock started (ms); null when it was never started. */
  startedAt: number | null;
  /** When it was evaluated (ms). */
  completedAt: number;
}

/** What one attempt adds to one question's sums. */
export interface ItemPiece {
  questionId: string;
  /** The item score, 0 to 1. */
  x: number;
  /** The mean item score over the other questions of the attempt; null when it received only this one. */
  rest: number | null;
  /** The attempt's score to the whole percentage point (0–100): its place in the ranking of takers. */
  bucket: number;
  /** The option keys counted for it: the options chosen, [OMITTED] for none; null for a typed answer. */
  options: readonly string[] | null;
  /** Seconds from the previous first answer (or the start) to this question's first answer; null when unknown. */
  seconds: number | null;
  /** The day it was evaluated, UTC (YYYY-MM-DD). */
  day: string;
}

export interface AttemptSummary {
  /** The number of questions received. */
  k: number;
  /** The raw score: the sum of the item scores (0 to k). */
  raw: number;
  /** raw / k as a percentage, two decimals. */
  percentage: number;
  pieces: ItemPiece[];
}

/** The score bucket of a percentage: its whole percentage points, 0 to 100. */
export const bucketOf = (percentage: number) => Math.max(0, Math.min(100, Math.floor(round2(percentage))));

/**
 * Cuts an evaluated attempt into one piece per question received. A question's time runs from the taker's
 * previous first answer (or the start) to its own first answer, over the answers saved before the
 * submission (SAVED_BEFORE_SUBMISSION_MS); the others have no time.
 */
export function attemptPieces(attempt: EvaluatedAttempt): AttemptSummary {
  const k = attempt.items.length;
  const xs = attempt.items.map((i) => Math.max(0, Math.min(1, i.points / POINTS_PER_QUESTION)));
  const raw = xs.reduce((a, b) => a + b, 0);
  const percentage = k > 0 ? round2((raw * 100) / k) : 0;
  const bucket = bucketOf(percentage);
  const day = new Date(attempt.completedAt).toISOString().slice(0, 10);
  const timed = attempt.items
    .map((item, i) => ({ i, at: item.firstSavedAt }))
    .filter(
      (t): t is { i: number; at: number } =>
        t.at !== null && t.at <= attempt.completedAt - SAVED_BEFORE_SUBMISSION_MS,
    )
    .sort((a, b) => a.at - b.at);
  const seconds = new Map<number, number>();
  let previous = attempt.startedAt;
  for (const t of timed) {
    if (previous !== null && t.at >= previous) seconds.set(t.i, (t.at - previous) / 1000);
    previous = t.at;
  }
  const pieces = attempt.items.map((item, i) => ({
    questionId: item.questionId,
    x: xs[i]!,
    rest: k > 1 ? (raw - xs[i]!) / (k - 1) : null,
    bucket,
    options: item.chosen === null ? null : item.chosen.length ? [...new Set(item.chosen)] : [OMITTED],
    seconds: seconds.get(i) ?? null,
    day,
  }));
  return { k, raw, percentage, pieces };
}

// ---------------------------------------------------------------- sums

/** A question's additive sums (kept by the server per assessment and question). */
export interface ItemSums {
  /** Attempts that received it; Σx; Σx². */
  n: number;
  sx: number;
  sxx: number;
  /** Of those with a rest score: how many, Σx, Σx², Σrest, Σrest², Σx·rest. */
  nr: number;
  rx: number;
  rxx: number;
  sr: number;
  srr: number;
  sxr: number;
  /** Attempts with a time for it, and the seconds in all. */
  timed: number;
  seconds: number;
}

export const emptySums = (): ItemSums => ({
  n: 0,
  sx: 0,
  sxx: 0,
  nr: 0,
  rx: 0,
  rxx: 0,
  sr: 0,
  srr: 0,
  sxr: 0,
  timed: 0,
  seconds: 0,
});

/** The key of the receivers' count in a question's score buckets (beside the options' counts). */
export const RECEIVED = 'all';

/** How many takers in one score bucket received a question (`option` RECEIVED) or chose one of its options. */
export interface BucketCount {
  bucket: number;
  option: string;
  n: number;
}

/** A question's attempts evaluated on one day (for the rise in facility after a date). */
export interface DaySums {
  day: string;
  n: number;
  sx: number;
  sxx: number;
  /** Those with a rest score, and Σrest. */
  nr: number;
  sr: number;
}

/** Adds one piece into sums (in place). */
export function addPiece(s: ItemSums, p: ItemPiece): ItemSums {
  s.n += 1;
  s.sx += p.x;
  s.sxx += p.x * p.x;
  if (p.rest !== null) {
    s.nr += 1;
    s.rx += p.x;
    s.rxx += p.x * p.x;
    s.sr += p.rest;
    s.srr += p.rest * p.rest;
    s.sxr += p.x * p.rest;
  }
  if (p.seconds !== null) {
    s.timed += 1;
    s.seconds += p.seconds;
  }
  return s;
}

/** The bucket counts a piece adds: the receiver, and each option counted. */
export function pieceBuckets(p: ItemPiece): BucketCount[] {
  return [
    { bucket: p.bucket, option: RECEIVED, n: 1 },
    ...(p.options ?? []).map((option) => ({ bucket: p.bucket, option, n: 1 })),
  ];
}
