#!/usr/bin/env node
/**
 * `npm start`: builds what is stale, starts the Firebase Auth emulator for a demo-* project (accounts kept in
 * DATA_DIR/firebase across restarts), then the server. `npm run dev`: the same with the Vite dev server and a
 * restarting API server.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeEmulatorConfig } from './emulator.mjs';
import { assertPinnedNode } from './runtime.mjs';
import { freePorts, portFree } from './service.mjs';

try {
  assertPinnedNode(process.argv.includes('--dev') ? '`npm run dev`' : '`npm start`');
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const root = resolve(new URL('..', import.meta.url).pathname);
const dev = process.argv.includes('--dev');
const env = { ...process.env };
const dataDir = resolve(root, env.DATA_DIR ?? 'data');
const projectId = env.FIREBASE_PROJECT_ID ?? 'demo-waymark';
const emulated = projectId.startsWith('demo-');
const children = [];
let stopping = false;

const log = (m) => console.log(`\x1b[36m[waymark]\x1b[0m ${m}`);

async function waitFor(url, ms, what) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (stopping) return;
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what} did not start within ${ms / 1000} s`);
}

function run(name, command, args, options = {}) {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'], ...options });
  child.name = name;
  children.push(child);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${name} stopped (${signal ?? `exit code ${code}`}); stopping Waymark.`);
      void stop(code || 1);
    }
  });
  return child;
}

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  // the server first, then the emulator (SIGINT makes it export its accounts)
  for (const child of [...children].reverse()) {
    if (child.exitCode !== null) continue;
    await new Promise((done) => {
      child.once('exit', done);
      child.kill(child.name === 'auth emulator' ? 'SIGINT' : 'SIGTERM');
      setTimeout(() => {
        child.kill('SIGKILL');
        done();
      }, 15_000).unref();
    });
  }
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

async function startEmulator() {
  const port = Number(env.AUTH_EMULATOR_PORT ?? 9099);
  if (!(await portFree(port))) {
    throw new Error(
      `Port ${port} is taken, so the Auth emulator cannot start. Stop what uses it or set AUTH_EMULATOR_PORT to a free port.`,
    );
  }
  // distinct ones: two calls in a row may be given the same port
  const [hubPort, loggingPort] = await freePorts(2);
  const dir = join(dataDir, 'firebase');
  const exportDir = join(dir, 'export');
  const tmp = join(dataDir, 'tmp');
  mkdirSync(exportDir, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  const configFile = join(dir, 'firebase.json');
  writeEmulatorConfig(configFile, { host: '127.0.0.1', port, hubPort, loggingPort });
  const args = [
    'emulators:start',
    '--only',
    'auth',
    '--project',
    projectId,
    '--config',
    configFile,
    '--export-on-exit',
    exportDir,
  ];
  if (existsSync(join(exportDir, 'firebase-export-metadata.json'))) args.push('--import', exportDir);
  log(`starting the Firebase Auth emulator on 127.0.0.1:${port} (accounts kept in ${exportDir})`);
  run('auth emulator', join(root, 'node_modules', '.bin', 'firebase'), args, {
    env: { ...env, TMPDIR: tmp },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`http://127.0.0.1:${port}/`, 90_000, 'The Auth emulator');
  // keep accounts safe even if the process is killed hard: export them every minute
  setInterval(() => {
    fetch(`http://127.0.0.1:${hubPort}/_admin/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: exportDir, initiatedBy: 'waymark-start' }),
    }).catch(() => undefined);
  }, 60_000).unref();
  return `127.0.0.1:${port}`;
}

async function main() {
  if (!dev) {
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], {
      cwd: root,
      stdio: 'inherit',
      env,
    });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  if (emulated) env.FIREBASE_AUTH_EMULATOR_HOST ??= await startEmulator();
  env.DATA_DIR = dataDir;
  const port = env.PORT ?? '8080';
  const host = env.HOST ?? '127.0.0.1';
  const serverArgs = dev
    ? ['--import', 'tsx', '--watch', 'server/main.ts']
    : ['--import', 'tsx', 'server/main.ts'];
  run('server', process.execPath, serverArgs);
  await waitFor(
    `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/api/health`,
    120_000,
    'The server',
  );
  if (dev) {
    env.WAYMARK_API = `http://127.0.0.1:${port}`;
    run('vite', join(root, 'node_modules', '.bin', 'vite'), ['--config', 'vite.config.ts']);
    log('portal with hot reload: http://127.0.0.1:5173');
  }
  const url = env.PUBLIC_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  log(`Waymark is running at ${url}`);
  log(`  learner: learner@waymark.local / Learner#2026 · mentor: mentor@waymark.local / Mentor#2026`);
  log(`  API document: ${url}/docs · local mailbox: ${url}/mailbox · stop with Ctrl-C`);
}

main().catch((err) => {
  console.error(err.message ?? err);
  void stop(1);
});
