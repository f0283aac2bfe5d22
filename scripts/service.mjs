/**
 * What the service scripts (emulator.mjs, pg.mjs, start.mjs) share when run as commands: a free port, the
 * command line's options, running until a signal, and telling a command run from a module imported by others.
 * The one free-port helper of the repository: the e2e setup, tests/support and the benches import it too
 * (typed by service.d.mts).
 */
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A port nobody listens on right now. */
export function freePort(host = '127.0.0.1') {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', fail);
    srv.listen(0, host, () => {
      const address = srv.address();
      srv.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Distinct free ports (asking the kernel twice in a row can give the same one back). */
export async function freePorts(count, host = '127.0.0.1') {
  const ports = new Set();
  while (ports.size < count) ports.add(await freePort(host));
  return [...ports];
}

/** Whether a port is free to listen on. */
export function portFree(port, host = '127.0.0.1') {
  return new Promise((done) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => done(false));
    srv.listen(port, host, () => srv.close(() => done(true)));
  });
}

/** The value given after `--name` on the command line, if any. */
export function option(argv, name) {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** Keeps a started service until Ctrl-C, SIGTERM or SIGHUP, then stops it and exits. */
export function stopOnSignal(stop) {
  const shutdown = async () => {
    await stop();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, shutdown);
}

/** Runs `main` when the module at `moduleUrl` is the script node was started with (not when imported). */
export function runAsCommand(moduleUrl, main) {
  if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(moduleUrl)) {
    main().catch((err) => {
      console.error(err.message ?? err);
      process.exit(1);
    });
  }
}
