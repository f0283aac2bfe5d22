/**
 * What the OpenAPI document says beside the contract's schemas, kept close to the contract but one file per
 * call, so that engineers adding calls in parallel never edit the same file:
 *
 *   shared/contract/examples/<group>/<call>.json   (the call's name as registry.ts gives it, group.call)
 *   {
 *     "parameters": { "id": "The roadmap's id." },         // optional: what a path or query parameter is
 *     "request":  { "params": {…}, "query": {…}, "headers": {…}, "body": {…} },   // a valid request
 *     "response": { "status": 200, "body": {…} },          // what the server answers to it
 *     "errors":   [ { "summary": "…", "request": {…}, "response": { "status": 400, "body": {…} } } ],
 *                 (an error that needs records made-up ids cannot name says so in `needs`)
 *     "otherSuccesses": [ { "summary": "…", "request": {…}, "response": { "status": 201, "body": {…} } } ]
 *   }
 *
 * `response` is the answer of the call's first success status; `otherSuccesses` shows its other success
 * statuses (a first revocation answers 201, a repeated one 200).
 *
 * `shared/contract/examples/parameters.json` describes the parameters many calls share (page, limit…).
 * `server/http/openapi.test.ts` fails when a call has no example file, when an example does not parse by
 * the call's schemas, or when a parameter has no description; `server/http/contract.test.ts` sends the
 * examples to the real server. `npx tsx scripts/openapi-example.ts` writes a starting example for every
 * call that has none, from its schemas (then make it true to life).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LINK_MESSAGES } from '@shared/rules/test-links';
import { english } from '../lib/i18n';

export const EXAMPLES_DIR = resolve(
  fileURLToPath(new URL('../../shared/contract/examples', import.meta.url)),
);

export interface ExampleRequest {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  /** The headers the call declares (`headers`), by their lower-case names. */
  headers?: Record<string, string>;
  body?: unknown;
}
export interface ExampleResponse {
  status: number;
  body?: unknown;
}
export interface CallExample {
  parameters?: Record<string, string>;
  request?: ExampleRequest;
  response: ExampleResponse;
  errors?: {
    summary: string;
    request?: ExampleRequest;
    response: ExampleResponse;
    /**
     * The records the error needs that an example's made-up ids cannot name (a learner who already has a
     * test of the assessment): the contract test does not replay it; the call's own test covers it.
     */
    needs?: string;
  }[];
  /** Answers of the call's other success statuses (its first success status is `response`'s). */
  otherSuccesses?: { summary: string; request?: ExampleRequest; response: ExampleResponse }[];
}

/** The example file of a call named `group.call`. */
export const exampleFile = (name: string) => {
  const [group, call] = name.split('.') as [string, string];
  return join(EXAMPLES_DIR, group, `${call}.json`);
};

export function readExample(name: string): CallExample | null {
  const file = exampleFile(name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CallExample) : null;
}

