/**
 * Every failure of an element as `{ status, code, message }`, through the element's real API client
 * (shared/client) and its checked fetch: what a partner's page sees when the elements were bundled without
 * `api-base` (the partner's own server answers the API's paths with its HTML 404), given a wrong one, or
 * cannot reach one, beside the refusals Waymark's own API gives.
 */
import { createClient } from '@shared/client/client';
import { testLinkQuestions } from '@shared/contract/assessments';
import { certificateInfo } from '@shared/contract/awards';
import { describe, expect, it } from 'vitest';
import { checkedFetch, ERROR_CODES, failure } from './failure';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

/** The element's client against a fake server (`answer`), as define-element makes it. */
function clientFor(answer: (url: string) => Response | Promise<Response>, opts: { given: boolean }) {
  const base = 'https://partner.example';
  return createClient({
    baseUrl: `${base}/api`,
    device: 'WEB_APP',
    fetch: checkedFetch(base, opts.given, 'wm-award', async (input) => answer(String(input))),
  });
}

async function detailOf(run: () => Promise<unknown>, message = 'Certificate Issue') {
  try {
    await run();
  } catch (err) {
    return failure(message, err);
  }
  throw new Error('the call did not fail');
}

describe("an element's failures", () => {
  it('bundled without api-base, against a site that is not Waymark: api-base-missing, naming the attribute', async () => {
    const client = clientFor(
      () =>
        new Response('<!doctype html><h1>Not found</h1>', {
          status: 404,
          headers: { 'content-type': 'text/html' },
        }),
      { given: false },
    );
    const detail = await detailOf(() => client.call(certificateInfo, { params: { id: 'abcdefghij12' } }));
    expect(detail.code).toBe('api-base-missing');
    expect(detail.status).toBe(404);
    expect(detail.message).toMatch(
      /<wm-award> has no api-base, and https:\/\/partner\.example .* is not a Waymark server/,
    );
    expect(detail.message).toContain('api-base="https://your-waymark-server"');
  });

  it("given an api-base whose JSON is another service's: api-base-not-waymark", async () => {
    const client = clientFor(() => json(404, { error: 'no route' }), { given: true });
    const detail = await detailOf(() => client.call(certificateInfo, { params: { id: 'abcdefghij12' } }));
    expect(detail).toMatchObject({ code: 'api-base-not-waymark', status: 404 });
    expect(detail.message).toContain('api-base https://partner.example answered 404');
  });

  it('no answer at all (offline, refused by CORS): api-base-unreachable with status 0', async () => {
    const base = 'https://waymark.example';
    const client = createClient({
      baseUrl: `${base}/api`,
      device: 'WEB_APP',
      fetch: checkedFetch(base, true, 'wm-award', async () => {
        throw new TypeError('Failed to fetch');
      }),
    });
    const detail = await detailOf(() => client.call(certificateInfo, { params: { id: 'abcdefghij12' } }));
    expect(detail).toMatchObject({ code: 'api-base-unreachable', status: 0 });
    expect(detail.message).toContain(
      'could not reach the Waymark server at https://waymark.example (its api-base)',
    );
    expect(detail.message).toContain('CORS_ORIGINS');
  });

  it("Waymark's own refusals keep the widget's message, with their status and a code", async () => {
    const cases: [Response, { status: number; code: string }][] = [
      [
        json(404, { statusCode: 404, error: 'Not Found', message: 'Award not found' }),
        { status: 404, code: 'not-found' },
      ],
      [
        json(410, { statusCode: 410, error: 'Gone', message: 'Completed', errorCode: 'TEST_COMPLETED' }),
        { status: 410, code: 'test-completed' },
      ],
      [
        json(410, { statusCode: 410, error: 'Gone', message: 'Expired', errorCode: 'LINK_EXPIRED' }),
        { status: 410, code: 'link-expired' },
      ],
      [
        json(403, {
          statusCode: 403,
          error: 'Forbidden',
          message: 'Soon',
          errorCode: 'ASSESSMENT_NOT_YET_STARTED',
        }),
        { status: 403, code: 'not-yet-started' },
      ],
      [
        json(500, { statusCode: 500, error: 'Internal Server Error', message: 'x' }),
        { status: 500, code: 'server-error' },
      ],
      [
        json(400, { statusCode: 400, error: 'Bad Request', message: 'x' }),
        { status: 400, code: 'request-failed' },
      ],
    ];
    for (const [answer, expected] of cases) {
      const client = clientFor(() => answer, { given: false });
      const detail = await detailOf(
        () => client.call(testLinkQuestions, { params: { id: 'abcdefghij12' }, query: { device: 'WEB' } }),
        'Something Went Wrong',
      );
      expect(detail).toEqual({ ...expected, message: 'Something Went Wrong' });
    }
  });

  it('a code the widget knows better (a file that did not load) wins, and every code is in the list', () => {
    expect(
      failure(
        'Something Went Wrong',
        new TypeError('Failed to fetch dynamically imported module'),
        'file-load-failed',
      ),
    ).toEqual({
      status: 0,
      code: 'file-load-failed',
      message: 'Something Went Wrong',
    });
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it("an answer of Waymark's passes unchanged", async () => {
    const client = clientFor(() => json(200, { data: { ok: true } }), { given: false });
    await expect(client.call(certificateInfo, { params: { id: 'abcdefghij12' } })).resolves.toEqual({
      data: { ok: true },
    });
  });
});
