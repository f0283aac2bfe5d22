/**
 * `npx tsx bench/import.ts [--questions 10000] [--runs 5]` — docs/PERFORMANCE.md's figures:
 *
 * 1. `waymark questions import` of a Moodle GIFT bank of 10,000 questions into PostgreSQL through the real
 *    server (its own process, NODE_ENV=production), timed with the CLI's peak memory (`/usr/bin/time`,
 *    maximum RSS); then the same file again (every question `unchanged`). Beside it, in the same run, the
 *    baseline: the same rows (a question, its options and its source, one transaction each, 4 at a time)
 *    written straight to the same PostgreSQL with no HTTP, no CLI and no checks.
 * 2. Start-up: `waymark --help` and `waymark whoami` (against the server, WAYMARK_TOKEN) with the compiled
 *    CLI (dist/cli, built here first when older than its sources), beside a bare `node -e 0` measured in the same minutes. The
 *    median wall time and the largest peak RSS of --runs runs each.
 *
 * It starts a throwaway PostgreSQL (scripts/pg.mjs) and the server, prints the machine and `uptime`'s load
 * before and after, and stops everything. Targets: import ≤ 60 s and ≤ 150 MB; --help ≤ 150 ms and ≤ 80 MB;
 * whoami ≤ 300 ms.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { TokenService } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { rowsOf } from '../server/db/helpers';
import { defaultLanguageFor } from '../server/questions/load';
import { benchStack, ensureCliBuilt, machineLine, waymarkBin } from './support/cli';
import { serverEnv, startServer } from './support/server';

const { values: args } = parseArgs({
  options: {
    questions: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'npx tsx bench/import.ts [--questions 10000] [--runs 5]   (builds dist/cli first when it is stale)',
  );
  process.exit(0);
}
const N = Number(args.questions);
const RUNS = Number(args.runs);
const bin = waymarkBin;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const log = (s: string) => console.error(`· ${s}`);

/** One timed process: wall seconds and peak RSS in MB (GNU time's %M, in KiB). */
function timed(argv: string[], env: NodeJS.ProcessEnv) {
  const t = performance.now();
  const res = spawnSync('/usr/bin/time', ['-f', '%M', ...argv], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const wall = (performance.now() - t) / 1000;
  const lines = res.stderr.trim().split('\n');
  const rssMb = Number(lines.at(-1)) / 1024;
  return { wall, rssMb, status: res.status, stdout: res.stdout, stderr: lines.slice(0, -1).join('\n') };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function giftBank(n: number) {
  const lines = ['$CATEGORY: $course$/top/Programming/JavaScript', ''];
  for (let i = 1; i <= n; i++)
    lines.push(
      `// [id:bench-${i}] [tag:bench]`,
      `::q${i}::Bench question ${i}: which keyword declares a constant?{=const ~let ~var####Question ${i}: const cannot be reassigned.}`,
      '',
    );
  return `${lines.join('\n')}\n`;
}

async function main() {
  ensureCliBuilt(log);
  const stack = await benchStack('import');
  const { pg, dataDir } = stack;
  const { db } = stack.database;
  console.log(machineLine());
  try {
    const [subject] = rowsOf<{ sid: string; tid: string }>(
      await db.execute(sql`select s.id as sid, t.id as tid from subjects s join topics t on t.subject_id = s.id
        where s.name = 'Programming' and t.name = 'JavaScript'`),
    );
    const authors = rowsOf<{ id: string }>(
      await db.execute(sql`
        insert into users (firebase_uid, email, email_verified, role, name, is_first_login, is_profile_completed)
        values ('bench-author', 'author@bench.local', true, 'TENANT', 'Bench Author', false, true),
               ('bench-baseline', 'baseline@bench.local', true, 'TENANT', 'Baseline Author', false, true)
        returning id`),
    );
    const env = await serverEnv({ databaseUrl: pg.url, dataDir });
    const tokens = new TokenService(db, loadConfig({ ...env, NODE_ENV: 'test' }));
    const token = (await tokens.issue({ id: authors[0]!.id, role: 'TENANT' }, 'CLI')).token;
    const server = await startServer(env);
    stack.server = server;
    const base = server.url;
    const file = join(dataDir, 'bank.gift');
    writeFileSync(file, giftBank(N));
    const cliEnv = {
      PATH: process.env.PATH ?? '',
      HOME: dataDir,
      XDG_CONFIG_HOME: join(dataDir, 'config'),
      WAYMARK_TOKEN: token,
    };

    // ---- the baseline: the same rows straight into PostgreSQL, one transaction a question, 4 at a time
    log(`baseline: ${N} questions straight into PostgreSQL …`);
    const baselineAuthor = authors[1]!.id;
    // the language the server gives an author's first import (server/questions/load.ts defaultLanguageFor)
    const language = await defaultLanguageFor(db, baselineAuthor);
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < N) {
          const i = ++next;
          await db.transaction(async (tx) => {
            const [q] = rowsOf<{ id: string }>(
              await tx.execute(sql`insert into questions (question, question_type, points, subject_id, topic_id, language_id, explanation, tags, status, created_by)
                values (${`Bench question ${i}: which keyword declares a constant?`}, 'MCQ', 10, ${subject!.sid}, ${subject!.tid}, ${language},
                  ${JSON.stringify([{ type: 'TEXT', value: `Question ${i}: const cannot be reassigned.` }])}::jsonb, ${'{bench}'}::text[], 'PUBLISH', ${baselineAuthor})
                returning id`),
            );
            await tx.execute(sql`insert into question_options (question_id, value, is_correct, position)
              values (${q!.id}, 'const', true, 0), (${q!.id}, 'let', false, 1), (${q!.id}, 'var', false, 2)`);
            await tx.execute(sql`insert into question_import_sources (author_id, source_key, question_id, fingerprint)
              values (${baselineAuthor}, ${`bench-${i}`}, ${q!.id}, ${'0'.repeat(64)})`);
          });
        }
      }),
    );
    const baselineS = (performance.now() - t0) / 1000;

    // ---- the CLI through the server
    log(`waymark questions import: ${N} GIFT questions …`);
    const first = timed([process.execPath, bin, '--server', base, 'questions', 'import', file], cliEnv);
    const firstSummary = JSON.parse(first.stdout.trim().split('\n').at(-1) ?? '{}');
    if (first.status !== 0 || firstSummary.created !== N)
      throw new Error(`the import did not create ${N}: exit ${first.status} ${first.stderr.slice(-500)}`);
    log('the same file again …');
    const again = timed([process.execPath, bin, '--server', base, 'questions', 'import', file], cliEnv);
    const againSummary = JSON.parse(again.stdout.trim().split('\n').at(-1) ?? '{}');
    if (againSummary.unchanged !== N) throw new Error(`the re-run did not say unchanged for ${N}`);
    const [count] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from questions where created_by = ${authors[0]!.id}`),
    );

    // ---- start-up
    log(`start-up, ${RUNS} runs each …`);
    const startup: Record<string, { wall: number[]; rss: number[] }> = {
      'node -e 0 (baseline)': { wall: [], rss: [] },
      'waymark --help': { wall: [], rss: [] },
      'waymark whoami': { wall: [], rss: [] },
    };
    for (let r = 0; r < RUNS; r++) {
      for (const [name, argv] of [
        ['node -e 0 (baseline)', [process.execPath, '-e', '0']],
        ['waymark --help', [process.execPath, bin, '--help']],
        ['waymark whoami', [process.execPath, bin, '--server', base, 'whoami']],
      ] as const) {
        const m = timed([...argv], cliEnv);
        if (m.status !== 0) throw new Error(`${name} exited ${m.status}: ${m.stderr}`);
        startup[name]!.wall.push(m.wall);
        startup[name]!.rss.push(m.rssMb);
      }
    }
    const nodeWall = median(startup['node -e 0 (baseline)']!.wall);

    console.log(`\nimport of ${N} GIFT questions into PostgreSQL (questions stored: ${count!.n})`);
    console.log('| run | wall | × baseline | CLI peak RSS |');
    console.log('|---|---:|---:|---:|');
    console.log(`| baseline: the same rows, SQL only, 4 at a time | ${baselineS.toFixed(1)} s | 1.0× | — |`);
    console.log(
      `| waymark questions import (created ${firstSummary.created}) | ${first.wall.toFixed(1)} s | ${(first.wall / baselineS).toFixed(1)}× | ${first.rssMb.toFixed(0)} MB |`,
    );
    console.log(
      `| the same file again (unchanged ${againSummary.unchanged}) | ${again.wall.toFixed(1)} s | ${(again.wall / baselineS).toFixed(1)}× | ${again.rssMb.toFixed(0)} MB |`,
    );
    console.log(`\nstart-up, median of ${RUNS} (peak RSS: the largest)`);
    console.log('| command | wall | × node -e 0 | peak RSS |');
    console.log('|---|---:|---:|---:|');
    for (const [name, m] of Object.entries(startup))
      console.log(
        `| ${name} | ${(median(m.wall) * 1000).toFixed(0)} ms | ${(median(m.wall) / nodeWall).toFixed(1)}× | ${Math.max(...m.rss).toFixed(0)} MB |`,
      );
    console.log(`\nload after: ${load()}`);
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
