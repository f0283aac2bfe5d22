/**
 * How a command prints. Three modes:
 * - `interactive`: a terminal; Ink draws live progress and tables;
 * - `plain`: lines of text, no Ink (output is not a terminal and --no-json was given, or TERM=dumb);
 * - `json`: one JSON value per line (NDJSON for streams), for scripts. Automatic when output is not a
 *   terminal, forced by --json.
 * Results go to standard output; progress notes, prompts and errors go to standard error, so a script
 * can pipe the results and still see what is going on.
 */
import type { Writable } from 'node:stream';

export type OutputMode = 'interactive' | 'plain' | 'json';

export interface OutputStreams {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
}

/** `json` is true for --json, false for --no-json and undefined when neither was given. */
export function resolveOutputMode(
  json: boolean | undefined,
  stdout: { isTTY?: boolean },
  env: Record<string, string | undefined>,
): OutputMode {
  if (json === true) return 'json';
  const terminal = Boolean(stdout.isTTY) && env.TERM !== 'dumb';
  if (terminal) return 'interactive';
  if (json === false || stdout.isTTY) return 'plain';
  return 'json';
}

export class Output {
  constructor(
    readonly mode: OutputMode,
    readonly streams: OutputStreams,
  ) {}

  get json() {
    return this.mode === 'json';
  }

  /** A result for scripts: one JSON line. */
  emit(value: unknown): void {
    this.streams.stdout.write(`${JSON.stringify(value)}\n`);
  }

  /** A result line for people. */
  line(text = ''): void {
    this.streams.stdout.write(`${text}\n`);
  }

  /** A progress note or instruction; on standard error so it never mixes with results. */
  note(text: string): void {
    this.streams.stderr.write(`${text}\n`);
  }

  error(lines: readonly string[]): void {
    const [first, ...rest] = lines;
    this.streams.stderr.write(`waymark: ${first ?? 'failed'}\n${rest.map((l) => `${l}\n`).join('')}`);
  }
}
