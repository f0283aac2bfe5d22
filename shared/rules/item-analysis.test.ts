/**
 * Item analysis against worked examples whose answers are computed here independently, with simple-statistics
 * (an npm statistics library, not ours) straight from the response matrix: facility as the mean item score,
 * discrimination as Pearson's r between the item and the rest score, KR-20 from Σpq and the variance of the
 * totals, Cronbach's α from the item variances — and the edge cases: every taker right, zero variance, one
 * taker, multi-select partial credit, questions drawn for some takers only.
 */
import * as ss from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { facilityRise, ITEM_RULES, itemFigures, type OptionFacts } from './item-analysis';
import {
  addPiece,
  attemptPieces,
  type BucketCount,
  bucketOf,
  type DaySums,
  type EvaluatedAttempt,
  emptySums,
  type ItemSums,
  OMITTED,
  pieceBuckets,
} from './item-sums';
import { distributionOf, histogramOf, reliabilityOf } from './test-figures';

/** A response matrix: rows are takers, columns questions; a cell is the points earned (0–10) or null (not received). */
type Matrix = (number | null)[][];
const Q = (j: number) => `q${j}`;

/** Runs a matrix through the product's fold: pieces → sums → figures. */
function analyse(
  m: Matrix,
  opts: { partial?: boolean; chosen?: (i: number, j: number) => string[] | null } = {},
) {
  const sums = new Map<string, ItemSums>();
  const buckets = new Map<string, BucketCount[]>();
  let sumRaw = 0;
  let sumRaw2 = 0;
  let sumK = 0;
  const percentages: number[] = [];
  m.forEach((row, i) => {
    const attempt: EvaluatedAttempt = {
      items: row.flatMap((points, j) =>
        points === null
          ? []
          : [{ questionId: Q(j), points, chosen: opts.chosen?.(i, j) ?? null, firstSavedAt: null }],
      ),
      startedAt: null,
      completedAt: Date.UTC(2026, 2, 1),
    };
    const a = attemptPieces(attempt);
    sumRaw += a.raw;
    sumRaw2 += a.raw * a.raw;
    sumK += a.k;
    percentages.push(a.percentage);
    for (const p of a.pieces) {
      addPiece(sums.get(p.questionId) ?? sums.set(p.questionId, emptySums()).get(p.questionId)!, p);
      buckets.set(p.questionId, [...(buckets.get(p.questionId) ?? []), ...pieceBuckets(p)]);
    }
  });
  const scores = distributionOf(percentages.map((value) => ({ value, n: 1 })));
  const reliability = reliabilityOf({
    attempts: m.length,
    sumRaw,
    sumRaw2,
    sumK,
    items: [...sums.values()],
    partialCredit: opts.partial ?? false,
    sd: scores.sd,
  });
  const figures = (j: number, options: OptionFacts[] | null = null) =>
    itemFigures({
      sums: sums.get(Q(j)) ?? emptySums(),
      buckets: buckets.get(Q(j)) ?? [],
      days: [],
      options,
    });
  return { figures, reliability, scores, percentages };
}

/** The independent side: columns as item scores (0–1) of the takers who received them, and rest scores. */
const column = (m: Matrix, j: number) => m.filter((r) => r[j] !== null).map((r) => r[j]! / 10);
const restOf = (m: Matrix, j: number) =>
  m
    .filter((r) => r[j] !== null)
    .map((r) => {
      const others = r.filter((v, c) => c !== j && v !== null) as number[];
      return ss.mean(others.map((v) => v / 10));
    });
const totals = (m: Matrix) =>
  m.map((r) => ss.sum(r.filter((v): v is number => v !== null).map((v) => v / 10)));

// 12 takers × 5 right-or-wrong questions (10 points or 0)
const DICHOTOMOUS: Matrix = [
  [10, 10, 10, 0, 10],
  [10, 10, 0, 0, 10],
  [10, 0, 10, 10, 10],
  [10, 10, 10, 10, 10],
  [0, 0, 0, 0, 10],
  [10, 0, 0, 0, 0],
  [10, 10, 10, 0, 0],
  [0, 10, 0, 0, 10],
  [10, 10, 10, 10, 0],
  [0, 0, 10, 0, 10],
  [10, 10, 10, 0, 10],
  [0, 0, 0, 10, 0],
];

