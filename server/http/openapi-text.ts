/** The OpenAPI document's own words (server/http/openapi.ts): what statuses and tags mean, how to get a token. */
import { STATUS_CODES } from 'node:http';
import type { CallDef } from '@shared/contract/define';
import { API_SCOPES, SCOPE_TEXT } from '@shared/schemas/integrations';

const SCOPE_ROWS = API_SCOPES.map((s) => `| \`${s}\` | ${SCOPE_TEXT[s]} |`).join('\n');

/**
 * A public call reads no access token, so its own 401 or 403 (shown by its examples) is never about one:
 * it refuses the credential the request carries.
 */
export const PUBLIC_REFUSAL_TEXT: Record<number, string> = {
  401: 'The credential in the request (an ID token, a refresh token) was refused: `errorCode` says why. This call reads no access token.',
  403: 'The signed address or credential in the request is not valid for this (expired, altered, or for another file): `errorCode` says why. This call reads no access token.',
};

/** What each status means, for every call that may answer it. */
/** The 403 of a test's calls that take its attempt token (decision 031). */
export const ATTEMPT_REFUSAL_TEXT =
  "Not this caller's (another person's test), or not this test's attempt: a write of a started test without its attempt token answers `errorCode` ATTEMPT_TOKEN_REQUIRED, with another token ATTEMPT_TOKEN_INVALID.";

export const STATUS_TEXT: Record<number, string> = {
  200: 'Success.',
  201: 'Created.',
  202: 'Accepted.',
  204: 'No content.',
  400: 'Bad input. `field` names the first invalid field (`limit`, `email`, `answers.0.questionId`…), `fields` every invalid one with its message; a rule of the call may also answer 400 with a `code` or `errorCode`.',
  401: 'No valid access token: sign in, or refresh the token (`POST /api/login/refresh`) and repeat the call once.',
  403: 'Signed in, but this caller may not do this (another role, another device, not theirs, or an API key without the scope: `errorCode` API_KEY_SCOPE, API_KEY_NOT_ALLOWED).',
  404: 'No such record — or one the caller may not see.',
  409: 'Conflicts with what exists: a duplicate carries `code` 11000 and `keyPattern`.',
  410: 'Gone: the link or request expired or was already used.',
  413: 'The body is too large.',
  415: 'Wrong content type.',
  428: 'Not yet: repeat the call later.',
  429: 'Too many requests from this address: wait for the seconds in `Retry-After`, then repeat.',
  503: 'The server is not ready or is busy: try again shortly.',
};

/** A generic error example for a status (the call's own examples come first). */
export function genericError(status: number): Record<string, unknown> {
  const message: Record<number, string> = {
    400: 'limit: must be 5, 10 or 15',
    401: 'Please sign in again.',
    403: 'Not permitted',
    404: 'Not found',
    409: 'name is already used',
    410: 'This link is no longer valid.',
    429: 'Too many requests, please wait a minute and try again.',
    503: 'The server is busy, please try again.',
  };
  return {
    statusCode: status,
    error: STATUS_CODES[status] ?? 'Error',
    message: message[status] ?? STATUS_CODES[status] ?? 'Error',
    ...(status === 400 ? { field: 'limit', fields: { limit: 'must be 5, 10 or 15' } } : {}),
    ...(status === 409 ? { code: 11000, field: 'name', keyPattern: { name: 1 } } : {}),
  };
}

/** Who may call, and how they show who they are. */
export function accessText(call: CallDef): string {
  if (call.access === 'public') return 'Public: no token is read.';
  if (call.access === 'optional')
    return 'Public; with a valid access token the server knows the caller (an invalid token is refused with 401).';
  const who = Array.isArray(call.access) ? `signed-in ${call.access.join(' or ')}` : 'any signed-in person';
  return `For ${who}${call.devices ? ` on ${call.devices.join(', ')}` : ''}: send \`Authorization: Bearer <access token>\`. ${keyText(call)}`;
}

/** Whether an API key may make the call, and with which scopes (decision 039). */
export function keyText(call: CallDef): string {
  if (!call.scopes?.length) return 'API keys are refused (403 `API_KEY_NOT_ALLOWED`).';
  const scopes = call.scopes.map((s) => `\`${s}\``).join(' or ');
  return `Or an API key with the scope ${scopes} (\`Authorization: Bearer wm_…\`; without it 403 \`API_KEY_SCOPE\`), counted against the key's rate limit (429 with Retry-After past it).`;
}

/** The 403 an API key gets from a call it may not make. */
export function keyRefusal(call: CallDef): { summary: string; value: Record<string, unknown> } {
  return call.scopes?.length
    ? {
        summary: `API_KEY_SCOPE: an API key without ${call.scopes.join(' or ')}`,
        value: {
          statusCode: 403,
          error: 'Forbidden',
          message: `This API key cannot make this call: it needs the scope ${call.scopes.join(' or ')}.`,
          errorCode: 'API_KEY_SCOPE',
        },
      }
    : {
        summary: 'API_KEY_NOT_ALLOWED: API keys cannot make this call',
        value: {
          statusCode: 403,
          error: 'Forbidden',
          message: 'API keys cannot make this call: sign in as a person to make it.',
          errorCode: 'API_KEY_NOT_ALLOWED',
        },
      };
}

