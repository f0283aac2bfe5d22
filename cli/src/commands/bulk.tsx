/**
 * Running a bulk command's items (questions, seats) in every output mode: at a terminal, the Ink view with
 * one <Static> line per item and a live progress line; in plain mode, one line per item; with --json, one
 * event per item and a summary event. Items run through the pooled agent with bounded concurrency; one
 * failing item does not stop the others, but a fatal failure (signed out, server gone, Ctrl+C) does.
 */
import { ApiError, NetworkError } from '@shared/client/client';
import type { Context } from '../core/context';
import { CancelledError, CliError, ExitCode } from '../core/errors';
import { type PoolOutcome, runPool } from '../core/pool';
import { BulkApp, type ItemLine, type Progress, type Summary } from '../ui/BulkView';
import { runInk } from '../ui/render';

export interface ItemReport {
  line: ItemLine;
  /** The NDJSON event for this item. */
  event: Record<string, unknown>;
  /** Whether this item counts as not done (the exit code is then 8). */
  failed: boolean;
}

export interface BulkSpec<T, R> {
  /** The progress line's label: "Creating questions". */
  label: string;
  items: readonly T[];
  concurrency: number;
  /** Width of the word column (the longest word describe() uses). */
  wordWidth: number;
  work: (item: T, index: number) => Promise<R>;
  describe: (item: T, index: number, outcome: PoolOutcome<R>) => ItemReport;
  summarize: (
    reports: readonly ItemReport[],
    stopped: boolean,
  ) => { summary: Summary; event: Record<string, unknown> };
  /** The message of exit code 8, when some items failed. */
  partialMessage: (failed: number, total: number) => string;
}

/** Errors that end the whole run rather than one item. */
export function isFatal(error: unknown): boolean {
  if (error instanceof CliError)
    return error.exitCode === ExitCode.notSignedIn || error.exitCode === ExitCode.interrupted;
  if (error instanceof ApiError) return error.status === 401;
  if (error instanceof NetworkError) return true;
  return error instanceof Error && error.name === 'AbortError';
}

/** The lines that describe a failed item: the message, then each invalid field the server named. */
export function errorDetail(error: unknown): {
  message: string;
  detail: string[];
  status?: number;
  fields?: Record<string, string>;
} {
  if (error instanceof ApiError) {
    const fields = error.body.fields ?? {};
    return {
      message: error.message,
      detail: Object.entries(fields)
        .filter(([, m]) => m !== error.message)
        .map(([f, m]) => `${f}: ${m}`),
      status: error.status,
      ...(Object.keys(fields).length ? { fields } : {}),
    };
  }
  return { message: error instanceof Error ? error.message : String(error), detail: [] };
}

export async function runBulk<T, R>(ctx: Context, spec: BulkSpec<T, R>): Promise<ItemReport[]> {
  const { output } = ctx;
  const reports: ItemReport[] = [];
  const total = spec.items.length;

  const execute = async (onReport: (report: ItemReport, progress: Progress) => void) => {
    let failed = 0;
    const result = await runPool(spec.items, spec.work, {
      concurrency: spec.concurrency,
      signal: ctx.signal,
      isFatal,
      onSettled: (item, index, outcome) => {
        const report = spec.describe(item, index, outcome);
        reports.push(report);
        if (report.failed) failed++;
        onReport(report, { label: spec.label, done: reports.length, total, failed });
      },
    });
    const stopped = result.fatal !== undefined;
    const { summary, event } = spec.summarize(reports, stopped);
    if (output.json) output.emit(event);
    else if (output.mode === 'plain') for (const l of summary.lines) output.line(l);
    if (stopped) {
      if (ctx.signal.aborted) throw new CancelledError(`Stopped after ${reports.length} of ${total}.`);
      throw result.fatal;
    }
    return summary;
  };

  if (output.mode === 'interactive') {
    await runInk(
      <BulkApp
        initial={{ label: spec.label, done: 0, total, failed: 0 }}
        wordWidth={spec.wordWidth}
        onCancel={ctx.cancel}
        run={(reporter) =>
          execute((report, progress) => {
            reporter.item(report.line);
            reporter.progress(progress);
          })
        }
      />,
      ctx.io,
    );
  } else {
    await execute((report) => {
      if (output.json) output.emit(report.event);
      else {
        output.line(
          `${report.line.word}\t${report.line.text}${report.line.extra ? `\t${report.line.extra}` : ''}`,
        );
        for (const d of report.line.detail ?? []) output.line(`\t  ${d}`);
      }
    });
  }

  const failed = reports.filter((r) => r.failed).length;
  if (failed) throw new CliError(spec.partialMessage(failed, total), ExitCode.partial);
  return reports;
}