describe('a fixed test of right-or-wrong questions', () => {
  const { figures, reliability, scores, percentages } = analyse(DICHOTOMOUS);

  it('gives each question the facility simple-statistics computes: the mean item score', () => {
    for (let j = 0; j < 5; j++) expect(figures(j).facility).toBeCloseTo(ss.mean(column(DICHOTOMOUS, j)), 12);
    expect(figures(0).attempts).toBe(12);
  });

  it('gives the corrected item–rest point-biserial correlation as discrimination', () => {
    for (let j = 0; j < 5; j++) {
      const expected = ss.sampleCorrelation(column(DICHOTOMOUS, j), restOf(DICHOTOMOUS, j));
      expect(figures(j).discrimination).toBeCloseTo(expected, 10);
    }
  });

  it('gives KR-20 = k/(k−1)·(1 − Σpq/σ²) and its standard error of measurement', () => {
    const k = 5;
    const pq = ss.sum(
      [0, 1, 2, 3, 4].map((j) => ss.mean(column(DICHOTOMOUS, j)) * (1 - ss.mean(column(DICHOTOMOUS, j)))),
    );
    const kr20 = (k / (k - 1)) * (1 - pq / ss.variance(totals(DICHOTOMOUS)));
    expect(reliability.method).toBe('KR-20');
    expect(reliability.value).toBeCloseTo(kr20, 10);
    const sd = ss.sampleStandardDeviation(percentages);
    expect(scores.sd).toBeCloseTo(sd, 10);
    expect(reliability.sem).toBeCloseTo(sd * Math.sqrt(1 - kr20), 10);
  });

  it('gives the mean and median score as simple-statistics does', () => {
    expect(scores.mean).toBeCloseTo(ss.mean(percentages), 10);
    expect(scores.median).toBeCloseTo(ss.median(percentages), 10);
  });

  it('says a small sample is small: figures shown, no flags', () => {
    expect(figures(0).smallSample).toBe(true);
    expect(figures(4).flags).toEqual([]);
  });
});

describe('multi-select partial credit', () => {
  // 10 points split over correct options (decision 005): 3.33, 5, 6.67 appear
  const PARTIAL: Matrix = [
    [10, 5, 3.33, 10],
    [10, 10, 6.67, 10],
    [0, 5, 0, 0],
    [10, 0, 10, 10],
    [0, 5, 3.33, 0],
    [10, 10, 10, 10],
    [0, 0, 0, 10],
    [10, 5, 6.67, 0],
  ];
  const { figures, reliability } = analyse(PARTIAL, { partial: true });

  it('uses Cronbach’s α = k/(k−1)·(1 − Σσ²ᵢ/σ²ₓ)', () => {
    const k = 4;
    const itemVar = ss.sum([0, 1, 2, 3].map((j) => ss.variance(column(PARTIAL, j))));
    const alpha = (k / (k - 1)) * (1 - itemVar / ss.variance(totals(PARTIAL)));
    expect(reliability.method).toBe('ALPHA');
    expect(reliability.value).toBeCloseTo(alpha, 10);
  });

  it('gives facility as the proportion of the maximum score, and the item–rest correlation', () => {
    for (let j = 0; j < 4; j++) {
      expect(figures(j).facility).toBeCloseTo(ss.mean(column(PARTIAL, j)), 12);
      expect(figures(j).discrimination).toBeCloseTo(
        ss.sampleCorrelation(column(PARTIAL, j), restOf(PARTIAL, j)),
        10,
      );
    }
  });
});

