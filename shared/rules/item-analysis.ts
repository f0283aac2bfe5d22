/**
 * Item analysis (issue 30; docs/item-analysis.md defines every figure): how well each question works and how
 * reliable a test is, from the evaluated attempts. Pure, so the server's aggregates, the portal, the CLI and
 * the tests read one definition.
 *
 * The figures are built from additive sums: each evaluated attempt is cut into pieces (`attemptPieces`), one
 * per question it received, and the pieces are added into per-question sums (`addPiece`) that the server keeps
 * in its aggregate tables; the figures (`itemFigures`, `testFigures`) are read from the sums. Adding the sums of
 * several assessments gives the figures over all of them (the question bank's column). Every statistic of a
 * question is computed over the attempts that received it, and a taker's score over the questions they
 * actually received — so a test that draws its questions at random is analysed as it was taken.
 *
 * - item score x: points earned / the question's points (0 to 1; a multi-select question earns a share);
 * - facility: the mean of x (Moodle's facility index: the proportion of the maximum score);
 * - discrimination: the corrected item–rest correlation — Pearson's r between x and the taker's rest score,
 *   the mean of x over the other questions they received (the point-biserial correlation when x is 0 or 1);
 * - option shares overall and in the upper and lower 27 % of takers by score (Kelley's groups);
 * - reliability: KR-20 when every question is scored right or wrong, Cronbach's α otherwise, with the standard
 *   error of measurement SD × √(1 − reliability).
 */
import { type FlagParams, flagDetailEnglish } from './flag-words';
import { type BucketCount, type DaySums, type ItemSums, OMITTED, RECEIVED } from './item-sums';
import { type NoteCode, noted } from './stats-notes';

/** Every threshold of the figures and flags, in one place (shown beside the flags; docs/item-analysis.md). */
export const ITEM_RULES = {
  /** Fewer attempts than this: figures are shown, flags are not raised. */
  minAttempts: 30,
  /** Facility above this: too easy. */
  tooEasy: 0.9,
  /** Facility below this: too hard. */
  tooHard: 0.2,
  /** Discrimination below this: poor (below 0: negative). */
  poorDiscrimination: 0.2,
  /** A distractor chosen by fewer than this share of takers. */
  rareDistractor: 0.05,
  /** The upper and lower groups: this share of takers each, by score. */
  groupShare: 0.27,
  /** A sudden rise in facility after a date. */
  leak: {
    /** Attempts needed on each side of the date. */
    minEachSide: 30,
    /** The rise in facility, at least. */
    rise: 0.2,
    /** The rise in standard errors (Welch's z), at least. */
    z: 3,
    /** The rest of the test rose by less than this share of the question's rise. */
    restShare: 0.5,
  },
  /** A test's pass mark, as its awards' (percentage). */
  passPercentage: 60,
  /** The score histogram's bins (of 100 / bins percentage points each). */
  histogramBins: 10,
} as const;

export const FLAG_CODES = [
  'TOO_EASY',
  'TOO_HARD',
  'NEGATIVE_DISCRIMINATION',
  'POOR_DISCRIMINATION',
  'RARE_DISTRACTOR',
  'LIKELY_MISKEYED',
  'POSSIBLY_LEAKED',
] as const;
export type FlagCode = (typeof FLAG_CODES)[number];

const pct = (share: number) => `${Math.round(share * 100)} %`;

