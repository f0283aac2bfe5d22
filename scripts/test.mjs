#!/usr/bin/env node
/**
 * `npm test`: everything, in one command, from a clean clone.
 *
 *   prerequisites   Debian's chromium, firefox-esr and postgresql (installed when root with apt-get; otherwise named)
 *   lint            biome check . (lint and format), then knip (dead code: knip.jsonc names the entries)
 *   types           tsc -p tsconfig.json --noEmit
 *   unit            vitest projects unit and dom (with the emulator, for the CLI's real-server test)
 *   server-pglite   vitest project server on PGlite
 *   server-postgres vitest project server on a throwaway PostgreSQL cluster (scripts/pg.mjs); the two
 *                   server steps run side by side (WAYMARK_TEST_SERIAL=1: one after the other)
 *   published       what partners and generators consume (scripts/check-published.mjs): the elements'
 *                   build and npm pack, custom-elements.json against its schema, embed.md's tables, the
 *                   partner apps' typings (tsc, vue-tsc), Redocly lint, an openapi-typescript client
 *   e2e             npm run build, then Playwright in Chromium (when playwright.config.ts exists)
 *   e2e-firefox     the extension and the portal in Debian's firefox-esr (tests/firefox, after e2e's build)
 *
 * One Firebase Auth emulator (scripts/emulator.mjs) serves the server tests and the e2e tests; it and the
 * PostgreSQL cluster start in the background while lint and types run, and are stopped on exit, on
 * failure and on Ctrl-C.
 *
 *   node scripts/test.mjs                        everything
 *   node scripts/test.mjs --only unit,server     a subset (server = server-pglite,server-postgres)
 *   node scripts/test.mjs --skip e2e             everything but some steps
 *   node scripts/test.mjs --bail                 stop at the first failing step
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEmulator } from './emulator.mjs';
import { ensurePostgresBin, findPostgresBin, startPostgres } from './pg.mjs';
import { assertPinnedNode } from './runtime.mjs';

try {
  assertPinnedNode('`npm test`');
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const say = (m) => console.log(`${paint('36', '[test]')} ${m}`);

const STEPS = [
  'lint',
  'types',
  'unit',
  'server-pglite',
  'server-postgres',
  'published',
  'e2e',
  'e2e-firefox',
];
const ALIASES = {
  server: ['server-pglite', 'server-postgres'],
  pglite: ['server-pglite'],
  postgres: ['server-postgres'],
  pg: ['server-postgres'],
  dom: ['unit'],
  format: ['lint'],
  typecheck: ['types'],
  tsc: ['types'],
  playwright: ['e2e'],
  firefox: ['e2e-firefox'],
};
/** A step that runs longer than this is stopped and counted as failed (CI must stay well under 30 min). */
const LIMIT_MIN = {
  lint: 5,
  types: 5,
  unit: 8,
  'server-pglite': 12,
  'server-postgres': 12,
  build: 8,
  published: 6,
  e2e: 18,
  'e2e-firefox': 6,
};

function usage(problem) {
  if (problem) console.error(problem);
  console.log(`Usage: node scripts/test.mjs [--only STEPS] [--skip STEPS] [--bail]
Steps: ${STEPS.join(', ')} (also: server = both server steps, pglite, postgres)`);
  process.exit(problem ? 2 : 0);
}

