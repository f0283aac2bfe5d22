/**
 * What the CLI's real-server tests share: a free port, and running `waymark …` through the CLI's own entry
 * (main) with output that is not a terminal, collecting standard output and error and the exit code.
 */
import { PassThrough } from 'node:stream';
import type { Io } from '../src/core/context';
import type { Http } from '../src/core/http';
import type { SessionStore } from '../src/core/session';
import { main } from '../src/main';

/** A port nobody listens on right now (the one helper, scripts/service.mjs). */
export { freePort } from '../../scripts/service.mjs';

export interface RunDeps {
  sessions: SessionStore;
  http: Http;
  env?: Record<string, string>;
  /** Standard input (ended at once when not given). */
  stdin?: string;
}

export interface RunResult {
  code: number;
  out: string;
  err: string;
  /** Standard output parsed as NDJSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the command printed
  events: any[];
}

/** Runs `waymark …`; onLine sees each line of standard output as it comes. */
export async function runWaymark(
  args: string[],
  deps: RunDeps,
  onLine: (line: string) => void = () => {},
): Promise<RunResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end(deps.stdin ?? '');
  let out = '';
  let pending = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  let err = '';
  stderr.on('data', (chunk: Buffer) => {
    err += chunk;
  });
  const code = await main(['node', 'waymark', ...args], {
    io: { stdin, stdout, stderr } as unknown as Io,
    env: deps.env ?? {},
    sessions: deps.sessions,
    http: deps.http,
  });
  const events = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
  return { code, out, err, events };
}

/** Answers as a Waymark server shedding load does (server/http/protections.ts): 503, Retry-After, its JSON error. */
export function answerBusy(res: import('node:http').ServerResponse, retryAfter: string): void {
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': retryAfter });
  res.end(
    JSON.stringify({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The server is busy, please try again shortly.',
    }),
  );
}
