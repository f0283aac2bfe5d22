/**
 * Running a bulk command's items (questions, seats) in every output mode: at a terminal, the Ink view with
 * one <Static> line per item and a live progress line; in plain mode, one line per item; with --json, one
 * event per item and a summary event. Items run through the pooled agent with bounded concurrency; one
 * failing item does not stop the others, but a fatal failure (signed out, server gone, Ctrl+C) does.
 *
 * Each command names the statuses its items can end in (a word for people, whether it counts as failed);
 * the summary event counts every status, and the exit code is 8 when any item failed.
 */
import { ApiError, NetworkError } from '@shared/client/client';
import { type EachResult, type PoolOptions, type PoolOutcome, runEach } from '@shared/client/pool';
import type { Context } from '../core/context';
import { CancelledError, CliError, ExitCode } from '../core/errors';
import type { ItemLine, Progress, Tone } from '../ui/BulkView';

/** How a status shows: its word in the line, its symbol's tone, and whether it counts as not done. */
export interface StatusStyle {
  word: string;
  tone: Tone;
  failed: boolean;
}

/** The status every bulk command has: the item's call failed (refused by the server, or the network). */
export const FAILED = { word: 'failed', tone: 'fail', failed: true } as const satisfies StatusStyle;
/** A learner on the mentor's seats already (seats add and invite). */
export const ALREADY_ASSIGNED = {
  word: 'already assigned',
  tone: 'warn',
  failed: false,
} as const satisfies StatusStyle;

/** What became of one item. */
export interface ItemOutcome<S extends string> {
  status: S;
  text: string;
  /** The event's own fields (its name, the status and the item's place are added). */
  fields?: Record<string, unknown>;
  /** Shown only in plain output, as a last field. */
  extra?: string;
  detail?: readonly string[];
}

export interface ItemReport {
  line: ItemLine;
  /** The NDJSON event for this item. */
  event: Record<string, unknown>;
  failed: boolean;
}

interface BulkView<T, R, S extends string> {
  /** The progress line's label: "Creating questions". */
  label: string;
  /** The name of each item's event: question, seat, invitation. */
  event: string;
  statuses: Record<S, StatusStyle>;
  dryRun?: boolean;
  /** A stable key for the item's line, and the fields that say where it came from (line, argument). */
  placeOf: (item: T, index: number) => { key: string; fields: Record<string, unknown> };
  describe: (item: T, outcome: PoolOutcome<R>) => ItemOutcome<S>;
  /**
   * The summary's lines from the count of each status, and any fields of its own for the event; `last`
   * lines come after what a halt adds (advice that builds on the halt's).
   */
  summarize: (count: (status: S) => number) => {
    lines: string[];
    last?: string[];
    fields?: Record<string, unknown>;
  };
  /** The message of exit code 8, when some items failed. */
  partialMessage: (failed: number, total: number) => string;
  /**
   * Whether an item's outcome means none of the rest can succeed (every seat taken): no further item is
   * started, and `halted` gives the summary's lines, told how many were not attempted.
   */
  halts?: (outcome: PoolOutcome<R>) => boolean;
  halted?: (notAttempted: number) => { lines: string[]; fields?: Record<string, unknown> };
  /**
   * Items that still run after a halt, because the halt's cause does not touch them (their outcome is known
   * from a check already, or they need no seat): only the others count as not attempted.
   */
  runsAfterHalt?: (item: T) => boolean;
}

/**
 * What a bulk command runs: its items and the work for one, through the shared pool (`concurrency` at a
 * time); or a runner of its own over items it produces as the run needs them (the question import's
 * `runQuestionImport`), given the pool's signal, fatal errors and outcome listener, with their number.
 */
export type BulkSpec<T, R, S extends string> = BulkView<T, R, S> &
  (
    | { items: readonly T[]; concurrency: number; work: (item: T, index: number) => Promise<R> }
    | { items: BulkRun<T, R> }
  );

interface BulkRun<T, R> {
  total: number;
  run: (pool: Required<Pick<PoolOptions<T, R>, 'signal' | 'isFatal' | 'onSettled'>>) => Promise<EachResult>;
}

