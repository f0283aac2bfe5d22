#!/usr/bin/env node
/**
 * Starts and stops the Firebase Auth emulator on free ports.
 *
 * As a module (the test runner, the e2e setup, the bench):
 *   const emulator = await startEmulator({ projectId: 'demo-waymark' });
 *   emulator.host   // '127.0.0.1:41234', for FIREBASE_AUTH_EMULATOR_HOST
 *   await emulator.stop();
 *
 * As a command (runs until Ctrl-C, prints the host on stdout):
 *   node scripts/emulator.mjs [--project demo-waymark] [--port 9099]
 *
 * Every start gets its own folder under .tmp/ holding a generated firebase.json (auth, hub and logging
 * ports all free, the UI disabled so it runs offline, single-project mode) and its own TMPDIR, so the
 * hub's locator file never collides with another emulator for the same project. The folder is removed on
 * stop unless `keepDir` is set.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePorts, option, portFree, runAsCommand, stopOnSignal } from './service.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * Writes the firebase.json of an Auth emulator on these ports (its hub and logging ports too), the UI
 * disabled so it runs offline, in single-project mode: the one shape for this module and `npm start`.
 */
export function writeEmulatorConfig(file, { host, port, hubPort, loggingPort }) {
  const emulators = {
    auth: { host, port },
    hub: { host, port: hubPort },
    logging: { host, port: loggingPort },
    ui: { enabled: false },
    singleProjectMode: true,
  };
  writeFileSync(file, `${JSON.stringify({ emulators }, null, 2)}\n`);
}

