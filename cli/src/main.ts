/**
 * Runs `waymark` and returns its exit code: parses the command line, runs the command, prints any failure
 * on standard error with the server's message, and maps it to the documented exit code.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Context, Env, Io } from './core/context';
import { describeError, ExitCode, exitCodeOf } from './core/errors';
import { createHttp, type Http } from './core/http';
import { Output } from './core/output';
import { endQuietlyOnBrokenPipe } from './core/pipe';
import { SessionStore, sessionFile } from './core/session';
import { createProgram } from './program';

export interface MainDeps {
  io?: Io;
  env?: Env;
  http?: Http;
  sessions?: SessionStore;
}

export async function main(argv: readonly string[], deps: MainDeps = {}): Promise<number> {
  const io = deps.io ?? { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  // `waymark … | head`: the reader stopped; end as a Unix tool would, without a stack trace
  if (!deps.io) endQuietlyOnBrokenPipe(process.stdout);
  const env = deps.env ?? process.env;
  const http = deps.http ?? createHttp();
  const sessions = deps.sessions ?? new SessionStore(sessionFile(env));
  const controller = new AbortController();
  let ctx: Context | null = null;

  // the first Ctrl+C cancels what is running; a second one leaves at once
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const program = createProgram({
      io,
      env,
      http,
      sessions,
      controller,
      onContext: (c) => {
        ctx = c;
      },
    });
    await program.parseAsync(argv as string[], { from: 'node' });
    return ExitCode.ok;
  } catch (err) {
    const code = exitCodeOf(err);
    // commander has printed its own usage errors, help and version already
    if (!isCommanderError(err)) {
      const output = (ctx as Context | null)?.output ?? new Output('plain', io);
      const server = (ctx as Context | null)?.server;
      output.error(describeError(err, { debug: Boolean(env.WAYMARK_DEBUG), ...(server ? { server } : {}) }));
    }
    return code;
  } finally {
    process.off('SIGINT', onSigint);
    if (!deps.http) await http.close();
  }
}

function isCommanderError(err: unknown): boolean {
  return err instanceof Error && String((err as { code?: unknown }).code ?? '').startsWith('commander.');
}

/** Run directly (`tsx cli/src/main.ts …`, as `npm run waymark` does) rather than through cli/bin/waymark.mjs. */
function isEntry(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) process.exitCode = await main(process.argv);