/** Errors that end the whole run rather than one item. */
export function isFatal(error: unknown): boolean {
  if (error instanceof CliError)
    return (
      error.exitCode === ExitCode.notSignedIn ||
      error.exitCode === ExitCode.interrupted ||
      // the address answers, but not as Waymark: no further item can do better
      error.exitCode === ExitCode.unreachable
    );
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

/** An item that failed with an error nobody expected: the `failed` status with the server's words. */
export function failedWith<S extends string>(status: S, text: string, error: unknown): ItemOutcome<S> {
  const { message, detail, status: http, fields } = errorDetail(error);
  return {
    status,
    text,
    fields: { error: { message, ...(http ? { status: http } : {}), ...(fields ? { fields } : {}) } },
    detail: [message, ...detail],
  };
}

export const wordWidthOf = (statuses: Record<string, StatusStyle>) =>
  Math.max(...Object.values(statuses).map((s) => s.word.length));

export async function runBulk<T, R, S extends string>(ctx: Context, spec: BulkSpec<T, R, S>): Promise<void> {
  const { output } = ctx;
  // counts, not the reports: a run over 10,000 questions keeps no line of each (they are printed or drawn)
  let done = 0;
  let failed = 0;
  const counts = new Map<S, number>();
  const total = 'run' in spec.items ? spec.items.total : spec.items.length;
  const dryRun = Boolean(spec.dryRun);

  const report = (item: T, index: number, outcome: PoolOutcome<R>): ItemReport => {
    const o = spec.describe(item, outcome);
    const style = spec.statuses[o.status];
    const place = spec.placeOf(item, index);
    return {
      failed: style.failed,
      line: {
        key: place.key,
        tone: style.tone,
        word: style.word,
        text: o.text,
        ...(o.extra ? { extra: o.extra } : {}),
        ...(o.detail?.length ? { detail: o.detail } : {}),
      },
      event: { event: spec.event, ...place.fields, status: o.status, ...o.fields },
    };
  };

  const execute = async (onReport: (report: ItemReport, progress: Progress) => void) => {
    const pool = {
      signal: ctx.signal,
      isFatal,
      onSettled: (item: T, index: number, outcome: PoolOutcome<R>) => {
        const r = report(item, index, outcome);
        done++;
        const status = r.event.status as S;
        counts.set(status, (counts.get(status) ?? 0) + 1);
        if (r.failed) failed++;
        onReport(r, { label: spec.label, done, total, failed });
      },
    };
    const result =
      'work' in spec
        ? await runEach(spec.items, spec.work, {
            ...pool,
            concurrency: spec.concurrency,
            ...(spec.halts ? { halts: spec.halts } : {}),
            ...(spec.runsAfterHalt ? { runsAfterHalt: spec.runsAfterHalt } : {}),
          })
        : await spec.items.run(pool);
    const stopped = result.fatal !== undefined;
    const count = (status: S) => counts.get(status) ?? 0;
    const { lines, last, fields } = spec.summarize(count);
    const notAttempted = total - done;
    const halted = result.halted && notAttempted > 0;
    const haltNote = result.halted ? spec.halted?.(notAttempted) : undefined;
    const summary = {
      tone: (failed || stopped || halted ? 'fail' : dryRun ? 'info' : 'ok') as Tone,
      lines: [
        ...lines,
        ...(stopped ? [`Stopped early: ${notAttempted} not attempted.`] : []),
        ...(haltNote?.lines ?? []),
        ...(last ?? []),
      ],
    };
    if (output.json) {
      output.emit({
        event: 'summary',
        total,
        ...Object.fromEntries(Object.keys(spec.statuses).map((s) => [s, count(s as S)])),
        ...fields,
        ...haltNote?.fields,
        ...(stopped || result.halted ? { notAttempted } : {}),
        dryRun,
      });
    } else if (output.mode === 'plain') for (const l of summary.lines) output.line(l);
    if (stopped) {
      if (ctx.signal.aborted) throw new CancelledError(`Stopped after ${done} of ${total}.`);
      throw result.fatal;
    }
    return summary;
  };

  if (output.mode === 'interactive') {
    const [{ runInk }, { BulkApp }] = await Promise.all([import('../ui/render'), import('../ui/BulkView')]);
    await runInk(
      <BulkApp
        initial={{ label: spec.label, done: 0, total, failed: 0 }}
        wordWidth={wordWidthOf(spec.statuses)}
        onCancel={ctx.cancel}
        run={(reporter) =>
          execute((r, progress) => {
            reporter.item(r.line);
            reporter.progress(progress);
          })
        }
      />,
      ctx.io,
    );
  } else {
    await execute((r) => {
      if (output.json) output.emit(r.event);
      else {
        output.line(`${r.line.word}\t${r.line.text}${r.line.extra ? `\t${r.line.extra}` : ''}`);
        for (const d of r.line.detail ?? []) output.line(`\t  ${d}`);
      }
    });
  }

  const notAttempted = total - done;
  const stoppedNote = notAttempted ? ` Stopped there: ${notAttempted} not attempted.` : '';
  if (failed) throw new CliError(`${spec.partialMessage(failed, total)}${stoppedNote}`, ExitCode.partial);
  if (notAttempted) throw new CliError(`${notAttempted} of ${total} not attempted.`, ExitCode.partial);
}

/** Problems found before anything was written: each named (an event, or a line on standard error). */
export function failWithProblems(
  ctx: Context,
  problems: readonly { where: string; raw: string; message: string }[],
  options: {
    /** The field the values are (email), when they are all the same field. */
    field?: string;
    /** How a place shows to people (`file.txt:4`). */
    shown?: (where: string) => string;
    summary: string;
    hint?: string;
  },
): never {
  const { output } = ctx;
  const field = options.field ? `${options.field}: ` : '';
  for (const p of problems) {
    if (output.json) {
      output.emit({
        event: 'invalid',
        ...placeFields(p.where),
        value: p.raw,
        ...(options.field ? { field: options.field } : {}),
        message: p.message,
      });
    } else {
      output.note(`${options.shown?.(p.where) ?? p.where}: ${field}${p.raw ? `${p.raw}: ` : ''}${p.message}`);
    }
  }
  throw new CliError(options.summary, ExitCode.badInput, options.hint ? { hint: options.hint } : {});
}

/** The place of an item of a list of e-mail addresses: its line or argument, and the address. */
export const emailPlace = (item: { where: string; email: string }) => ({
  key: item.where,
  fields: { ...placeFields(item.where), email: item.email },
});

/** `line 4` (or `file.txt:4`) → { line: 4 }; `argument 2` → { argument: 2 }; anything else → { where }. */
export function placeFields(where: string): Record<string, number | string> {
  const line = /(?:^line |:)(\d+)$/.exec(where);
  if (line) return { line: Number(line[1]) };
  const arg = /^argument (\d+)$/.exec(where);
  return arg ? { argument: Number(arg[1]) } : { where };
}
