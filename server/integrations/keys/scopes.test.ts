/**
 * Every key scope tried against every call it must not reach, generated from the contract (issue 28): for
 * each scope, a key holding only that scope sends every call that reads a token (public calls read none) —
 * its documented example — and must get 403 from each call whose `scopes` do not name it (API_KEY_SCOPE, or
 * API_KEY_NOT_ALLOWED for a call no key may make), before anything is read or written. The calls that do
 * name it are not refused for the key (whatever their handler then says of the example's ids).
 */
import { fillPath } from '@shared/contract/define';
import { allCalls } from '@shared/contract/registry';
import { API_SCOPES, type ApiScope } from '@shared/schemas/integrations';
import { beforeAll, describe, expect, it } from 'vitest';
import { readExample } from '../../http/openapi-docs';
import { API_PREFIX } from '../../http/routes';
import { setupServer } from '../../test/helper';

const server = setupServer({ env: { RATE_LIMIT_API_KEY: '100000' } });
const keys = {} as Record<ApiScope, string>;

beforeAll(async () => {
  const tenant = await server.signedIn('TENANT', { profile: true, name: 'Scope Mentor' });
  for (const scope of API_SCOPES) {
    const res = await server.post(
      '/api/tenant/api-keys',
      { name: `Only ${scope}`, scopes: [scope] },
      tenant.auth,
    );
    expect(res.status, res.text).toBe(201);
    keys[scope] = res.body.data.key;
  }
}, 60_000);

/** A call's documented example, sent with the key. */
async function send(call: (typeof calls)[number]['call'], name: string, key: string) {
  const example = readExample(name)?.request ?? {};
  const params = Object.fromEntries(
    [...call.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map(([, k]) => [k!, String(example.params?.[k!] ?? '1')]),
  );
  const query = Object.fromEntries(
    Object.entries((example.query as Record<string, unknown>) ?? {}).map(([k, v]) => [
      k,
      typeof v === 'string' ? v : JSON.stringify(v),
    ]),
  );
  const res = await server.app.inject({
    method: call.method,
    url: API_PREFIX + fillPath(call.path, params),
    query,
    headers: {
      authorization: `Bearer ${key}`,
      ...(example.headers as Record<string, string> | undefined),
      ...(example.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(example.body !== undefined ? { payload: JSON.stringify(example.body) } : {}),
  });
  let errorCode: string | undefined;
  try {
    errorCode = (JSON.parse(res.body) as { errorCode?: string }).errorCode;
  } catch {
    errorCode = undefined;
  }
  return { status: res.statusCode, errorCode };
}

const calls = allCalls().filter(({ call }) => call.access !== 'public');

describe('every key scope against every call of the contract', () => {
  it('has calls for every scope, and calls no key may make', () => {
    for (const scope of API_SCOPES) {
      expect(
        calls.some(({ call }) => call.scopes?.includes(scope)),
        scope,
      ).toBe(true);
    }
    expect(calls.filter(({ call }) => !call.scopes).length).toBeGreaterThan(50);
  });

  it.each(API_SCOPES)(
    'a key with only %s is refused by every call that does not name it',
    async (scope) => {
      const problems: string[] = [];
      let refused = 0;
      let reached = 0;
      for (const { name, call } of calls) {
        const res = await send(call, name, keys[scope]);
        const keyRefusal = res.errorCode === 'API_KEY_SCOPE' || res.errorCode === 'API_KEY_NOT_ALLOWED';
        if (call.scopes?.includes(scope)) {
          reached++;
          if (keyRefusal || res.status === 401 || res.status >= 500)
            problems.push(`${name}: names ${scope} but answered ${res.status} ${res.errorCode ?? ''}`);
        } else {
          refused++;
          const want = call.scopes ? 'API_KEY_SCOPE' : 'API_KEY_NOT_ALLOWED';
          if (res.status !== 403 || res.errorCode !== want)
            problems.push(`${name}: answered ${res.status} ${res.errorCode ?? ''}, not 403 ${want}`);
        }
      }
      expect(problems).toEqual([]);
      expect(refused + reached).toBe(calls.length);
      expect(reached).toBeGreaterThan(0);
    },
    300_000,
  );
});