/** The first sentence of a summary (at most 120 characters), the operation's own summary. */
export const firstSentence = (text: string) => {
  const m = text.match(/^(.+?[.!?])(\s|$)/);
  const s = (m?.[1] ?? text).trim();
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
};

/** What each tag's calls are about (a tag without one: "Calls about <tag>."). */
export const TAG_TEXT: Record<string, string> = {
  login: 'Signing in: the Firebase ID-token exchange, refresh, sign-out and the CLI device flow.',
  system: 'Health, public configuration and the local mailbox.',
  lists: 'Subjects, topics, languages and countries.',
  tenant: "A mentor's or organisation's learners, seats, subscription and reports (TENANT callers only).",
  integrations:
    "A tenant's API keys (made and revoked by a person, never by a key) and its activity log (every change, who made it, when and from where).",
  sandbox:
    "A mentor's or organisation's sandbox: demo learners with open test links to build against, reset on demand, never billed (TENANT callers only).",
  testlink: 'Test links: creating, taking and evaluating tests.',
  events:
    "The events Waymark sends about a tenant's learners (the `webhooks` section): each written in the transaction of the change it reports.",
};

/** The document's description: the envelope, the errors, and getting a token for a script. */
export const INFO_DESCRIPTION = `Every call of the Waymark portal, widgets, CLI and extension, generated from the contract in \`shared/contract\`.

Success bodies are \`{ data, message? }\`. Errors have one shape, \`ErrorBody\`: \`{ statusCode, error, message, code?, errorCode?, field?, fields?, fieldCodes?, keyPattern? }\` — \`field\` names the invalid input (\`limit\`, \`email\`), \`fields\` says each invalid field's problem in the language the request asks for (Accept-Language) and \`fieldCodes\` gives each by its stable code and values (\`{ code: 'forms.tooLong', params: { maximum: 100 } }\`, decision 052), \`code\` carries 11000 for a duplicate and ERR001 for a refused name change, \`errorCode\` carries LINK_EXPIRED, TEST_COMPLETED, ASSESSMENT_NOT_YET_STARTED, ATTEMPT_TOKEN_REQUIRED, ATTEMPT_TOKEN_INVALID, EMAIL_NOT_VERIFIED, NOT_REGISTERED, ROADMAP_LIMIT, SANDBOX_AWARD (a sandbox's award has no credential) and the device flow's AUTHORIZATION_PENDING and EXPIRED_TOKEN.

## Getting a token for a script

Calls marked with the \`bearer\` security scheme need Waymark's access token in \`Authorization: Bearer <token>\`. Access tokens live minutes; the refresh token that comes with them is exchanged at \`POST /api/login/refresh\` (one use each: keep the new one).

**The CLI's device flow** (no password in the script):

1. \`POST /api/login/cli/start\` → \`{ deviceCode, userCode, verificationUrl, interval, expiresIn }\`;
2. the person opens \`verificationUrl\` (\`/cli-login\` on this server), signs in and approves \`userCode\` (\`POST /api/login/cli/approve\`);
3. \`POST /api/login/cli/poll\` with \`{ deviceCode }\` every \`interval\` seconds: 428 \`AUTHORIZATION_PENDING\` until approved, then \`{ token, refreshToken, user }\` (410 \`EXPIRED_TOKEN\` once \`expiresIn\` has passed).

\`waymark login\` does exactly this and keeps the tokens (in the CLI's configuration folder), refreshing them as it goes.

**The sign-in exchange**: sign in with Firebase Authentication (e-mail and password, Google, Microsoft…), then \`POST /api/login/sign-in-with-firebase\` with \`{ token: <Firebase ID token>, device }\` → \`{ token, refreshToken, user }\`.

## API keys for machines

A tenant makes API keys in the portal (*Integrations → API keys*) or with \`waymark keys create\`: named, with scopes and an optional expiry. The key — \`wm_{prefix}_{secret}\` — is shown once; send it as \`Authorization: Bearer wm_…\` (the \`apiKey\` security scheme). A key acts as its tenant, and only on the calls that list one of its scopes in their \`apiKey\` security requirement; every other call answers 403 \`API_KEY_NOT_ALLOWED\` (a call of another scope 403 \`API_KEY_SCOPE\`). A revoked or expired key is refused at once (401 \`API_KEY_REVOKED\`, \`API_KEY_EXPIRED\`). Each key may make \`RATE_LIMIT_API_KEY\` requests a minute (600 by default), counted across every server process: answers carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`, and past the limit 429 with \`Retry-After\`.

| scope | what it lets a key do |
|---|---|
${SCOPE_ROWS}

## Events

The \`webhooks\` section lists the events Waymark sends about a tenant's learners (the catalogue: \`shared/contract/events.ts\`), each with its payload and an example: \`{ id, type, version, timestamp, tenantId, data }\`. An event is written in the same transaction as the change it reports, so it is sent exactly when the change was committed. \`version\` is the payload's: fields may be added within a version, anything else is a new version.

Rate-limited calls answer 429 with \`Retry-After\` (seconds). Public calls read no access token and never answer 401 or 403 for the lack of one; the few that take a credential in the request answer 401 or 403 when it is refused (\`POST /api/login/sign-in-with-firebase\` an ID token, \`POST /api/login/refresh\` a refresh token, \`PUT /api/storage/upload\` its signed address), with an \`errorCode\`.`;