describe('questions drawn for some takers only', () => {
  // 10 takers each received 3 of 5 questions
  const DRAWN: Matrix = [
    [10, 0, 10, null, null],
    [null, 10, 10, 10, null],
    [0, null, null, 0, 10],
    [10, 10, null, null, 0],
    [null, null, 0, 10, 10],
    [0, 10, null, 10, null],
    [10, null, 10, null, 10],
    [null, 0, 0, null, 0],
    [10, null, null, 10, 10],
    [null, 10, 10, 0, null],
  ];
  const { figures, reliability } = analyse(DRAWN);

  it('computes each question over the takers who received it, against the rest of what they received', () => {
    for (let j = 0; j < 5; j++) {
      expect(figures(j).attempts).toBe(column(DRAWN, j).length);
      expect(figures(j).facility).toBeCloseTo(ss.mean(column(DRAWN, j)), 12);
      expect(figures(j).discrimination).toBeCloseTo(
        ss.sampleCorrelation(column(DRAWN, j), restOf(DRAWN, j)),
        10,
      );
    }
  });

  it('gives α with each attempt counting the variances of the questions it received', () => {
    const N = DRAWN.length;
    const k = 3;
    // Σ over questions of (population variance among receivers × receivers) / attempts
    const S = ss.sum([0, 1, 2, 3, 4].map((j) => ss.variance(column(DRAWN, j)) * column(DRAWN, j).length)) / N;
    const alpha = (k / (k - 1)) * (1 - S / ss.variance(totals(DRAWN)));
    expect(reliability.value).toBeCloseTo(alpha, 10);
  });
});

describe('edge cases', () => {
  it('every taker right: facility 1, discrimination not defined, reliability not defined', () => {
    const all: Matrix = Array.from({ length: 40 }, () => [10, 10, 10]);
    const { figures, reliability } = analyse(all);
    expect(figures(0).facility).toBe(1);
    expect(figures(0).discrimination).toBeNull();
    expect(figures(0).discriminationNote).toMatch(/every taker scored the same on it/);
    expect(reliability.value).toBeNull();
    expect(reliability.note).toMatch(/same score/);
    expect(figures(0).flags.map((f) => f.code)).toEqual(['TOO_EASY']);
  });

  it('zero variance of the rest: discrimination not defined, said why', () => {
    const m: Matrix = Array.from({ length: 8 }, (_, i) => [i % 2 ? 10 : 0, 10, 10]);
    const { figures } = analyse(m);
    expect(figures(0).facility).toBe(0.5);
    expect(figures(0).discrimination).toBeNull();
    expect(figures(0).discriminationNote).toMatch(/same on the rest/);
  });

  it('one taker: figures that exist are given, the rest are not', () => {
    const { figures, reliability, scores } = analyse([[10, 0, 10]]);
    expect(figures(0).attempts).toBe(1);
    expect(figures(0).facility).toBe(1);
    expect(figures(0).discrimination).toBeNull();
    expect(reliability.value).toBeNull();
    expect(scores.sd).toBeNull();
    expect(scores.median).toBeCloseTo(66.67, 2);
  });

  it('one-question tests have no rest score', () => {
    const { figures, reliability } = analyse([[10], [0], [10]]);
    expect(figures(0).facility).toBeCloseTo(2 / 3, 12);
    expect(figures(0).discrimination).toBeNull();
    expect(reliability.note).toMatch(/at least two questions/);
  });
});

