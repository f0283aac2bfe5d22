/**
 * Item analysis at a terminal (issue 30): the question table's rows as `waymark assessments stats` and
 * `waymark questions stats` print them — a table, tab-separated lines, NDJSON — and as CSV, written with the
 * columns and cells the server's export writes (shared/rules/test-figures.ts statsFileRow, shared/rules/csv.ts).
 */

import { writeFile } from 'node:fs/promises';
import type { QuestionStatsRow, TestFigures } from '@shared/contract/analysis';
import { CSV_BOM, csvLine } from '@shared/rules/csv';
import { durationWords, STATS_COLUMNS, statsFileRow } from '@shared/rules/test-figures';
import type { z } from 'zod';
import type { Context } from './context';

export type StatsRow = z.infer<typeof QuestionStatsRow>;
type Summary = z.infer<typeof TestFigures>;

/** The rows, flagged first (serious flags first), then in their order. */
export function flaggedFirst(rows: readonly StatsRow[]): StatsRow[] {
  const weight = (r: StatsRow) => r.figures.flags.length;
  return [...rows].sort(
    (a, b) => weight(b) - weight(a) || (a.position ?? Infinity) - (b.position ?? Infinity),
  );
}

/** The question table as CSV (with the BOM a spreadsheet reads). */
export const statsCsv = (rows: readonly StatsRow[]) =>
  CSV_BOM +
  csvLine(STATS_COLUMNS) +
  rows.map((r) => csvLine(STATS_COLUMNS.map((c) => statsFileRow(r)[c]))).join('');

const two = (n: number | null) => (n === null ? '—' : n.toFixed(2));
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The test's figures in a few lines. */
export function summaryLines(s: Summary): string[] {
  const r = s.reliability;
  return [
    `attempts    ${s.attempts} by ${s.takers} taker${s.takers === 1 ? '' : 's'}${s.smallSample ? ' (a small sample: no flags under 30)' : ''}`,
    `score       mean ${s.score.mean?.toFixed(1) ?? '—'} %, median ${s.score.median?.toFixed(1) ?? '—'} %, SD ${s.score.sd?.toFixed(1) ?? '—'}`,
    `reliability ${r.method === 'KR-20' ? 'KR-20' : 'Cronbach’s α'} ${r.value === null ? `— (${r.note})` : r.value.toFixed(2)}${r.sem === null ? '' : `, SEM ${r.sem.toFixed(1)} points`}`,
    `pass rate   ${s.passRate === null ? '—' : `${Math.round(s.passRate * 100)} %`} at ${s.passPercentage} %`,
    `time        median ${durationWords(s.time.median)}, mean ${durationWords(s.time.mean)}`,
    `histogram   ${s.histogram.map((b) => `${b.from}–${b.to}: ${b.count}`).join(', ')}`,
    ...(s.drawn
      ? ['drawn       takers received different questions: each figure is over what they received']
      : []),
  ];
}

/** Prints the question table: a table at a terminal, tab-separated lines otherwise (JSON is the caller's). */
export async function printStatsTable(
  ctx: Context,
  rows: readonly StatsRow[],
  opts: { summary?: string[]; positions: boolean; footer: string },
) {
  const { output } = ctx;
  const ordered = flaggedFirst(rows);
  if (output.mode === 'plain') {
    for (const line of opts.summary ?? []) output.line(`# ${line}`);
    for (const r of ordered) {
      const f = r.figures;
      output.line(
        [
          r.position ?? '',
          r.questionId,
          f.attempts,
          two(f.facility),
          two(f.discrimination),
          f.averageSeconds === null ? '' : Math.round(f.averageSeconds),
          f.flags.map((x) => x.code).join(','),
          r.question.replace(/[\t\r\n]+/g, ' '),
        ].join('\t'),
      );
    }
    return;
  }
  const [{ drawOnce }, { TableView }] = await Promise.all([
    import('../ui/render'),
    import('../ui/TableView'),
  ]);
  for (const line of opts.summary ?? []) output.line(line);
  if (opts.summary?.length) output.line();
  await drawOnce(
    TableView<StatsRow>,
    {
      rows: ordered,
      empty: 'No questions.',
      columns: [
        ...(opts.positions
          ? [{ header: '#', value: (r: StatsRow) => String(r.position ?? '—'), align: 'right' as const }]
          : []),
        { header: 'Question', value: (r) => cut(r.question, 40) },
        { header: 'Attempts', value: (r) => String(r.figures.attempts), align: 'right' },
        { header: 'Facility', value: (r) => two(r.figures.facility), align: 'right' },
        { header: 'Discr.', value: (r) => two(r.figures.discrimination), align: 'right' },
        { header: 'Time', value: (r) => durationWords(r.figures.averageSeconds), align: 'right' },
        {
          header: 'Flags',
          value: (r) =>
            r.figures.smallSample ? '(small sample)' : r.figures.flags.map((x) => x.label).join(', ') || '—',
        },
      ],
      footer: opts.footer,
    },
    ctx.io,
  );
}

/** With --csv or --output: the table's CSV to the file, or to standard output; says whether it wrote it. */
export async function writeStatsCsv(
  ctx: Context,
  rows: readonly StatsRow[],
  options: { csv?: boolean; output?: string },
): Promise<boolean> {
  if (!options.csv && !options.output) return false;
  const text = statsCsv(rows);
  if (options.output) {
    await writeFile(options.output, text);
    ctx.output.note(`Wrote ${options.output}.`);
  } else ctx.io.stdout.write(text);
  return true;
}