/** Each flag's name and the rule that raises it, as shown beside it. */
export const FLAG_RULES: Record<FlagCode, { label: string; rule: string }> = {
  TOO_EASY: { label: 'Too easy', rule: `Facility above ${ITEM_RULES.tooEasy.toFixed(2)}.` },
  TOO_HARD: { label: 'Too hard', rule: `Facility below ${ITEM_RULES.tooHard.toFixed(2)}.` },
  NEGATIVE_DISCRIMINATION: {
    label: 'Negative discrimination',
    rule: 'Discrimination below 0: takers who do worse on the rest of the test do better on this question.',
  },
  POOR_DISCRIMINATION: {
    label: 'Poor discrimination',
    rule: `Discrimination below ${ITEM_RULES.poorDiscrimination.toFixed(2)}: it hardly separates strong takers from weak ones.`,
  },
  RARE_DISTRACTOR: {
    label: 'Distractor nobody picks',
    rule: `A wrong option chosen by fewer than ${pct(ITEM_RULES.rareDistractor)} of takers.`,
  },
  LIKELY_MISKEYED: {
    label: 'Likely miskeyed',
    rule: `A correct option chosen less often than a wrong one by the upper ${pct(ITEM_RULES.groupShare)} of takers.`,
  },
  POSSIBLY_LEAKED: {
    label: 'Possibly leaked',
    rule: `Facility rose by at least ${ITEM_RULES.leak.rise.toFixed(2)} after a date (at least ${ITEM_RULES.leak.z} standard errors, ${ITEM_RULES.leak.minEachSide}+ attempts on each side) while the rest of the test rose by less than half as much.`,
  },
};

// ---------------------------------------------------------------- a question's figures

export interface OptionFacts {
  id: string;
  /** The option's text (or image path) as the author wrote it. */
  label: string;
  isCorrect: boolean;
}

export interface OptionFigures {
  /** The option's id, or OMITTED for takers who chose none. */
  option: string;
  label: string;
  isKey: boolean;
  /** The share of the takers who received the question that chose it. */
  share: number;
  /** The same among the upper and lower 27 % of those takers by score; null without takers. */
  upper: number | null;
  lower: number | null;
}

export interface Flag {
  code: FlagCode;
  label: string;
  rule: string;
  /** What in the figures raised it, in English. */
  detail: string;
  /** The same, unformatted: what the portal says in its reader's language (flag-words.ts). */
  params: FlagParams;
}

export interface ItemFigures {
  attempts: number;
  /** The mean item score (0 to 1); null without attempts. */
  facility: number | null;
  /** The corrected item–rest correlation; null when it is not defined (see discriminationNote). */
  discrimination: number | null;
  /** Why discrimination is not given, when it is not. */
  discriminationNote: string | null;
  /** Its code, said in the reader's language (decision 048). */
  discriminationNoteCode: NoteCode | null;
  /** The mean seconds to answer it, over the attempts with a time. */
  averageSeconds: number | null;
  timedAttempts: number;
  /** Choice questions: each option's shares; null for typed answers. */
  options: OptionFigures[] | null;
  /** Fewer than ITEM_RULES.minAttempts attempts: the figures are shown, no flag is raised. */
  smallSample: boolean;
  flags: Flag[];
}

const mean = (sum: number, n: number) => (n > 0 ? sum / n : null);
/** A share kept within 0 to 1 (sums of floats added in another order can land a hair outside). */
const unit = (v: number) => Math.max(0, Math.min(1, v));

/** Pearson's r from sums; null when either side has no variance. */
export function correlation(
  n: number,
  sx: number,
  sxx: number,
  sy: number,
  syy: number,
  sxy: number,
): number | null {
  if (n < 2) return null;
  const vx = n * sxx - sx * sx;
  const vy = n * syy - sy * sy;
  // float noise of a constant column is not variance
  const tiny = 1e-9 * n * n;
  if (vx <= tiny || vy <= tiny) return null;
  const r = (n * sxy - sx * sy) / Math.sqrt(vx * vy);
  return Math.max(-1, Math.min(1, r));
}

function discriminationOf(s: ItemSums): {
  value: number | null;
  note: string | null;
  noteCode: NoteCode | null;
} {
  if (s.nr < 2) return { value: null, ...noted(s.n < 2 ? 'stats.note.twoAttempts' : 'stats.note.restScore') };
  const value = correlation(s.nr, s.rx, s.rxx, s.sr, s.srr, s.sxr);
  if (value !== null) return { value, note: null, noteCode: null };
  const vx = s.nr * s.rxx - s.rx * s.rx;
  return {
    value: null,
    ...noted(vx <= 1e-9 * s.nr * s.nr ? 'stats.note.sameOnIt' : 'stats.note.sameOnRest'),
  };
}