describe('options in the upper and lower 27 % of takers', () => {
  // 100 takers: 27 high scorers, 46 middling, 27 low — the groups' edges fall between their scores
  const scoresOf = (i: number) => (i < 27 ? 100 : i < 73 ? 60 : 20);
  const options: OptionFacts[] = [
    { id: 'a', label: 'Alpha', isCorrect: true },
    { id: 'b', label: 'Beta', isCorrect: false },
    { id: 'c', label: 'Gamma', isCorrect: false },
    { id: 'd', label: 'Delta', isCorrect: false },
  ];
  // question 0 is the analysed one; the other eight make up most of the score
  const choice = (i: number) => (i % 5 === 0 ? 'b' : i < 40 ? 'a' : i % 3 === 0 ? 'a' : 'c');
  const m: Matrix = Array.from({ length: 100 }, (_, i) => {
    const right = choice(i) === 'a' ? 10 : 0;
    const pct = scoresOf(i);
    // eight more questions keep the three groups apart whatever question 0 scores
    const others = Array.from({ length: 8 }, (_, j) => (j < (pct === 100 ? 8 : pct === 60 ? 4 : 0) ? 10 : 0));
    return [right, ...others];
  });
  // the analysed question counts towards the score too: recompute each taker's place with it, independently
  const { figures } = analyse(m, { chosen: (i, j) => (j === 0 ? [choice(i)] : null) });

  it('gives each option’s share overall and in each group, as a direct count of those takers', () => {
    const totalsByTaker = m.map((r, i) => ({ i, total: ss.sum(r as number[]) }));
    const ranked = [...totalsByTaker].sort((a, b) => b.total - a.total);
    // no ties across the 27th place in this matrix
    expect(ranked[26]!.total).toBeGreaterThan(ranked[27]!.total);
    expect(ranked[72]!.total).toBeGreaterThan(ranked[73]!.total);
    const upper = ranked.slice(0, 27).map((t) => t.i);
    const lower = ranked.slice(73).map((t) => t.i);
    const f = figures(0, options);
    for (const o of options) {
      const row = f.options!.find((r) => r.option === o.id)!;
      expect(row.share).toBeCloseTo(m.filter((_, i) => choice(i) === o.id).length / 100, 12);
      expect(row.upper).toBeCloseTo(upper.filter((i) => choice(i) === o.id).length / 27, 12);
      expect(row.lower).toBeCloseTo(lower.filter((i) => choice(i) === o.id).length / 27, 12);
    }
    expect(f.options!.find((r) => r.option === OMITTED)!.share).toBe(0);
  });

  it('flags the distractor nobody picks, with the rule shown', () => {
    const f = figures(0, options);
    const rare = f.flags.find((x) => x.code === 'RARE_DISTRACTOR')!;
    expect(rare.detail).toContain('“Delta” chosen by 0.0 %');
    expect(rare.rule).toBe('A wrong option chosen by fewer than 5 % of takers.');
  });

  it('flags a key the upper group chooses less than a distractor as likely miskeyed', () => {
    const miskeyed = options.map((o) => ({ ...o, isCorrect: o.id === 'c' }));
    const f = figures(0, miskeyed);
    expect(f.flags.map((x) => x.code)).toContain('LIKELY_MISKEYED');
    const right = figures(0, options);
    expect(right.flags.map((x) => x.code)).not.toContain('LIKELY_MISKEYED');
  });

  it('shares takers tied at a group’s edge in proportion, so the group is exactly 27 %', () => {
    // 10 takers with one score: each group is 2.7 of them, whatever they chose
    const buckets: BucketCount[] = [
      { bucket: 50, option: 'all', n: 10 },
      { bucket: 50, option: 'a', n: 4 },
      { bucket: 50, option: 'b', n: 6 },
    ];
    const f = itemFigures({
      sums: { ...emptySums(), n: 10, sx: 4, sxx: 4 },
      buckets,
      days: [],
      options: options.slice(0, 2),
    });
    expect(f.options![0]!.upper).toBeCloseTo(0.4, 12);
    expect(f.options![1]!.lower).toBeCloseTo(0.6, 12);
  });
});