function firebaseBin() {
  const require = createRequire(join(root, 'package.json'));
  const pkgFile = require.resolve('firebase-tools/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.firebase;
  return join(pkgFile, '..', bin);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Processes to kill if this process exits without calling stop() (a crash, process.exit). */
const live = new Set();
process.once('exit', () => {
  for (const entry of live) entry.killNow();
});

/** The firebase command line that starts the Auth emulator: its accounts imported and exported when asked. */
function emulatorArgs(projectId, configFile, options) {
  const args = [
    firebaseBin(),
    'emulators:start',
    '--only',
    'auth',
    '--project',
    projectId,
    '--config',
    configFile,
  ];
  if (options.importDir && existsSync(join(options.importDir, 'firebase-export-metadata.json'))) {
    args.push('--import', resolve(options.importDir));
  }
  if (options.exportOnExit) {
    mkdirSync(options.exportOnExit, { recursive: true });
    args.push('--export-on-exit', resolve(options.exportOnExit));
  }
  return args;
}

/** Sends `signal` to the child's whole process group (it runs detached), or to the child alone. */
function signalProcessGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/**
 * @param {object} [options]
 * @param {string} [options.projectId] a demo-* project needs no credentials (default demo-waymark)
 * @param {string} [options.host] interface to listen on (default 127.0.0.1)
 * @param {number} [options.port] auth port; a free one when absent (an error when given and taken)
 * @param {string} [options.importDir] accounts to load at start (a previous export)
 * @param {string} [options.exportOnExit] folder to export the accounts to on stop
 * @param {string} [options.dir] parent folder of the per-run folder (default .tmp/ of the project)
 * @param {boolean} [options.keepDir] keep the per-run folder (config, logs) after stop
 * @param {number} [options.timeoutMs] how long to wait for it to answer (default 90 s)
 * @param {(line: string) => void} [options.log] progress messages
 * @param {boolean} [options.quiet] hide the emulator's own output (default true; it is kept in the log file)
 * @returns {Promise<{host: string, port: number, hubPort: number, projectId: string, dir: string, pid: number, stop: () => Promise<void>}>}
 */
export async function startEmulator(options = {}) {
  const projectId = options.projectId ?? 'demo-waymark';
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => {});
  const timeoutMs = options.timeoutMs ?? 90_000;
  let port = options.port;
  if (port !== undefined && !(await portFree(port, host))) {
    throw new Error(`Port ${port} is taken, so the Auth emulator cannot start there. Choose another port.`);
  }
  const [p1, hubPort, loggingPort] = await freePorts(3, host);
  port ??= p1;

  const parent = resolve(options.dir ?? join(root, '.tmp'));
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'emulator-'));
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const configFile = join(dir, 'firebase.json');
  writeEmulatorConfig(configFile, { host, port, hubPort, loggingPort });
  const args = emulatorArgs(projectId, configFile, options);

  const logFile = join(dir, 'emulator.log');
  const output = [];
  const child = spawn(process.execPath, args, {
    // firebase-debug.log lands in the working directory: keep it in the per-run folder
    cwd: dir,
    env: { ...process.env, TMPDIR: tmp, NO_UPDATE_NOTIFIER: '1', FORCE_COLOR: '0', CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // its own process group, so stop() reaches everything it started and a terminal's Ctrl-C does not
    // kill it before the caller has finished with it
    detached: true,
  });
  const keep = (chunk) => {
    const text = chunk.toString();
    output.push(text);
    if (output.length > 400) output.splice(0, output.length - 400);
    if (options.quiet === false) process.stderr.write(text);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  const exitedPromise = new Promise((done) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      done();
    });
  });

  const signalGroup = (signal) => signalProcessGroup(child, signal);
  const entry = {
    killNow() {
      if (exited) return;
      signalGroup('SIGKILL');
      if (!options.keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
  live.add(entry);

  let stopped = null;
  const stop = () => {
    stopped ??= (async () => {
      if (!exited) {
        // SIGINT lets it export accounts (--export-on-exit) and close its ports
        signalGroup('SIGINT');
        const deadline = Date.now() + (options.exportOnExit ? 20_000 : 8_000);
        while (!exited && Date.now() < deadline) await sleep(100);
        if (!exited) {
          signalGroup('SIGKILL');
          await Promise.race([exitedPromise, sleep(2_000)]);
        }
      }
      // helpers it spawned in its group
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // none left
      }
      live.delete(entry);
      writeFileSync(logFile, output.join(''));
      if (!options.keepDir) rmSync(dir, { recursive: true, force: true });
    })();
    return stopped;
  };

  log(`starting the Firebase Auth emulator on ${host}:${port} (project ${projectId})`);
  const started = Date.now();
  const url = `http://${host}:${port}/`;
  while (true) {
    if (exited) {
      writeFileSync(logFile, output.join(''));
      live.delete(entry);
      throw new Error(
        `The Auth emulator exited (${exited.signal ?? `exit code ${exited.code}`}) before answering. Its output:\n${output.join('').slice(-4000)}`,
      );
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // not yet
    }
    if (Date.now() - started > timeoutMs) {
      await stop();
      throw new Error(
        `The Auth emulator did not answer at ${url} within ${timeoutMs / 1000} s. Its output:\n${output.join('').slice(-4000)}`,
      );
    }
    await sleep(250);
  }
  log(`the Auth emulator answers at ${host}:${port} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { host: `${host}:${port}`, port, hubPort, projectId, dir, pid: child.pid, stop };
}

async function main() {
  const argv = process.argv.slice(2);
  const opt = (name) => option(argv, name);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(`Usage: node scripts/emulator.mjs [--project demo-waymark] [--port N] [--import DIR] [--export-on-exit DIR] [--verbose]

Starts the Firebase Auth emulator on free ports and prints its host (for FIREBASE_AUTH_EMULATOR_HOST).
Runs until Ctrl-C or SIGTERM, then stops it and removes its temporary folder.`);
    return;
  }
  const port = opt('port');
  const emulator = await startEmulator({
    projectId: opt('project') ?? 'demo-waymark',
    port: port ? Number(port) : undefined,
    importDir: opt('import'),
    exportOnExit: opt('export-on-exit'),
    quiet: !argv.includes('--verbose'),
    log: (m) => console.error(`[emulator] ${m}`),
  });
  console.log(emulator.host);
  console.error(`[emulator] export FIREBASE_AUTH_EMULATOR_HOST=${emulator.host}   (Ctrl-C stops it)`);
  stopOnSignal(() => emulator.stop());
}

runAsCommand(import.meta.url, main);
