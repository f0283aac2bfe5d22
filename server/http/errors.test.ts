import { ATTEMPT_TOKEN_HEADER } from '@shared/rules/attempt-token';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupServer } from '../test/helper';

const server = setupServer({
  extend(app) {
    // calls that fail the way real bugs do: a broken query with a parameter, a thrown error
    app.get('/api/test/broken-query', async () => {
      await app.services.database.db.execute(
        sql`select secret_column from no_such_table where owner = ${'parameter-value-42'}`,
      );
      return { data: null };
    });
    app.get('/api/test/thrown', async () => {
      throw new Error('internal detail: connection string postgres://admin:hunter2@db');
    });
  },
});

const leaks =
  /select|no_such_table|secret_column|parameter-value-42|hunter2|internal detail|\bat \w+ \(|\.ts:\d+/i;

describe('the one error handler', () => {
  it('answers invalid JSON with a 400 naming the body', async () => {
    const res = await server.request('POST', '/api/login/refresh', '{"refreshToken": ', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', field: 'body' });
  });

  it("says a field's zod complaint in the request's language, with its code (decision 052)", async () => {
    const ask = (body: unknown, language: string) =>
      server.request('POST', '/api/login/refresh', JSON.stringify(body), {
        headers: { 'content-type': 'application/json', 'accept-language': language },
      });
    const missing = await ask({ device: 'WEB_APP' }, 'es');
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ refreshToken: 'Obligatorio' });
    expect(missing.body.fieldCodes).toEqual({ refreshToken: { code: 'forms.required' } });
    const wrong = await ask({ device: 'TOASTER', refreshToken: 'r'.repeat(40) }, 'ar');
    expect(wrong.body.fields).toEqual({ device: 'اختر أحد الخيارات' });
    expect(wrong.body.fieldCodes).toEqual({ device: { code: 'forms.choose' } });
    const english = await ask({ device: 'TOASTER', refreshToken: 'r'.repeat(40) }, 'en');
    expect(english.body.message).toBe('device: Choose one of the options');
    // a schema's own English stays word for word for an English reader
    const own = await ask({ device: 'WEB_APP' }, 'en');
    expect(own.body.fields).toEqual({ refreshToken: 'refreshToken is required' });
  });

  it("says an integrations schema's own English in the request's language (issue 31)", async () => {
    const start = (language: string) =>
      server.request('POST', '/api/login/sso/start', JSON.stringify({ email: 'ana' }), {
        headers: { 'content-type': 'application/json', 'accept-language': language },
      });
    const spanish = await start('es');
    expect(spanish.status).toBe(400);
    expect(spanish.body.fields).toEqual({ email: 'Introduce un correo electrónico válido' });
    expect(spanish.body.fieldCodes).toEqual({ email: { code: 'forms.email' } });
    // the English API callers and the CLI rely on, word for word
    expect((await start('en')).body.fields).toEqual({ email: 'must be an e-mail address' });
  });

  it('answers a missing body with a 400', async () => {
    const res = await server.post('/api/login/refresh');
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
  });

  it('answers an unknown API call with a JSON 404', async () => {
    const res = await server.get('/api/no/such/call');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    const post = await server.post('/api/user/me', {});
    expect(post.status).toBe(404);
  });

  it('never shows SQL, parameters or a stack trace in a 500', async () => {
    for (const url of ['/api/test/broken-query', '/api/test/thrown']) {
      const res = await server.get(url);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: expect.any(String),
      });
      expect(res.text).not.toMatch(leaks);
    }
  });

  it('sends the security headers and no framework banner', async () => {
    // an API answer: the short list for JSON (no page policy to carry), 404s included
    for (const path of ['/api/health', '/api/no-such-call', '/api?x=1']) {
      const res = await server.get(path);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['content-security-policy'], path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy'], path).toBeUndefined();
      expect(res.headers['x-powered-by'], path).toBeUndefined();
    }
    // a page, and a path that only starts like the API's: the portal's policy
    for (const path of ['/', '/portal/users', '/apiary']) {
      const res = await server.get(path);
      expect(res.headers['content-security-policy'], path).toContain("default-src 'self'");
      expect(res.headers['cross-origin-opener-policy'], path).toBe('same-origin-allow-popups');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['x-powered-by'], path).toBeUndefined();
    }
  });

  it('lets the portal origin call the API from a browser, and not other sites', async () => {
    const origin = new URL(server.config.publicUrl).origin;
    const ours = await server.get('/api/health', { headers: { origin } });
    expect(ours.headers['access-control-allow-origin']).toBe(origin);
    const theirs = await server.get('/api/health', { headers: { origin: 'https://evil.example' } });
    expect(theirs.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("lets a page that takes a test send the attempt's token from another origin (a partner's element)", async () => {
    const origin = new URL(server.config.publicUrl).origin;
    // the browser asks first: a start, an answer, a focus event and the evaluation all carry the header
    for (const [method, url] of [
      ['PUT', '/api/testlink/verify/hHmNU4pIjn34jsi16PDBEA'],
      ['PUT', '/api/testlink/hHmNU4pIjn34jsi16PDBEA/answer'],
      ['POST', '/api/testlink/activity'],
      ['POST', '/api/testlink/evaluvate/v2'],
    ] as const) {
      const res = await server.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type, x-attempt-token',
        },
      });
      expect(res.statusCode, url).toBe(204);
      expect(String(res.headers['access-control-allow-headers']).split(/,\s*/), url).toContain(
        ATTEMPT_TOKEN_HEADER,
      );
    }
  });
});

describe('the security headers with award images in an S3 bucket', () => {
  const s3 = setupServer({
    env: {
      S3_BUCKET: 'waymark-awards',
      S3_REGION: 'eu-west-1',
      S3_ENDPOINT: 'https://s3.eu-west-1.amazonaws.com',
      S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    },
  });

  it("let the browser upload straight to the bucket (the award page's generated image)", async () => {
    const res = await s3.get('/portal/users');
    const connect = /connect-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
    expect(connect.split(' ')).toContain('https://waymark-awards.s3.eu-west-1.amazonaws.com');
  });
});