function parseSteps(list) {
  const out = new Set();
  for (const raw of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const names = ALIASES[raw] ?? (STEPS.includes(raw) ? [raw] : null);
    if (!names) usage(`Unknown step: ${raw}`);
    for (const n of names) out.add(n);
  }
  return out;
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      only: { type: 'string' },
      skip: { type: 'string', multiple: true },
      bail: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (err) {
  usage(err.message);
}
if (parsed.help) usage();
const only = parsed.only === undefined ? null : parseSteps(parsed.only);
const skip = new Set((parsed.skip ?? []).flatMap((list) => [...parseSteps(list)]));
const bail = parsed.bail === true;
const hasE2e = existsSync(join(root, 'playwright.config.ts'));
const selected = STEPS.filter((s) => (!only || only.has(s)) && !skip.has(s));
const wants = (s) => selected.includes(s);

// ---------------------------------------------------------------------------------------------------------
// bookkeeping: results, the running child, clean-up on every way out

const results = [];
const startedAt = Date.now();
let current = null;
/** Children running beside `current` (the server steps run side by side). */
const running = new Set();
let interrupted = false;
const services = { emulator: null, postgres: null };
let cleaning = null;

async function cleanup() {
  cleaning ??= (async () => {
    const stops = [];
    for (const [name, pending] of Object.entries(services)) {
      if (!pending) continue;
      stops.push(
        pending
          .then((s) => s?.stop())
          .catch((err) => console.error(`stopping ${name}: ${err?.message ?? err}`)),
      );
    }
    await Promise.all(stops);
  })();
  return cleaning;
}

async function onSignal(signal) {
  if (interrupted) return;
  interrupted = true;
  console.error(`\n${paint('33', `[test] ${signal}: stopping`)}`);
  for (const child of running) if (child !== current && child.exitCode === null) child.kill('SIGINT');
  if (current && current.exitCode === null) {
    try {
      current.kill('SIGINT');
    } catch {
      // gone
    }
    setTimeout(() => current?.exitCode === null && current.kill('SIGKILL'), 10_000).unref();
  }
}
process.on('SIGINT', () => void onSignal('SIGINT'));
process.on('SIGTERM', () => void onSignal('SIGTERM'));
process.on('SIGHUP', () => void onSignal('SIGHUP'));

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs one command with inherited output; resolves with its exit code (null when killed). */
function run(command, args, { env = {}, limitMin, output } = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', output ? 'pipe' : 'inherit', output ? 'pipe' : 'inherit'],
      env: { ...process.env, ...(color ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }), ...env },
    });
    if (output) {
      child.stdout.on('data', (c) => output.push(c));
      child.stderr.on('data', (c) => output.push(c));
    }
    current = child;
    running.add(child);
    let timedOut = false;
    const timer = limitMin
      ? setTimeout(() => {
          timedOut = true;
          console.error(paint('31', `[test] ${command} ran longer than ${limitMin} min: stopping it`));
          child.kill('SIGTERM');
          setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 10_000).unref();
        }, limitMin * 60_000)
      : null;
    child.once('error', (err) => {
      console.error(`[test] could not run ${command}: ${err.message}`);
      done({ code: 127, timedOut });
    });
    child.once('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      running.delete(child);
      if (current === child) current = null;
      done({ code: code ?? (signal ? 128 : 1), timedOut });
    });
  });
}

/** Runs a step and records it; `body` returns a status ('passed' | 'failed' | 'skipped') and an optional note. */
async function step(name, body, output) {
  if (interrupted) {
    results.push({ name, status: 'skipped', ms: 0, note: 'interrupted' });
    return false;
  }
  const header = `\n${paint('1', `━━ ${name} ━━`)}`;
  if (!output) console.log(header);
  const t = Date.now();
  let outcome;
  try {
    outcome = await body();
    // a step run beside another prints its output whole, once it ends
    if (output) {
      console.log(header);
      process.stdout.write(Buffer.concat(output));
    }
  } catch (err) {
    console.error(paint('31', `[test] ${name}: ${err?.message ?? err}`));
    outcome = { status: 'failed', note: String(err?.message ?? err).split('\n')[0] };
  }
  const ms = Date.now() - t;
  results.push({ name, ms, ...outcome });
  say(`${name} ${outcome.status} in ${seconds(ms)}`);
  return outcome.status !== 'failed';
}

const fromExit = ({ code, timedOut }) =>
  code === 0
    ? { status: 'passed' }
    : { status: 'failed', note: timedOut ? 'timed out' : interrupted ? 'interrupted' : `exit code ${code}` };

// ---------------------------------------------------------------------------------------------------------
// prerequisites

