/**
 * `npx tsx bench/seats.ts [--lines 10000] [--short 9] [--terminal]` — docs/PERFORMANCE.md's "Seat roster" figures:
 * `waymark seats import <roster> --dry-run`, then the same roster for real, against the real server (its
 * own process, NODE_ENV=production) on a throwaway PostgreSQL (scripts/pg.mjs), each run timed (wall) as
 * one process of the compiled CLI (dist/cli, built here first when older than its sources).
 *
 * The roster is the issue's: 62 % of the lines name learner accounts that are not the mentor's seats yet,
 * then 38 % name addresses with no account at all. The mentor is subscribed for `--short` seats fewer than
 * those learners, so the real run adds learners until every seat is taken and stops there. For each run
 * it prints the wall time and the purchase advice (`seatsToBuy` of the summary event); after the real run,
 * the seats it really needed, read from the database (the roster's learners that are not seats), and the
 * dry run once more, now that most of the roster are the mentor's seats (as a mentor checks a roster again).
 *
 * It prints the machine and `uptime`'s load before and after, and stops everything. Expected: the dry run
 * no slower than the real run, and both runs' advice equal to the seats really needed.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { TokenService } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { rowsOf } from '../server/db/helpers';
import { FREE_SEATS } from '../shared/rules/seats';
import { benchStack, ensureCliBuilt, machineLine, waymarkBin } from './support/cli';
import { helpOnRequest, loadNow, progressLog, runBench } from './support/figures';
import { serverEnv, startServer } from './support/server';

const { values: args } = parseArgs({
  options: {
    lines: { type: 'string', default: '10000' },
    short: { type: 'string', default: '9' },
    terminal: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
helpOnRequest(args.help, import.meta.url);
const LINES = Number(args.lines);
const LEARNERS = Math.round(LINES * 0.6209);
const SHORT = Number(args.short);
const bin = waymarkBin;
const log = progressLog();

const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/**
 * One run of the CLI: wall seconds, exit status and the advice — `seatsToBuy` of the summary event
 * (--json), or with --terminal (the CLI at a terminal: util-linux `script` gives it one) the number in its
 * "Buy N … for the …".
 */
function run(argv: string[], env: NodeJS.ProcessEnv) {
  const t = performance.now();
  const res = args.terminal
    ? // a terminal of 40 rows and 120 columns (the pty `script` opens has none: Ink would redraw everything)
      spawnSync(
        'script',
        [
          '-qefc',
          `stty rows 40 cols 120; exec ${[process.execPath, bin, ...argv].map(quote).join(' ')}`,
          '/dev/null',
        ],
        {
          env,
          encoding: 'utf8',
          maxBuffer: 1 << 30,
        },
      )
    : spawnSync(process.execPath, [bin, '--json', ...argv], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (performance.now() - t) / 1000;
  if (args.terminal) {
    // the learners' advice ("buy 9 for the 9 learners who would not fit", "Buy 9 seats for the 9 not
    // added"), not the invitations' line after it
    const buy = /[Bb]uy (\d+) (?:seats? )?for the /.exec(res.stdout);
    return { wall, status: res.status, seatsToBuy: buy ? Number(buy[1]) : undefined };
  }
  const events = res.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const summary = events.findLast((e) => e.event === 'summary') ?? {};
  return { wall, status: res.status, seatsToBuy: summary.seatsToBuy as number | undefined };
}

async function main() {
  ensureCliBuilt(log);
  const stack = await benchStack('seats');
  const { pg, dataDir } = stack;
  const { db } = stack.database;
  console.log(machineLine());
  try {
    const [tenant] = rowsOf<{ id: string }>(
      await db.execute(sql`
        insert into users (firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
        values ('bench-mentor', 'mentor@bench.local', true, 'TENANT', 'Bench Mentor', false, true)
        returning id`),
    );
    await db.execute(sql`
      insert into users (firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
      select 'bench-learner-' || i, 'learner-' || i || '@bench.local', true, 'USER', 'Learner ' || i, false, true
      from generate_series(1, ${LEARNERS}) i`);
    // subscribed for SHORT seats fewer than the roster's learners
    const paid = LEARNERS - SHORT - FREE_SEATS;
    const now = new Date();
    await db.execute(sql`
      insert into billing_subscriptions (tenant_id, provider, subscription_id, status, quantity, price_id,
        unit_amount, currency, period_type, start_date, current_period_start, current_period_end)
      values (${tenant!.id}, 'sandbox', 'sub_bench', 'ACTIVE', ${paid}, 'price_bench', 90000, 'inr', 'year',
        ${now.toISOString()}, ${now.toISOString()}, ${new Date(now.getTime() + 300 * 86_400_000).toISOString()})`);
    await db.execute(sql`analyze`);
    const env = await serverEnv({ databaseUrl: pg.url, dataDir });
    const tokens = new TokenService(db, loadConfig({ ...env, NODE_ENV: 'test' }));
    const token = (await tokens.issue({ id: tenant!.id, role: 'TENANT' }, 'CLI')).token;
    const server = await startServer(env);
    stack.server = server;
    const roster = join(dataDir, 'roster.csv');
    writeFileSync(
      roster,
      [
        'name,email',
        ...Array.from({ length: LEARNERS }, (_, i) => `Learner ${i + 1},learner-${i + 1}@bench.local`),
        ...Array.from(
          { length: LINES - LEARNERS },
          (_, i) => `Newcomer ${i + 1},newcomer-${i + 1}@bench.local`,
        ),
      ].join('\n'),
    );
    const cliEnv = {
      PATH: process.env.PATH ?? '',
      HOME: dataDir,
      XDG_CONFIG_HOME: join(dataDir, 'config'),
      WAYMARK_TOKEN: token,
    };
    const argv = ['--server', server.url, 'seats', 'import', roster];

    log(`waymark seats import --dry-run: ${LINES} lines …`);
    const dry = run([...argv, '--dry-run'], cliEnv);
    log(`waymark seats import: ${LINES} lines …`);
    const real = run(argv, cliEnv);
    log('the dry run again, the seats now held …');
    const again = run([...argv, '--dry-run'], cliEnv);
    const [seats] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from tenant_users where tenant_id = ${tenant!.id}`),
    );
    const needed = LEARNERS - seats!.n;

    const advice = (r: { seatsToBuy: number | undefined }) =>
      r.seatsToBuy === undefined ? '—' : String(r.seatsToBuy);
    console.log(
      `\n${LINES}-line roster${args.terminal ? ', at a terminal' : ', --json'}: ${LEARNERS} learner accounts, then ${LINES - LEARNERS} addresses with no account; seats for ${LEARNERS - SHORT}`,
    );
    console.log('| run | wall | exit | advice (seatsToBuy) |');
    console.log('|---|---:|---:|---:|');
    console.log(`| \`seats import --dry-run\` | ${dry.wall.toFixed(1)} s | ${dry.status} | ${advice(dry)} |`);
    console.log(
      `| \`seats import\` (added ${LEARNERS - needed}) | ${real.wall.toFixed(1)} s | ${real.status} | ${advice(real)} |`,
    );
    console.log(
      `| \`seats import --dry-run\` again, after it | ${again.wall.toFixed(1)} s | ${again.status} | ${advice(again)} |`,
    );
    console.log(`\nseats the real run needed (learners of the roster not seated): ${needed}`);
    console.log(`dry run ÷ real run: ${(dry.wall / real.wall).toFixed(2)}`);
    console.log(`\nload after: ${loadNow()}`);
  } finally {
    await stack.stop();
  }
}

runBench(main);
