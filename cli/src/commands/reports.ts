/**
 * `waymark reports learning|awards|users [--from <day> --to <day>] [--csv] [--output <file>]`: a mentor's
 * tables to take away, the same files as the portal's Download CSV (GET /tenant/export/…): all rows of
 * the filter, streamed. --csv writes the CSV as the server made it (UTF-8 with a BOM, formula cells
 * guarded) to standard output or --output; otherwise the rows come as NDJSON and print as a table, tab-
 * separated lines (--no-json) or one JSON object a line (--json).
 */
import { Readable } from 'node:stream';
import { ApiError } from '@shared/client/client';
import {
  tenantExportAwards,
  tenantExportLearningReport,
  tenantExportUsers,
} from '@shared/contract/tenant-exports';
import type { Context } from '../core/context';
import { CliError, ExitCode, usageError } from '../core/errors';
import { saveDownload } from '../core/save';
import { REPORTS } from './index';

type Report = (typeof REPORTS)[number];
const AWARD_TYPES = { certificates: 'ROADMAP', badges: 'SECTION', feathers: 'RESOURCE' } as const;

export interface ReportsOptions {
  table: string;
  from?: string;
  to?: string;
  csv?: boolean;
  output?: string;
  type?: string;
  search?: string;
}

const DAY = 86_400;

/** 'YYYY-MM-DD' (a real UTC day) → unix seconds at its midnight; a usage error naming the option otherwise. */
export function dayOption(value: string, option: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    throw usageError(`${option}: "${value}" is not a day`, 'Give days as YYYY-MM-DD (UTC), e.g. 2026-03-01.');
  return ms / 1000;
}

/** --from and --to (whole UTC days, both included) as the server's startTime and endTime. */
export function rangeOptions(
  from: string | undefined,
  to: string | undefined,
  now = new Date(),
): { startTime: number; endTime: number } | undefined {
  if (!from && !to) return undefined;
  if (!from) throw usageError('--to needs --from', 'Give the first day too: --from YYYY-MM-DD.');
  const startTime = dayOption(from, '--from');
  const last = to ? dayOption(to, '--to') : dayOption(now.toISOString().slice(0, 10), '--to');
  if (last < startTime) throw usageError(`--to (${to}) is before --from (${from})`);
  return { startTime, endTime: last + DAY - 1 };
}

function request(options: ReportsOptions, format: 'csv' | 'ndjson') {
  const table = options.table as Report;
  if (!REPORTS.includes(table))
    throw usageError(`"${options.table}" is not a report`, `Choose one of: ${REPORTS.join(', ')}.`);
  if (options.type && table !== 'awards') throw usageError('--type is for `reports awards`');
  if (options.search && table !== 'users') throw usageError('--search is for `reports users`');
  const range = rangeOptions(options.from, options.to) ?? {};
  if (table === 'learning') return { call: tenantExportLearningReport, query: { ...range, format } };
  if (table === 'users') {
    const searchText = options.search?.trim() || undefined;
    return { call: tenantExportUsers, query: { ...range, ...(searchText ? { searchText } : {}), format } };
  }
  const type = options.type?.toLowerCase();
  if (type && !(type in AWARD_TYPES))
    throw usageError(`--type: "${options.type}" is not an award`, 'Choose certificates, badges or feathers.');
  const certificateType = type ? AWARD_TYPES[type as keyof typeof AWARD_TYPES] : undefined;
  return {
    call: tenantExportAwards,
    query: { ...range, ...(certificateType ? { certificateType } : {}), format },
  };
}

/** The server's 400 about the range, in the terms of this command's options. */
function optionWords(err: unknown): never {
  if (err instanceof ApiError && err.status === 400) {
    const option = { startTime: '--from', endTime: '--to', searchText: '--search' }[err.field ?? ''];
    if (option)
      throw new CliError(`${option}: ${err.message.replace(/^\w+: /, '')}`, ExitCode.badInput, {
        cause: err,
      });
  }
  throw err;
}

/** The body's lines, one at a time. */
async function* linesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of Readable.fromWeb(body as import('node:stream/web').ReadableStream)) {
    rest += decoder.decode(chunk as Uint8Array, { stream: true });
    let nl = rest.indexOf('\n');
    while (nl >= 0) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (line) yield line;
      nl = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest.trim()) yield rest;
}

export async function reportsCommand(ctx: Context, options: ReportsOptions): Promise<void> {
  const wantCsv = Boolean(options.csv || options.output?.toLowerCase().endsWith('.csv'));
  const { call, query } = request(options, wantCsv ? 'csv' : 'ndjson');
  const { client } = ctx.signedIn();
  const res = await (
    client.download as (c: typeof call, a: { query: typeof query; signal: AbortSignal }) => Promise<Response>
  )(call, { query, signal: ctx.signal }).catch(optionWords);
  if (!res.body) throw new CliError('The server sent no file.', ExitCode.unexpected);
  const { output } = ctx;

  // the CSV as the server made it: to standard output, or written whole to --output
  if (wantCsv) return saveDownload(ctx, res, options.output);

  const rows: Record<string, unknown>[] = [];
  for await (const line of linesOf(res.body)) {
    const row = JSON.parse(line) as Record<string, unknown>;
    if (output.json) output.emit(row);
    else if (output.mode === 'plain') output.line(Object.values(row).map(plain).join('\t'));
    else rows.push(row);
  }
  if (output.mode !== 'interactive') return;
  const columns = Object.keys(rows[0] ?? {}).map((header) => ({
    header,
    value: (r: Record<string, unknown>) => plain(r[header]),
  }));
  // Ink and React load only for the table at a terminal, never for a CSV or lines
  const [{ drawOnce }, { TableView }] = await Promise.all([
    import('../ui/render'),
    import('../ui/TableView'),
  ]);
  await drawOnce(
    TableView<Record<string, unknown>>,
    {
      rows,
      columns,
      footer: `${rows.length} ${rows.length === 1 ? 'row' : 'rows'} · --csv for a spreadsheet`,
    },
    ctx.io,
  );
}

const plain = (v: unknown) => (v === null || v === undefined ? '' : String(v).replace(/[\t\r\n]+/g, ' '));
