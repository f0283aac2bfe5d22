/** The scripted entry: whole commands through the program, with output that is not a terminal. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Io } from './core/context';
import { SessionStore } from './core/session';
import { main } from './main';

const user = {
  _id: '6f1c2f5e-0000-4000-8000-000000000001',
  email: 'asha@example.com',
  role: 'USER',
  name: 'Asha',
};

let dir: string;
let sessions: SessionStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-main-'));
  sessions = new SessionStore(join(dir, 'session.json'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

async function run(args: string[], handler: Handler, env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  const requests: string[] = [];
  const fetch = (async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    requests.push(`${init.method ?? 'GET'} ${url.pathname}`);
    return handler(url, init);
  }) as typeof globalThis.fetch;
  const code = await main(['node', 'waymark', ...args], {
    io: { stdin, stdout, stderr } as unknown as Io,
    env,
    sessions,
    http: { fetch, close: async () => {} },
  });
  return { code, out: String(stdout.read() ?? ''), err: String(stderr.read() ?? ''), requests };
}

const noServer: Handler = () => {
  throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:8080') });
};

describe('waymark whoami', () => {
  it('prints the user as JSON when output is not a terminal, using WAYMARK_TOKEN', async () => {
    const r = await run(
      ['whoami'],
      (url, init) => {
        expect(new Headers(init.headers).get('authorization')).toBe('Bearer script-token');
        expect(url.origin).toBe('https://waymark.example.com');
        return Response.json({ data: user });
      },
      { WAYMARK_TOKEN: 'script-token', WAYMARK_SERVER: 'https://waymark.example.com/' },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(user);
    expect(r.requests).toEqual(['GET /api/user/me']);
  });

  it('prints tab-separated lines with --no-json', async () => {
    sessions.save({ server: 'http://127.0.0.1:8080', token: 'a', refreshToken: 'r', user });
    const r = await run(['whoami', '--no-json'], () => Response.json({ data: user }));
    expect(r.out).toBe('name\tAsha\nemail\tasha@example.com\nrole\tUSER\nserver\thttp://127.0.0.1:8080\n');
  });

  it('exits with 3 when nobody is signed in, without calling the server', async () => {
    const r = await run(['whoami'], noServer);
    expect(r.code).toBe(3);
    expect(r.err).toContain('waymark: Not signed in.');
    expect(r.requests).toEqual([]);
  });

  it('never sends a session to another server than its own', async () => {
    sessions.save({ server: 'http://127.0.0.1:8080', token: 'a', refreshToken: 'r', user });
    const r = await run(['whoami', '--server', 'https://elsewhere.example.com'], noServer);
    expect(r.code).toBe(3);
    expect(r.err).toContain('Not signed in to https://elsewhere.example.com');
    expect(r.requests).toEqual([]);
  });

  it('exits with 3 and says so when WAYMARK_TOKEN is refused', async () => {
    const r = await run(
      ['whoami'],
      () =>
        Response.json({ statusCode: 401, error: 'Unauthorized', message: 'Token expired' }, { status: 401 }),
      { WAYMARK_TOKEN: 'old' },
    );
    expect(r.code).toBe(3);
    expect(r.err).toContain('waymark: WAYMARK_TOKEN was refused: Token expired');
  });

  it('exits with 4 and the server’s message on 403', async () => {
    const r = await run(
      ['whoami'],
      () => Response.json({ statusCode: 403, error: 'Forbidden', message: 'Not permitted' }, { status: 403 }),
      { WAYMARK_TOKEN: 't' },
    );
    expect(r.code).toBe(4);
    expect(r.err).toBe(
      'waymark: Not permitted\nThis needs a mentor account (role TENANT); `waymark whoami` shows who this terminal is signed in as.\n',
    );
  });

  it('exits with 6 when the server cannot be reached', async () => {
    const r = await run(['whoami'], noServer, { WAYMARK_TOKEN: 't' });
    expect(r.code).toBe(6);
    expect(r.err).toContain('ECONNREFUSED');
    expect(r.err).toContain('waymark: http://127.0.0.1:8080 could not be reached: ');
    expect(r.err).toContain('Is the server running?');
  });
});

describe('usage', () => {
  it('exits with 2 for an unknown command or option, or a bad server URL', async () => {
    expect((await run(['whoarewe'], noServer)).code).toBe(2);
    expect((await run(['whoami', '--colour'], noServer)).code).toBe(2);
    expect((await run(['login', '--password', 'x'], noServer)).code).toBe(2);
    const bad = await run(['whoami', '--server', 'not a url'], noServer);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--server: "not a url" is not a URL');
  });

  it('says how to pass an award id that starts with "-" (read as an option), and takes it after --', async () => {
    const asOption = await run(['awards', 'revoke', '-AbC_123xyz0', '--reason', 'Shared answers.'], noServer);
    expect(asOption.code).toBe(2);
    expect(asOption.err).toContain("error: unknown option '-AbC_123xyz0'");
    expect(asOption.err).toContain('an id that starts with "-" goes last, after --');
    const afterDashes = await run(
      ['awards', 'revoke', '--reason', 'Shared answers.', '--', '-AbC_123xyz0'],
      (url) => {
        if (url.pathname !== '/api/credentials/-AbC_123xyz0/revoke') throw new Error(url.pathname);
        return Response.json(
          { statusCode: 403, message: 'Only the mentor whose test it was may revoke it.' },
          { status: 403 },
        );
      },
      { WAYMARK_TOKEN: 'a-token' },
    );
    expect(afterDashes.code, afterDashes.err).toBe(4);
    // an unknown option that is no id gets no such advice
    expect((await run(['whoami', '--colour'], noServer)).err).not.toContain('goes last');
  });

  it('prints help with the exit codes, and the version, with 0', async () => {
    const help = await run(['--help'], noServer);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Exit codes:');
    const whoamiHelp = await run(['whoami', '--help'], noServer);
    expect(whoamiHelp.out).toContain('--json');
    const version = await run(['--version'], noServer);
    expect(version.code).toBe(0);
    expect(version.out).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('waymark login with e-mail and password', () => {
  const config = {
    data: {
      publicUrl: 'http://127.0.0.1:8080',
      firebase: {
        apiKey: 'demo-api-key',
        authDomain: 'x',
        projectId: 'demo-waymark',
        emulatorHost: '127.0.0.1:9099',
      },
      extension: { chromeStoreUrl: 'x', firefoxStoreUrl: 'x' },
      mailbox: true,
    },
  };

  it('signs in through the Auth emulator the server names, then saves the CLI session', async () => {
    const r = await run(
      ['login', '--email', 'Asha@Example.com', '--password', 'pw', '--json'],
      async (url, init) => {
        if (url.pathname === '/api/config') return Response.json(config);
        if (url.host === '127.0.0.1:9099') {
          expect(url.pathname).toBe('/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword');
          expect(url.searchParams.get('key')).toBe('demo-api-key');
          expect(JSON.parse(String(init.body))).toMatchObject({ email: 'asha@example.com', password: 'pw' });
          return Response.json({ idToken: 'id-token-from-the-emulator' });
        }
        expect(JSON.parse(String(init.body))).toEqual({ token: 'id-token-from-the-emulator', device: 'CLI' });
        return Response.json({
          data: { user, token: 'access', refreshToken: 'refresh', deletionCanceled: false },
        });
      },
    );
    expect(r.code).toBe(0);
    expect(r.requests).toEqual([
      'GET /api/config',
      'POST /identitytoolkit.googleapis.com/v1/accounts:signInWithPassword',
      'POST /api/login/sign-in-with-firebase',
    ]);
    expect(JSON.parse(r.out)).toMatchObject({ event: 'signedIn', user: { email: 'asha@example.com' } });
    expect(r.out).not.toContain('refresh');
    expect(sessions.load()).toMatchObject({
      server: 'http://127.0.0.1:8080',
      token: 'access',
      refreshToken: 'refresh',
    });
  });

  it('explains an account that never registered (exit 5) and an unverified e-mail (exit 4)', async () => {
    const answer =
      (status: number, errorCode: string, message: string): Handler =>
      (url) => {
        if (url.pathname === '/api/config') return Response.json(config);
        if (url.host === '127.0.0.1:9099') return Response.json({ idToken: 'id-token' });
        return Response.json({ statusCode: status, error: 'x', message, errorCode }, { status });
      };
    const notRegistered = await run(
      ['login', '--email', 'new@example.com', '--password', 'pw'],
      answer(404, 'NOT_REGISTERED', 'You are not Existing User, Please login after registration'),
    );
    expect(notRegistered.code).toBe(5);
    expect(notRegistered.err).toContain(
      'waymark: You are not Existing User, Please login after registration',
    );
    expect(notRegistered.err).toContain('Sign up in the portal first: http://127.0.0.1:8080/who-i-am');

    const unverified = await run(
      ['login', '--email', 'new@example.com', '--password', 'pw'],
      answer(403, 'EMAIL_NOT_VERIFIED', 'Please verify your e-mail address'),
    );
    expect(unverified.code).toBe(4);
    expect(unverified.err).toContain('Open the link in the verification e-mail sent to new@example.com');
    expect(sessions.load()).toBeNull();
  });

  it('exits with 3 on a wrong password and 2 when no password can be read', async () => {
    const wrong = await run(['login', '--email', 'a@example.com', '--password', 'nope'], (url) =>
      url.pathname === '/api/config'
        ? Response.json(config)
        : Response.json({ error: { message: 'INVALID_LOGIN_CREDENTIALS' } }, { status: 400 }),
    );
    expect(wrong.code).toBe(3);
    expect(wrong.err).toContain('Wrong e-mail or password.');
    // standard input is empty and not a terminal
    const none = await run(['login', '--email', 'a@example.com'], noServer);
    expect(none.code).toBe(2);
    expect(none.err).toContain('No password given.');
  });
});

describe('the mentor and author commands', () => {
  it('are listed in the help with their subcommands, and the help states exit code 8', async () => {
    const help = await run(['--help'], noServer);
    for (const name of ['seats', 'assessments', 'questions']) expect(help.out).toContain(name);
    expect(help.out).toContain('8    partly done');
    const seats = await run(['seats', '--help'], noServer);
    for (const sub of ['list', 'add', 'import', 'remove', 'invite'])
      expect(seats.out).toMatch(new RegExp(`\\n  ${sub}\\b`));
    const importHelp = await run(['questions', 'import', '--help'], noServer);
    expect(importHelp.out).toContain('--dry-run');
    expect(importHelp.out).toContain('--concurrency <n>');
  });

  it('refuses bad options and unreadable files with 2, before calling the server', async () => {
    const missing = await run(['questions', 'import', join(dir, 'missing.json')], noServer, {
      WAYMARK_TOKEN: 't',
    });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(
      `Cannot read the question file ${join(dir, 'missing.json')}: no such file.`,
    );
    const concurrency = await run(['seats', 'add', 'a@example.com', '--concurrency', '0'], noServer, {
      WAYMARK_TOKEN: 't',
    });
    expect(concurrency.code).toBe(2);
    expect(concurrency.err).toContain('--concurrency: must be a whole number from 1 to 16.');
    expect((await run(['seats', 'remove'], noServer)).code).toBe(2);
    expect(missing.requests).toEqual([]);
  });

  it('names every malformed address and writes nothing (exit 7)', async () => {
    const file = join(dir, 'roster.txt');
    writeFileSync(file, 'asha@example.com\nasha(at)example.com\n\nravi@\n');
    const r = await run(['seats', 'import', file, '--no-json'], noServer, { WAYMARK_TOKEN: 't' });
    expect(r.code).toBe(7);
    expect(r.err).toContain(`${file}:2: email: asha(at)example.com: Invalid email address`);
    expect(r.err).toContain(`${file}:4: email: ravi@: Invalid email address`);
    expect(r.err).toContain(`${file}: 2 lines with a problem; nothing was written.`);
    expect(r.requests).toEqual([]);
  });
});
