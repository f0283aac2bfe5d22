/**
 * Every failure of an element as one `wm-error` detail, `{ status, code, message }` (decision 041):
 * `status` is the HTTP status of the answer that failed, or 0 when no answer was involved (an attribute, a
 * file that did not load, a server that could not be reached); `code` says what failed, from one closed
 * list a host can switch on; `message` is the widget's own wording of what it shows, or, for the server
 * problems an element alone can tell (no `api-base`, a wrong one, none reachable), a sentence naming
 * the address and the attribute.
 *
 * The element's API client fetches through `checkedFetch`, which turns an answer that is not Waymark's
 * API (a web page, another service's error) into a `ServerProblem`: a partner that bundled the elements
 * without `api-base` learns that, instead of "Award not found".
 */
import { ApiError, NetworkError } from '@shared/client/client';

export const ERROR_CODES = [
  'invalid-attribute',
  'api-base-missing',
  'api-base-not-waymark',
  'api-base-unreachable',
  'file-load-failed',
  'not-found',
  'link-expired',
  'test-completed',
  'not-yet-started',
  'retake-cooldown',
  'session-ended',
  'forbidden',
  'busy',
  'server-error',
  'request-failed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail {
  /** The HTTP status of the failed answer; 0 when there was none. */
  status: number;
  code: ErrorCode;
  message: string;
}

/** The server the element was given (or guessed) did not answer as Waymark's API does. */
export class ServerProblem extends Error {
  constructor(
    readonly code: 'api-base-missing' | 'api-base-not-waymark' | 'api-base-unreachable',
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ServerProblem';
  }
}

/** Server error codes (ErrorBody.errorCode) with a code of their own. */
const BY_ERROR_CODE: Record<string, ErrorCode> = {
  LINK_EXPIRED: 'link-expired',
  TEST_COMPLETED: 'test-completed',
  ASSESSMENT_NOT_YET_STARTED: 'not-yet-started',
  RETAKE_COOLDOWN: 'retake-cooldown',
};

function codeOfStatus(status: number): ErrorCode {
  if (status === 404) return 'not-found';
  if (status === 401) return 'session-ended';
  if (status === 403) return 'forbidden';
  if (status === 429 || status === 503) return 'busy';
  if (status >= 500) return 'server-error';
  return 'request-failed';
}

/**
 * The detail of a failure the widget words as `message`, from what was thrown (`error`): its status and
 * code; `code` when the widget knows better (a file that did not load).
 */
export function failure(message: string, error?: unknown, code?: ErrorCode): ErrorDetail {
  const problem = problemOf(error);
  if (problem) return { status: problem.status, code: problem.code, message: problem.message };
  if (code) return { status: error instanceof ApiError ? error.status : 0, code, message };
  if (error instanceof ApiError) {
    return {
      status: error.status,
      code: BY_ERROR_CODE[error.errorCode ?? ''] ?? codeOfStatus(error.status),
      message,
    };
  }
  // no answer: the client's NetworkError, or anything else thrown on the way
  return { status: 0, code: 'api-base-unreachable', message };
}

/** The ServerProblem behind an error: itself, or the cause of a NetworkError (through its TypeError). */
function problemOf(error: unknown): ServerProblem | null {
  let e: unknown = error;
  for (let depth = 0; depth < 3 && e; depth++) {
    if (e instanceof ServerProblem) return e;
    e = e instanceof NetworkError || e instanceof TypeError ? e.cause : null;
  }
  return null;
}

/**
 * Whether an answer is one of Waymark's API: JSON (its errors too, in Waymark's shape), a 204, or a file
 * the request asked for by its type.
 */
async function isWaymarkAnswer(res: Response, init: RequestInit | undefined): Promise<boolean> {
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (res.status === 204) return true;
  if (!/json/.test(type)) {
    const accept = (new Headers(init?.headers).get('accept') ?? '')
      .split(',')
      .map((a) => a.split(';')[0]!.trim());
    return res.ok && type !== '' && accept.includes(type);
  }
  if (res.ok) return true;
  // another JSON service (an API gateway, a framework's 404) answers errors of its own shape; Waymark's
  // always carry statusCode and message (ErrorBody)
  try {
    const body = (await res.clone().json()) as { statusCode?: unknown; message?: unknown } | null;
    return typeof body?.statusCode === 'number' && typeof body.message === 'string';
  } catch {
    return false;
  }
}

/**
 * The element's fetch: an answer that is not Waymark's API, or none at all, becomes a ServerProblem that
 * names the address and whether `api-base` was given (`tag`: the element, for the message).
 */
export function checkedFetch(
  base: string,
  given: boolean,
  tag: string,
  fetch: typeof globalThis.fetch = (...a) => globalThis.fetch(...a),
): typeof globalThis.fetch {
  return (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    let res: Response;
    try {
      res = await fetch(input, init);
    } catch (err) {
      if ((err as Error)?.name === 'AbortError' || !(err instanceof TypeError)) throw err;
      // a TypeError still, so the client calls it a NetworkError; its cause says which server
      const unreachable = new TypeError(err.message);
      unreachable.cause = new ServerProblem(
        'api-base-unreachable',
        0,
        `<${tag}> could not reach the Waymark server at ${base} (${given ? 'its api-base' : 'where its script came from; set api-base'}): check the address, the connection, and that this page's origin is in the server's CORS_ORIGINS.`,
      );
      throw unreachable;
    }
    if (await isWaymarkAnswer(res, init)) return res;
    await res.body?.cancel().catch(() => {});
    throw given
      ? new ServerProblem(
          'api-base-not-waymark',
          res.status,
          `<${tag}>: api-base ${base} answered ${res.status}, but it is not a Waymark server (its API answers JSON): check the address.`,
        )
      : new ServerProblem(
          'api-base-missing',
          res.status,
          `<${tag}> has no api-base, and ${base} (where its script came from) is not a Waymark server: give it api-base="https://your-waymark-server".`,
        );
  }) as typeof globalThis.fetch;
}
