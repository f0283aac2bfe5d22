/**
 * Item analysis, a test's figures: the score distribution and histogram, the reliability (KR-20 or Cronbach's α)
 * with its standard error of measurement, and the question table as a file. docs/item-analysis.md defines them.
 */
import { ITEM_RULES, type ItemFigures } from './item-analysis';
import type { ItemSums } from './item-sums';
import { isMultiAnswer, type QuestionType } from './question-types';
import { round2 } from './scoring';
import { type NoteCode, noted } from './stats-notes';

// ---------------------------------------------------------------- a test's figures

/** How many attempts scored one percentage (two decimals). */
export interface ValueCount {
  value: number;
  n: number;
}

export interface Distribution {
  count: number;
  mean: number | null;
  median: number | null;
  /** The sample standard deviation (n − 1); null under two values. */
  sd: number | null;
}

/** Mean, median and the sample standard deviation of values given with their counts. */
export function distributionOf(counts: readonly ValueCount[]): Distribution {
  const sorted = counts.filter((c) => c.n > 0).sort((a, b) => a.value - b.value);
  const count = sorted.reduce((a, c) => a + c.n, 0);
  if (count === 0) return { count, mean: null, median: null, sd: null };
  const sum = sorted.reduce((a, c) => a + c.value * c.n, 0);
  const m = sum / count;
  const ss = sorted.reduce((a, c) => a + c.n * (c.value - m) ** 2, 0);
  const at = (rank: number) => {
    let seen = 0;
    for (const c of sorted) {
      seen += c.n;
      if (rank < seen) return c.value;
    }
    return sorted[sorted.length - 1]!.value;
  };
  const median = count % 2 ? at((count - 1) / 2) : (at(count / 2 - 1) + at(count / 2)) / 2;
  return { count, mean: m, median, sd: count > 1 ? Math.sqrt(ss / (count - 1)) : null };
}

export interface HistogramBin {
  /** The bin's lower edge (included) and upper edge (excluded; the last includes 100). */
  from: number;
  to: number;
  count: number;
}

/** Scores (percentages) counted in ITEM_RULES.histogramBins equal bins of 0–100. */
export function histogramOf(counts: readonly ValueCount[], bins: number = ITEM_RULES.histogramBins) {
  const width = 100 / bins;
  const out: HistogramBin[] = Array.from({ length: bins }, (_, i) => ({
    from: round2(i * width),
    to: round2((i + 1) * width),
    count: 0,
  }));
  for (const c of counts) {
    const i = Math.min(bins - 1, Math.max(0, Math.floor(round2(c.value) / width)));
    out[i]!.count += c.n;
  }
  return out;
}

export interface Reliability {
  /** KR-20 when every question is scored right or wrong; Cronbach's α otherwise. */
  method: 'KR-20' | 'ALPHA';
  value: number | null;
  /** The standard error of measurement in percentage points: SD × √(1 − value). */
  sem: number | null;
  /** Why it is not given, when it is not. */
  note: string | null;
  /** Its code, said in the reader's language (decision 048). */
  noteCode: NoteCode | null;
}

/**
 * The test's reliability over the attempts: α = k/(k − 1) × (1 − S / σ²), with σ² the (population) variance of
 * the raw scores, k the mean number of questions an attempt received and S the mean over attempts of the sum of
 * the (population) variances of the questions it received — Σ v_i · n_i / N. For a test every taker takes
 * whole it is Cronbach's α (KR-20 when every question is right or wrong); for drawn questions each attempt
 * counts the questions it received. `sd` is the score's standard deviation for the SEM, in percentage points.
 */
export function reliabilityOf(input: {
  attempts: number;
  /** Σ raw score, Σ raw score², Σ questions received, over the attempts. */
  sumRaw: number;
  sumRaw2: number;
  sumK: number;
  items: readonly Pick<ItemSums, 'n' | 'sx' | 'sxx'>[];
  /** Whether some question can earn part of its points (a multi-select question). */
  partialCredit: boolean;
  sd: number | null;
}): Reliability {
  const method = input.partialCredit ? 'ALPHA' : 'KR-20';
  const none = (code: NoteCode): Reliability => ({ method, value: null, sem: null, ...noted(code) });
  const N = input.attempts;
  if (N < 2) return none('stats.note.twoAttempts');
  const k = input.sumK / N;
  if (k < 2 - 1e-9) return none('stats.note.twoQuestions');
  const meanRaw = input.sumRaw / N;
  const variance = input.sumRaw2 / N - meanRaw * meanRaw;
  if (variance <= 1e-12) return none('stats.note.sameScore');
  const itemVariance = input.items.reduce((a, s) => {
    if (s.n === 0) return a;
    const m = s.sx / s.n;
    return a + Math.max(0, s.sxx / s.n - m * m) * s.n;
  }, 0);
  const value = (k / (k - 1)) * (1 - itemVariance / N / variance);
  const sem = input.sd !== null && value <= 1 ? input.sd * Math.sqrt(1 - value) : null;
  return { method, value, sem, note: null, noteCode: null };
}

/** Whether a question type can earn part of its points (reliability is then α, not KR-20). */
export const earnsPartialCredit = (type: QuestionType) => isMultiAnswer(type);

/** Seconds as '1 min 05 s' / '42 s'. */
export function durationWords(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min ${String(rest).padStart(2, '0')} s`;
}

// ---------------------------------------------------------------- the question table as a file

/** The columns of the question table's file (the export call, `waymark … stats --csv`). */
export const STATS_COLUMNS = [
  'Position',
  'Question',
  'Type',
  'Attempts',
  'Facility',
  'Discrimination',
  'Average time (s)',
  'Small sample',
  'Flags',
  'Options',
] as const;

/** '0.62' or '' */
const figure = (n: number | null) => (n === null ? null : Math.round(n * 1000) / 1000);

/** One question's row of the file: its figures, its flags by name, each option's shares ('*' marks a key). */
export function statsFileRow(row: {
  position: number | null;
  question: string;
  questionType: QuestionType;
  figures: ItemFigures;
}): Record<(typeof STATS_COLUMNS)[number], string | number | boolean | null> {
  const f = row.figures;
  return {
    Position: row.position,
    Question: row.question,
    Type: row.questionType,
    Attempts: f.attempts,
    Facility: figure(f.facility),
    Discrimination: figure(f.discrimination),
    'Average time (s)': f.averageSeconds === null ? null : Math.round(f.averageSeconds),
    'Small sample': f.smallSample,
    Flags: f.flags.map((x) => x.label).join('; '),
    Options: (f.options ?? [])
      .map(
        (o) =>
          `${o.isKey ? '*' : ''}${o.label}: ${Math.round(o.share * 100)} %` +
          (o.upper === null
            ? ''
            : ` (upper ${Math.round(o.upper * 100)} %, lower ${Math.round((o.lower ?? 0) * 100)} %)`),
      )
      .join('; '),
  };
}