/** The descriptions of parameters many calls share, by name. */
export function sharedParameters(): Record<string, string> {
  const file = join(EXAMPLES_DIR, 'parameters.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

/** Every example file there is (to find files of calls that no longer exist). */
export function exampleFiles(): string[] {
  if (!existsSync(EXAMPLES_DIR)) return [];
  return readdirSync(EXAMPLES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(EXAMPLES_DIR, d.name))
        .filter((f) => f.endsWith('.json'))
        .map((f) => `${d.name}.${f.replace(/\.json$/, '')}`),
    );
}

/**
 * The error codes of the specification (DESIGN.md: error bodies keep them), with the status they come
 * with and an example body. The document lists each under the responses of the calls whose summary or
 * declared statuses name it.
 */
export const ERROR_CODES: Record<
  string,
  { status: number; body: Record<string, unknown>; summary: string; calls?: readonly string[] }
> = {
  duplicate: {
    status: 409,
    summary: 'Duplicate: code 11000 and the key that collided',
    body: {
      statusCode: 409,
      error: 'Conflict',
      message: 'email is already used',
      code: 11000,
      field: 'email',
      keyPattern: { email: 1 },
    },
  },
  ERR001: {
    status: 400,
    summary: 'ERR001: the name can be changed only once',
    calls: ['profile.updateProfile', 'profile.basicProfile'],
    body: {
      statusCode: 400,
      error: 'Bad Request',
      message: 'The name can be changed once only. Please contact the support team to change it again.',
      code: 'ERR001',
      field: 'name',
    },
  },
  LINK_EXPIRED: {
    status: 410,
    summary: 'LINK_EXPIRED: the link is past its end',
    body: {
      statusCode: 410,
      error: 'Gone',
      message: 'This test link has expired. If you like to take a test, generate a new link.',
      errorCode: 'LINK_EXPIRED',
    },
  },
  TEST_COMPLETED: {
    status: 410,
    summary: 'TEST_COMPLETED: the test was already evaluated',
    body: {
      statusCode: 410,
      error: 'Gone',
      message: 'This test is already completed. If you like to take a test, generate a new link.',
      errorCode: 'TEST_COMPLETED',
    },
  },
  ATTEMPT_TOKEN_REQUIRED: {
    status: 403,
    summary:
      "ATTEMPT_TOKEN_REQUIRED: a write of a started test without the attempt's token (X-Attempt-Token)",
    body: {
      statusCode: 403,
      error: 'Forbidden',
      message: english().t(LINK_MESSAGES.heldElsewhere.key),
      errorCode: 'ATTEMPT_TOKEN_REQUIRED',
      field: 'x-attempt-token',
    },
  },
  ATTEMPT_TOKEN_INVALID: {
    status: 403,
    summary:
      "ATTEMPT_TOKEN_INVALID: a token that is not the attempt's (another browser's, or one the learner's takeover replaced)",
    body: {
      statusCode: 403,
      error: 'Forbidden',
      message: english().t(LINK_MESSAGES.heldElsewhere.key),
      errorCode: 'ATTEMPT_TOKEN_INVALID',
      field: 'x-attempt-token',
    },
  },
  ASSESSMENT_NOT_YET_STARTED: {
    status: 403,
    summary: "ASSESSMENT_NOT_YET_STARTED: before a custom test's start",
    body: {
      statusCode: 403,
      error: 'Forbidden',
      message: 'This assessment has not started yet. It starts at 2026-03-03 09:00 UTC.',
      errorCode: 'ASSESSMENT_NOT_YET_STARTED',
    },
  },
  EMAIL_NOT_VERIFIED: {
    status: 403,
    summary: 'EMAIL_NOT_VERIFIED: the e-mail address is not verified yet',
    calls: ['auth.signInWithFirebase'],
    body: {
      statusCode: 403,
      error: 'Forbidden',
      message: 'Please verify your e-mail address with the link we sent you, then sign in again.',
      errorCode: 'EMAIL_NOT_VERIFIED',
    },
  },
  NOT_REGISTERED: {
    status: 404,
    summary: 'NOT_REGISTERED: no account yet (sign up first)',
    calls: ['auth.signInWithFirebase'],
    body: {
      statusCode: 404,
      error: 'Not Found',
      message: 'You are not Existing User, Please login after registration',
      errorCode: 'NOT_REGISTERED',
    },
  },
  ROADMAP_LIMIT: {
    status: 400,
    summary: 'ROADMAP_LIMIT: two roadmaps are being learnt already',
    body: {
      statusCode: 400,
      error: 'Bad Request',
      message: 'Can only learn two roadmaps at a time.',
      errorCode: 'ROADMAP_LIMIT',
    },
  },
  AUTHORIZATION_PENDING: {
    status: 428,
    summary: 'AUTHORIZATION_PENDING: the person has not approved the device yet; poll again',
    body: {
      statusCode: 428,
      error: 'Precondition Required',
      message: 'Waiting for approval in the browser.',
      errorCode: 'AUTHORIZATION_PENDING',
    },
  },
  EXPIRED_TOKEN: {
    status: 410,
    summary: 'EXPIRED_TOKEN: the device code expired; start again',
    body: {
      statusCode: 410,
      error: 'Gone',
      message: 'This sign-in request has expired. Run `waymark login` again.',
      errorCode: 'EXPIRED_TOKEN',
    },
  },
};