/**
 * The shares of the upper and lower groups: the `share` of takers with the highest (lowest) scores. Takers
 * tied at the group's edge count in the proportion needed to fill it, so the group is exactly that share.
 */
export function groupShares(
  buckets: readonly BucketCount[],
  share = ITEM_RULES.groupShare,
): { upper: Map<string, number>; lower: Map<string, number> } | null {
  const byBucket = new Map<number, { n: number; options: Map<string, number> }>();
  for (const b of buckets) {
    const entry = byBucket.get(b.bucket) ?? { n: 0, options: new Map() };
    if (b.option === RECEIVED) entry.n += b.n;
    else entry.options.set(b.option, (entry.options.get(b.option) ?? 0) + b.n);
    byBucket.set(b.bucket, entry);
  }
  const total = [...byBucket.values()].reduce((a, e) => a + e.n, 0);
  if (total === 0) return null;
  const size = share * total;
  const group = (order: number[]) => {
    const counts = new Map<string, number>();
    let filled = 0;
    for (const bucket of order) {
      const entry = byBucket.get(bucket)!;
      if (filled >= size || entry.n === 0) continue;
      const take = Math.min(1, (size - filled) / entry.n);
      for (const [option, n] of entry.options) counts.set(option, (counts.get(option) ?? 0) + n * take);
      filled += entry.n * take;
    }
    return new Map([...counts].map(([o, n]) => [o, unit(n / size)]));
  };
  const ascending = [...byBucket.keys()].sort((a, b) => a - b);
  return { upper: group([...ascending].reverse()), lower: group(ascending) };
}

/** The most significant rise in facility after a date, when it is one the leak rule flags. */
export function facilityRise(days: readonly DaySums[]): {
  from: string;
  before: { n: number; facility: number };
  after: { n: number; facility: number };
  z: number;
  restRise: number;
} | null {
  const sorted = [...days].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const all = sorted.reduce(
    (t, d) => ({ n: t.n + d.n, sx: t.sx + d.sx, sxx: t.sxx + d.sxx, nr: t.nr + d.nr, sr: t.sr + d.sr }),
    { n: 0, sx: 0, sxx: 0, nr: 0, sr: 0 },
  );
  const { minEachSide, rise, z: minZ, restShare } = ITEM_RULES.leak;
  if (all.n < 2 * minEachSide) return null;
  // the attempts before day i, kept as running sums (the bank reads this for every question)
  const before = { n: 0, sx: 0, sxx: 0, nr: 0, sr: 0 };
  let best: ReturnType<typeof facilityRise> = null;
  for (let i = 1; i < sorted.length; i++) {
    const d = sorted[i - 1]!;
    before.n += d.n;
    before.sx += d.sx;
    before.sxx += d.sxx;
    before.nr += d.nr;
    before.sr += d.sr;
    const after = {
      n: all.n - before.n,
      sx: all.sx - before.sx,
      sxx: all.sxx - before.sxx,
      nr: all.nr - before.nr,
      sr: all.sr - before.sr,
    };
    if (before.n < minEachSide || after.n < minEachSide) continue;
    const fb = before.sx / before.n;
    const fa = after.sx / after.n;
    const diff = fa - fb;
    if (diff < rise) continue;
    const vb = Math.max(0, before.sxx / before.n - fb * fb);
    const va = Math.max(0, after.sxx / after.n - fa * fa);
    const se = Math.sqrt(vb / before.n + va / after.n);
    const z = se > 0 ? diff / se : Number.POSITIVE_INFINITY;
    const restRise = before.nr > 0 && after.nr > 0 ? after.sr / after.nr - before.sr / before.nr : 0;
    if (z < minZ || restRise >= restShare * diff) continue;
    if (!best || z > best.z) {
      best = {
        from: sorted[i]!.day,
        before: { n: before.n, facility: fb },
        after: { n: after.n, facility: fa },
        z,
        restRise,
      };
    }
  }
  return best;
}

