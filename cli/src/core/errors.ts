/**
 * Exit codes that scripts can rely on, and the one place that turns any failure into a message and a code.
 * The table is documented in cli/README.md and in `waymark --help`.
 */
import { ApiError, NetworkError } from '@shared/client/client';

export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  notSignedIn: 3,
  forbidden: 4,
  notFound: 5,
  unreachable: 6,
  badInput: 7,
  /** A bulk command finished, but some of its items failed (each one is reported). */
  partial: 8,
  /** `awards verify`: the credential was revoked, altered, of an unknown issuer, or out of its dates. */
  revoked: 9,
  tampered: 10,
  unknownIssuer: 11,
  expired: 12,
  /** Interrupted by Ctrl+C, as shells report a SIGINT. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the CLI itself names, with its exit code and an optional hint on what to do next. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  constructor(message: string, exitCode: ExitCode, options: { hint?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = exitCode;
    this.hint = options.hint;
  }
}

/** The person cancelled (Ctrl+C) or the operation was aborted. */
export class CancelledError extends CliError {
  constructor(message = 'Cancelled.') {
    super(message, ExitCode.interrupted);
    this.name = 'CancelledError';
  }
}

/** Where the server's address comes from, for a hint when it does not lead to a Waymark server. */
export const CHECK_ADDRESS =
  'Check the address (--server, WAYMARK_SERVER, or the one `waymark login` saved).';

/** A network failure's cause in words (undici's codes), with the system's own message beside them. */
function networkCause(err: NetworkError): string {
  const cause = err.cause instanceof Error ? (err.cause.cause ?? err.cause) : undefined;
  if (!(cause instanceof Error) || !cause.message) return '';
  const code = String((cause as { code?: unknown }).code ?? '');
  const words =
    {
      ECONNREFUSED: 'connection refused',
      ENOTFOUND: 'no such host',
      EAI_AGAIN: 'the host name could not be looked up',
      ECONNRESET: 'the connection was reset',
      ETIMEDOUT: 'the connection timed out',
      EHOSTUNREACH: 'no route to the host',
    }[code] ?? '';
  return words ? `${words} (${cause.message})` : cause.message;
}

export const usageError = (message: string, hint?: string) =>
  new CliError(message, ExitCode.usage, hint ? { hint } : {});

const isAbort = (err: unknown) =>
  err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR');

/** The exit code for an HTTP status the server answered with. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400 || status === 409 || status === 422) return ExitCode.badInput;
  if (status === 401) return ExitCode.notSignedIn;
  if (status === 403) return ExitCode.forbidden;
  if (status === 404 || status === 410) return ExitCode.notFound;
  return ExitCode.unexpected;
}

export function exitCodeOf(err: unknown): ExitCode {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof ApiError) return exitCodeForStatus(err.status);
  if (err instanceof NetworkError) return ExitCode.unreachable;
  if (isAbort(err)) return ExitCode.interrupted;
  if (isCommanderError(err)) return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  return ExitCode.unexpected;
}

interface CommanderLike {
  code: string;
  exitCode: number;
}
function isCommanderError(err: unknown): err is CommanderLike {
  return (
    err instanceof Error &&
    typeof (err as Partial<CommanderLike>).code === 'string' &&
    (err as Partial<CommanderLike>).code!.startsWith('commander.') &&
    typeof (err as Partial<CommanderLike>).exitCode === 'number'
  );
}

/**
 * The lines to print on standard error for a failure: the server's own message first, then each invalid
 * field it named, then a hint. Never a stack trace, except for an unexpected error with WAYMARK_DEBUG set.
 */
export function describeError(err: unknown, opts: { debug?: boolean; server?: string } = {}): string[] {
  if (err instanceof CliError) return [err.message, ...(err.hint ? [err.hint] : [])];
  if (err instanceof ApiError) {
    // a message that does not name its field gets it in front: `url: cannot be used: …`
    const named =
      err.field && !err.message.includes(err.field) ? `${err.field}: ${err.message}` : err.message;
    const lines = [named];
    const fields = Object.entries(err.body.fields ?? {}).filter(
      ([field, message]) => !err.message.includes(message) || field !== err.field,
    );
    for (const [field, message] of fields) lines.push(`  ${field}: ${message}`);
    if (err.status === 429) lines.push('Too many requests: wait a minute and try again.');
    return lines;
  }
  if (err instanceof NetworkError) {
    // nothing answered (an answer that is not Waymark's is a CliError of its own)
    const cause = networkCause(err);
    if (opts.server)
      return [
        `${opts.server} could not be reached${cause ? `: ${cause}` : ''}.`,
        `Is the server running? ${CHECK_ADDRESS}`,
      ];
    return [`${err.message}${cause ? ` (${cause})` : ''}`];
  }
  if (isAbort(err)) return ['Cancelled.'];
  if (err instanceof Error) {
    return opts.debug && err.stack ? [err.stack] : [`Unexpected error: ${err.message}`];
  }
  return [`Unexpected error: ${String(err)}`];
}
