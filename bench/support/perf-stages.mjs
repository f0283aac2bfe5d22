#!/usr/bin/env node
/**
 * Where PostgreSQL's backends spent a phase, by executor stage: reads a `perf record -g` file (bench/exam-day
 * --perf writes one per phase) through `perf script`, takes the samples of the `postgres` processes and
 * counts each under the first stage found on its stack (planning, executor start, the statement's own
 * parts, commit, the socket), printing the shares.
 *
 *   node bench/support/perf-stages.mjs .tmp/bench-profiles/exam-day/submit.perf.data
 */
import { spawnSync } from 'node:child_process';

const file = process.argv[2];
if (!file) {
  console.error('usage: node bench/support/perf-stages.mjs FILE.perf.data');
  process.exit(2);
}
const out = spawnSync('perf', ['script', '-i', file, '--comm', 'postgres'], {
  encoding: 'utf8',
  maxBuffer: 1 << 30,
});
if (out.status !== 0) {
  console.error(out.stderr);
  process.exit(1);
}

// the first of these found on a sample's stack, from the top of this list, names its stage
const STAGES = [
  ['planning', 'pg_plan_queries'],
  ['planning', 'GetCachedPlan'],
  ['page pruning', 'heap_page_prune_opt'],
  ['subquery run as an index key (the CTE checks)', 'ExecIndexEvalRuntimeKeys'],
  ['json_to_recordset (the answers)', 'ExecMakeTableFunctionResult'],
  ['conflict checks (upsert)', 'ExecCheckIndexConstraints'],
  ['index inserts', 'ExecInsertIndexTuples'],
  ['heap update', 'heap_update'],
  ['heap insert', 'heap_insert'],
  ['triggers (foreign keys)', 'ExecARUpdateTriggers'],
  ['triggers (foreign keys)', 'AfterTriggerEndQuery'],
  ['executor start', 'standard_ExecutorStart'],
  ['executor end', 'standard_ExecutorEnd'],
  ['executor finish', 'standard_ExecutorFinish'],
  ['executor run (the rest)', 'standard_ExecutorRun'],
  ['commit', 'CommitTransactionCommand'],
  ['bind', 'exec_bind_message'],
  ['parse', 'exec_parse_message'],
  ['reading the socket', 'pq_getbyte'],
  ['other system calls', 'do_syscall_64'],
  ['WAL writer', 'WalWriterMain'],
  ['autovacuum', 'AutoVacWorkerMain'],
];

const counts = new Map();
let samples = 0;
const count = (stack) => {
  if (!stack.length) return;
  samples++;
  const found = STAGES.find(([, fn]) => stack.includes(fn));
  const stage = found ? found[0] : 'other';
  counts.set(stage, (counts.get(stage) ?? 0) + 1);
};
let stack = [];
for (const line of out.stdout.split('\n')) {
  if (!line.trim()) {
    count(stack);
    stack = [];
  } else if (/^\s/.test(line)) {
    const sym = /^\s*[0-9a-f]+\s+(\S+)/.exec(line)?.[1];
    if (sym) stack.push(sym.split('+')[0]);
  }
}
count(stack);
console.log(`${samples} samples of postgres in ${file}`);
for (const [stage, n] of [...counts].sort((a, b) => b[1] - a[1])) {
  console.log(`${((n * 100) / samples).toFixed(1).padStart(5)} %  ${stage}`);
}