function prerequisites() {
  const needChromium =
    wants('e2e') && hasE2e && !existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
  const needPostgres = wants('server-postgres') && !findPostgresBin();
  const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
  const needFirefox = wants('e2e-firefox') && hasE2e && !existsSync(firefoxPath);
  const missing = [
    ...(needChromium ? ['chromium'] : []),
    ...(needFirefox ? ['firefox-esr'] : []),
    ...(needPostgres ? ['postgresql'] : []),
  ];
  if (!missing.length) return { ok: true, missing };
  const canInstall = isRoot && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
  if (canInstall) {
    say(`installing ${missing.join(' and ')} with apt-get`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const install = () =>
      spawnSync('apt-get', ['install', '-y', ...missing], { stdio: 'inherit', env }).status;
    if (install() !== 0) {
      spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
      install();
    }
  }
  const still = [
    ...(needChromium && !existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') ? ['chromium'] : []),
    ...(needFirefox && !existsSync(firefoxPath) ? ['firefox-esr'] : []),
    ...(needPostgres && !findPostgresBin() ? ['postgresql'] : []),
  ];
  if (still.length) {
    console.error(
      paint(
        '31',
        `[test] Missing: ${still.join(', ')}. Install ${still.length > 1 ? 'them' : 'it'}: sudo apt-get install -y ${still.join(' ')}` +
          (still.includes('chromium') ? ' (or set CHROMIUM_PATH to a Chromium binary)' : '') +
          (still.includes('firefox-esr') ? ' (or set FIREFOX_PATH to a Firefox binary)' : '') +
          (still.includes('postgresql')
            ? ' (or set PG_BIN to the folder holding initdb and postgres, version 15+)'
            : ''),
      ),
    );
  }
  return { ok: still.length === 0, missing: still };
}

/** npm run build, once for the end-to-end steps (both serve and install what it builds); whether it built. */
let building = null;
function buildOnce() {
  building ??= (async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    if (!pkg.scripts?.build) return true;
    say('building what the server serves (npm run build)');
    const t = Date.now();
    const built = await run('npm', ['run', 'build'], { limitMin: LIMIT_MIN.build });
    say(`build ${built.code === 0 ? 'done' : 'failed'} in ${seconds(Date.now() - t)}`);
    return built.code === 0;
  })();
  return building;
}

// ---------------------------------------------------------------------------------------------------------

/**
 * The steps that cannot run for a missing prerequisite (returned), and the services the selected steps
 * need, started in the background while lint, types and unit tests run (the unit step needs the Auth
 * emulator too: the CLI's test against a real server).
 */
function startServices() {
  const pre = prerequisites();
  const blocked = new Set();
  if (pre.missing.includes('chromium')) blocked.add('e2e');
  if (pre.missing.includes('firefox-esr')) blocked.add('e2e-firefox');
  if (pre.missing.includes('postgresql')) blocked.add('server-postgres');
  const needsEmulator =
    wants('unit') ||
    wants('server-pglite') ||
    wants('server-postgres') ||
    ((wants('e2e') || wants('e2e-firefox')) && hasE2e);
  if (needsEmulator) {
    services.emulator = startEmulator({ projectId: 'demo-waymark', log: say });
    services.emulator.catch(() => undefined);
  }
  if (wants('server-postgres') && !blocked.has('server-postgres')) {
    services.postgres = startPostgres({
      database: 'waymark_test',
      binDir: ensurePostgresBin({ install: false }),
      log: say,
    });
    services.postgres.catch(() => undefined);
  }
  return blocked;
}

async function main() {
  say(
    `steps: ${selected.join(', ') || '(none)'}${!hasE2e && wants('e2e') ? ' (no playwright.config.ts: e2e skipped)' : ''}`,
  );
  const blocked = startServices();

  const steps = {
    lint: async () => {
      const biome = fromExit(await run(bin('biome'), ['check', '.'], { limitMin: LIMIT_MIN.lint }));
      if (biome.status === 'failed') return biome;
      // dead code: files, exports and dependencies nothing uses (knip.jsonc names the entry points)
      const knip = fromExit(await run(bin('knip'), ['--no-progress'], { limitMin: LIMIT_MIN.lint }));
      return knip.status === 'failed' ? { ...knip, note: `knip: ${knip.note}` } : knip;
    },
    types: () =>
      run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], { limitMin: LIMIT_MIN.types }).then(fromExit),
    unit: async () => {
      const emulator = await services.emulator;
      const env = { FIREBASE_AUTH_EMULATOR_HOST: emulator.host };
      return fromExit(
        await run(bin('vitest'), ['run', '--project', 'unit', '--project', 'dom'], {
          env,
          limitMin: LIMIT_MIN.unit,
        }),
      );
    },
    'server-pglite': async (output) => {
      const emulator = await services.emulator;
      const env = { TEST_DB: 'pglite', TEST_DATABASE_URL: '', FIREBASE_AUTH_EMULATOR_HOST: emulator.host };
      return fromExit(
        await run(bin('vitest'), ['run', '--project', 'server'], {
          env,
          limitMin: LIMIT_MIN['server-pglite'],
          output,
        }),
      );
    },
    'server-postgres': async (output) => {
      if (blocked.has('server-postgres')) return { status: 'failed', note: 'postgresql is not installed' };
      const [emulator, pg] = await Promise.all([services.emulator, services.postgres]);
      const env = {
        TEST_DB: 'postgres',
        TEST_DATABASE_URL: pg.url,
        FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      };
      return fromExit(
        await run(bin('vitest'), ['run', '--project', 'server'], {
          env,
          limitMin: LIMIT_MIN['server-postgres'],
          output,
        }),
      );
    },
    published: () =>
      run(process.execPath, ['scripts/check-published.mjs'], { limitMin: LIMIT_MIN.published }).then(
        fromExit,
      ),
    e2e: async () => {
      if (!hasE2e) return { status: 'skipped', note: 'no playwright.config.ts' };
      if (blocked.has('e2e')) return { status: 'failed', note: 'chromium is not installed' };
      if (!(await buildOnce())) return { status: 'failed', note: 'npm run build failed' };
      const emulator = await services.emulator;
      return fromExit(
        await run(bin('playwright'), ['test'], {
          env: { WAYMARK_E2E_EMULATOR_HOST: emulator.host },
          limitMin: LIMIT_MIN.e2e,
        }),
      );
    },
  };

  steps['e2e-firefox'] = async () => {
    if (!hasE2e) return { status: 'skipped', note: 'no playwright.config.ts' };
    if (blocked.has('e2e-firefox')) return { status: 'failed', note: 'firefox-esr is not installed' };
    if (!(await buildOnce())) return { status: 'failed', note: 'npm run build failed' };
    const emulator = await services.emulator;
    const args = ['run', '--config', 'tests/firefox/vitest.config.ts'];
    const env = { WAYMARK_E2E_EMULATOR_HOST: emulator.host };
    return fromExit(await run(bin('vitest'), args, { env, limitMin: LIMIT_MIN['e2e-firefox'] }));
  };

  // the server suite on PGlite and on PostgreSQL run side by side (each file waits on the Auth emulator and
  // its database much of the time, so two runs share the two cores well: CI stays under 30 minutes);
  // WAYMARK_TEST_SERIAL=1 runs them one after the other, their output as it comes
  const side = !process.env.WAYMARK_TEST_SERIAL && !bail;
  const pair = ['server-pglite', 'server-postgres'];
  for (const name of selected) {
    if (side && name === 'server-postgres' && selected.includes('server-pglite')) continue;
    if (side && name === 'server-pglite' && selected.includes('server-postgres')) {
      say(
        'the server suite runs on PGlite and on PostgreSQL side by side; each prints its output when it ends',
      );
      await Promise.all(
        pair.map((n) => {
          const output = [];
          return step(n, () => steps[n](output), output);
        }),
      );
      continue;
    }
    const passed = await step(name, steps[name]);
    if (!passed && bail) break;
  }
}

function summary() {
  const width = Math.max(...results.map((r) => r.name.length), 8);
  console.log(`\n${paint('1', '━━ summary ━━')}`);
  for (const r of results) {
    const mark =
      r.status === 'passed' ? paint('32', '✓') : r.status === 'skipped' ? paint('33', '-') : paint('31', '✗');
    console.log(
      `${mark} ${r.name.padEnd(width)}  ${r.status.padEnd(7)}  ${seconds(r.ms).padStart(8)}${r.note ? `  ${r.note}` : ''}`,
    );
  }
  const failed = results.filter((r) => r.status === 'failed');
  console.log(
    `${failed.length ? paint('31', `${failed.length} step(s) failed`) : paint('32', 'all steps passed')} in ${seconds(Date.now() - startedAt)}`,
  );
  return failed.length > 0 || interrupted;
}

let exitCode = 0;
try {
  await main();
} catch (err) {
  console.error(paint('31', `[test] ${err?.stack ?? err}`));
  exitCode = 1;
} finally {
  await cleanup();
}
if (summary()) exitCode = interrupted ? 130 : 1;
process.exit(exitCode);