describe('flags', () => {
  const sums = (n: number, facility: number): ItemSums => ({
    ...emptySums(),
    n,
    sx: n * facility,
    sxx: n * facility,
  });
  it('too hard below 0.20, too easy above 0.90, none at 30 attempts in between', () => {
    const codes = (s: ItemSums) =>
      itemFigures({ sums: s, buckets: [], days: [], options: null }).flags.map((f) => f.code);
    expect(codes(sums(30, 0.1))).toEqual(['TOO_HARD']);
    expect(codes(sums(30, 0.95))).toEqual(['TOO_EASY']);
    expect(codes(sums(30, 0.5))).toEqual([]);
    expect(codes(sums(29, 0.1))).toEqual([]);
  });

  it('poor and negative discrimination', () => {
    const { figures } = analyse(
      Array.from({ length: 40 }, (_, i) => [
        (i + 2) % 3 === 0 ? 10 : 0,
        i < 20 ? 10 : 0,
        i < 25 ? 10 : 0,
        i < 15 ? 10 : 0,
      ]),
    );
    // question 0 is nearly unrelated to the rest: discrimination 0.02
    expect(figures(0).discrimination!).toBeGreaterThan(0);
    expect(figures(0).discrimination!).toBeLessThan(0.2);
    expect(figures(0).flags.map((f) => f.code)).toContain('POOR_DISCRIMINATION');
    const { figures: f2 } = analyse(
      Array.from({ length: 40 }, (_, i) => [i < 20 ? 0 : 10, i < 20 ? 10 : 0, i < 22 ? 10 : 0]),
    );
    expect(f2(0).discrimination!).toBeLessThan(0);
    expect(f2(0).flags.map((f) => f.code)).toContain('NEGATIVE_DISCRIMINATION');
  });

  it('a sudden rise in facility after a date, when the rest of the test did not rise', () => {
    const day = (d: string, n: number, f: number, rest = 0.5): DaySums => ({
      day: d,
      n,
      sx: n * f,
      sxx: n * f,
      nr: n,
      sr: n * rest,
    });
    const before = [day('2026-03-01', 20, 0.3), day('2026-03-02', 20, 0.35)];
    const leaked = [...before, day('2026-03-03', 20, 0.9), day('2026-03-04', 20, 0.85)];
    const rise = facilityRise(leaked)!;
    expect(rise.from).toBe('2026-03-03');
    expect(rise.before.facility).toBeCloseTo(0.325, 12);
    expect(rise.after.facility).toBeCloseTo(0.875, 12);
    // a better cohort: everything rose together
    expect(
      facilityRise([...before, day('2026-03-03', 20, 0.9, 0.9), day('2026-03-04', 20, 0.85, 0.9)]),
    ).toBeNull();
    // too few on one side
    expect(facilityRise([day('2026-03-01', 29, 0.3), day('2026-03-03', 40, 0.9)])).toBeNull();
    const f = itemFigures({
      sums: { ...emptySums(), n: 80, sx: 80 * 0.6, sxx: 80 * 0.6 },
      buckets: [],
      days: leaked,
      options: null,
    });
    expect(f.flags.find((x) => x.code === 'POSSIBLY_LEAKED')!.detail).toMatch(
      /rose from 0\.33 \(40 attempts before 3rd Mar 2026\) to 0\.88/,
    );
  });
});

describe('a test’s score figures', () => {
  it('histogram of ten bins, the last including 100', () => {
    const h = histogramOf([
      { value: 0, n: 1 },
      { value: 9.99, n: 2 },
      { value: 10, n: 3 },
      { value: 100, n: 4 },
    ]);
    expect(h).toHaveLength(ITEM_RULES.histogramBins);
    expect(h[0]).toEqual({ from: 0, to: 10, count: 3 });
    expect(h[1]!.count).toBe(3);
    expect(h[9]).toEqual({ from: 90, to: 100, count: 4 });
  });

  it('median of counted values, as simple-statistics gives it from the values', () => {
    const counts = [
      { value: 40, n: 3 },
      { value: 55.5, n: 1 },
      { value: 90, n: 4 },
    ];
    const values = counts.flatMap((c) => Array(c.n).fill(c.value));
    const d = distributionOf(counts);
    expect(d.median).toBe(ss.median(values));
    expect(d.sd).toBeCloseTo(ss.sampleStandardDeviation(values), 12);
  });

  it('times each question from the previous first answer, or the start', () => {
    const start = Date.UTC(2026, 2, 1, 10);
    const a = attemptPieces({
      startedAt: start,
      completedAt: start + 600_000,
      items: [
        { questionId: 'a', points: 10, chosen: ['x'], firstSavedAt: start + 90_000 },
        { questionId: 'b', points: 0, chosen: [], firstSavedAt: start + 30_000 },
        // first saved by the submission itself: no time
        { questionId: 'c', points: 0, chosen: ['y'], firstSavedAt: start + 600_500 },
        { questionId: 'd', points: 0, chosen: null, firstSavedAt: null },
      ],
    });
    expect(a.pieces.map((p) => p.seconds)).toEqual([60, 30, null, null]);
    expect(a.pieces[1]!.options).toEqual([OMITTED]);
    expect(a.percentage).toBe(25);
    expect(bucketOf(99.999)).toBe(100);
    expect(bucketOf(66.67)).toBe(66);
  });
});