const flag = (code: FlagCode, params: FlagParams): Flag => ({
  code,
  ...FLAG_RULES[code],
  detail: flagDetailEnglish({ code, params }),
  params,
});

/**
 * A question's figures from its sums, its score buckets and its days; `options` are its options now (a
 * choice question's; null for a typed answer), `choice` whether it is a choice question.
 */
export function itemFigures(input: {
  sums: ItemSums;
  buckets: readonly BucketCount[];
  days: readonly DaySums[];
  options: readonly OptionFacts[] | null;
}): ItemFigures {
  const { sums: s, buckets, days } = input;
  const raw = mean(s.sx, s.n);
  const facility = raw === null ? null : unit(raw);
  const disc = discriminationOf(s);
  const averageSeconds = mean(s.seconds, s.timed);
  const smallSample = s.n < ITEM_RULES.minAttempts;

  let options: OptionFigures[] | null = null;
  if (input.options) {
    const chosen = new Map<string, number>();
    for (const b of buckets)
      if (b.option !== RECEIVED) chosen.set(b.option, (chosen.get(b.option) ?? 0) + b.n);
    const groups = groupShares(buckets);
    const row = (option: string, label: string, isKey: boolean): OptionFigures => ({
      option,
      label,
      isKey,
      share: s.n > 0 ? unit((chosen.get(option) ?? 0) / s.n) : 0,
      upper: groups ? (groups.upper.get(option) ?? 0) : null,
      lower: groups ? (groups.lower.get(option) ?? 0) : null,
    });
    options = [
      ...input.options.map((o) => row(o.id, o.label, o.isCorrect)),
      row(OMITTED, 'No answer', false),
    ];
  }

  const flags: Flag[] = [];
  if (!smallSample && facility !== null) {
    if (facility > ITEM_RULES.tooEasy) flags.push(flag('TOO_EASY', { facility }));
    if (facility < ITEM_RULES.tooHard) flags.push(flag('TOO_HARD', { facility }));
    if (disc.value !== null && disc.value < 0)
      flags.push(flag('NEGATIVE_DISCRIMINATION', { discrimination: disc.value }));
    else if (disc.value !== null && disc.value < ITEM_RULES.poorDiscrimination)
      flags.push(flag('POOR_DISCRIMINATION', { discrimination: disc.value }));
    if (options) {
      const distractors = options.filter((o) => !o.isKey && o.option !== OMITTED);
      const keys = options.filter((o) => o.isKey);
      const rare = distractors.filter((o) => o.share < ITEM_RULES.rareDistractor);
      if (rare.length)
        flags.push(
          flag('RARE_DISTRACTOR', { options: rare.map((o) => ({ label: o.label, share: o.share })) }),
        );
      const beaten = keys.flatMap((k) => {
        const by = distractors
          .filter((d) => (d.upper ?? 0) > (k.upper ?? 0))
          .sort((a, b) => (b.upper ?? 0) - (a.upper ?? 0))[0];
        return by
          ? [{ chosen: by.label, chosenShare: by.upper ?? 0, key: k.label, keyShare: k.upper ?? 0 }]
          : [];
      });
      if (beaten.length) flags.push(flag('LIKELY_MISKEYED', { beaten }));
    }
    const rise = facilityRise(days);
    if (rise) {
      flags.push(
        flag('POSSIBLY_LEAKED', {
          rise: {
            from: rise.from,
            before: rise.before.facility,
            beforeAttempts: rise.before.n,
            after: rise.after.facility,
            afterAttempts: rise.after.n,
            restRise: rise.restRise,
          },
        }),
      );
    }
  }
  return {
    attempts: s.n,
    facility,
    discrimination: disc.value,
    discriminationNote: disc.note,
    discriminationNoteCode: disc.noteCode,
    averageSeconds,
    timedAttempts: s.timed,
    options,
    smallSample,
    flags,
  };
}
