/**
 * The arrival rate a server sustains for the exam's start (issue 25 item 7): waves of takers arriving at a
 * steady rate, each as a browser does — a connection of its own, the Ready page, then the start on it —
 * and nothing else on the server. A wave holds when the Ready page's and the start's p99 (the first
 * including the connection's set-up and accept) are within the bound, none shed and none failed. A short
 * wave first warms the server (not counted). The rate doubles while waves hold, then halves the gap between
 * the last that held and the first that did not; a wave that does not hold is sent once more at the same
 * rate before the rate counts as too much (on a shared machine one stall of another process's making
 * fails a wave). Every wave has at least `minTakers`, so its p99 is not its one slowest taker.
 *
 * Beside it, the CPU one arriving taker costs (Ready + start): the server processes and PostgreSQL (every
 * process of the cluster: backends, and background work such as autovacuum landing in the wave), per
 * taker, from /proc — a figure that holds from one host to the next where latencies do not: a host whose
 * free cores give C CPU-ms a second carries about C / (that figure) arrivals a second.
 */
import { performance } from 'node:perf_hooks';
import { attemptHeaders, newAttemptToken } from '@shared/rules/attempt-token';
import { latency, round1, round2, sleep } from './figures';
import { LeanAgent } from './lean-http';

export interface SearchTaker {
  linkId: string;
  token: string;
}

export interface ArrivalSearchOptions {
  base: string;
  /** Takers with links of their own, never opened (each wave takes the next ones). */
  takers: SearchTaker[];
  /** Each wave's length (s). */
  waveSeconds: number;
  /** The first wave's rate (takers a second). */
  startRate: number;
  /** The p99 a wave must keep, Ready page and start each (ms). */
  boundMs: number;
  /** Waves at most (the warm-up and repeats included). */
  waves: number;
  /** Takers a wave has at least (200): it then lasts longer than `waveSeconds` at low rates. */
  minTakers?: number;
  anonymous?: boolean;
  measure?: (name: string) => Promise<(requests: number) => Promise<Record<string, unknown>>>;
  log?: (line: string) => void;
}

export interface Wave {
  rate: number;
  takers: number;
  ready: ReturnType<typeof latency>;
  start: ReturnType<typeof latency>;
  shed: number;
  failed: number;
  held: boolean;
  /** CPU ms per arriving taker: server processes, PostgreSQL, this process (the load generator). */
  cpu: { serverMs: number | null; postgresMs: number | null; benchMs: number } | null;
}

export interface ArrivalSearch {
  boundMs: number;
  waves: Wave[];
  /** The highest rate whose wave held (takers a second); null when none did. */
  sustained: number | null;
  /** CPU ms per arriving taker (Ready + start): every wave that held, its CPU over its takers together. */
  cpuPerTaker: { serverMs: number | null; postgresMs: number | null; benchMs: number | null } | null;
}

/** One taker as the test page is: its own connection, the Ready page, then the start; each request timed. */
async function arrive(o: ArrivalSearchOptions, t: SearchTaker) {
  const agent = new LeanAgent(o.base, { connections: 1, timeoutMs: 60_000 });
  const auth = o.anonymous ? '' : `authorization: Bearer ${t.token}\r\n`;
  const out = { ready: Number.NaN, start: Number.NaN, shed: 0, failed: 0 };
  try {
    let t0 = performance.now();
    const ready = await agent.request('GET', `/testlink/assessment/${t.linkId}`, auth);
    out.ready = performance.now() - t0;
    if (ready.status !== 200) {
      if (ready.status === 503) out.shed++;
      else out.failed++;
      return out;
    }
    const attempt = Object.entries(attemptHeaders(newAttemptToken()))
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    t0 = performance.now();
    const started = await agent.request('PUT', `/testlink/verify/${t.linkId}`, auth + attempt);
    out.start = performance.now() - t0;
    if (started.status === 503) out.shed++;
    else if (started.status !== 200) out.failed++;
  } catch {
    out.failed++;
  } finally {
    await agent.close();
  }
  return out;
}

/** One wave: `count` takers, one every 1/rate s, all timed; its CPU measured around it. */
async function wave(o: ArrivalSearchOptions, takers: SearchTaker[], rate: number): Promise<Wave> {
  const stop = await o.measure?.(`arrival ${rate}/s`);
  const t0 = performance.now();
  const runs = takers.map(async (t, i) => {
    const at = t0 + (i * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 0) await sleep(wait);
    return arrive(o, t);
  });
  const results = await Promise.all(runs);
  const cpu = (await stop?.(takers.length)) as Wave['cpu'] | undefined;
  const ok = (k: 'ready' | 'start') => results.map((r) => r[k]).filter((v) => Number.isFinite(v));
  const ready = latency(ok('ready'));
  const start = latency(ok('start'));
  const shed = results.reduce((s, r) => s + r.shed, 0);
  const failed = results.reduce((s, r) => s + r.failed, 0);
  return {
    rate,
    takers: takers.length,
    ready,
    start,
    shed,
    failed,
    held: shed === 0 && failed === 0 && ready.p99 <= o.boundMs && start.p99 <= o.boundMs,
    cpu: cpu
      ? { serverMs: cpu.serverMs ?? null, postgresMs: cpu.postgresMs ?? null, benchMs: cpu.benchMs }
      : null,
  };
}

export async function searchArrival(o: ArrivalSearchOptions): Promise<ArrivalSearch> {
  const waves: Wave[] = [];
  let next = 0;
  const take = (count: number) => {
    if (next + count > o.takers.length) return null;
    next += count;
    return o.takers.slice(next - count, next);
  };
  // the server's first connections, statements and compiled code: not counted
  const warm = take(Math.min(50, Math.round(o.startRate * o.waveSeconds)));
  if (warm) await wave(o, warm, o.startRate);
  await sleep(2000);
  let rate = o.startRate;
  let held: number | null = null;
  let failed: number | null = null;
  let retried = false;
  for (let w = 0; w < o.waves; w++) {
    const count = Math.max(o.minTakers ?? 200, Math.round(rate * o.waveSeconds));
    const takers = take(count);
    if (!takers) {
      o.log?.(
        `  arrival search: ${o.takers.length - next} takers left, ${count} needed for ${rate}/s: stopping`,
      );
      break;
    }
    const result = await wave(o, takers, rate);
    waves.push(result);
    o.log?.(
      `  ${rate}/s × ${round1(count / rate)} s: Ready p99 ${result.ready.p99} ms, start p99 ${result.start.p99} ms, ${result.shed} shed, ${result.failed} failed — ${result.held ? 'held' : 'did not hold'}`,
    );
    await sleep(2000);
    if (!result.held && !retried) {
      // once more at the same rate before it counts
      retried = true;
      continue;
    }
    retried = false;
    if (result.held) held = Math.max(held ?? 0, rate);
    else failed = Math.min(failed ?? Number.POSITIVE_INFINITY, rate);
    if (held !== null && failed !== null && failed / held <= 1.1) break;
    // doubling until a wave fails, then halving the gap
    const nextRate = failed === null ? rate * 2 : held === null ? rate / 2 : (held + failed) / 2;
    rate = Math.max(1, Math.round(nextRate));
  }
  const good = waves.filter((w) => w.held && w.cpu);
  const weighed = (key: 'serverMs' | 'postgresMs' | 'benchMs') => {
    if (!good.length || good.some((w) => w.cpu![key] === null)) return null;
    const n = good.reduce((s, w) => s + w.takers, 0);
    return round2(good.reduce((s, w) => s + (w.cpu![key] as number) * w.takers, 0) / n);
  };
  return {
    boundMs: o.boundMs,
    waves,
    sustained: held,
    cpuPerTaker: good.length
      ? { serverMs: weighed('serverMs'), postgresMs: weighed('postgresMs'), benchMs: weighed('benchMs') }
      : null,
  };
}

/** The search's lines for the bench's printout. */
export function searchLines(s: ArrivalSearch, cores: number): string[] {
  const lines = [
    `arrival search (each taker: its own connection, the Ready page, the start; a wave holds with both p99 ≤ ${s.boundMs} ms, none shed or failed):`,
  ];
  for (const w of s.waves)
    lines.push(
      `  ${String(w.rate).padStart(5)}/s, ${String(w.takers).padStart(5)} takers: Ready p50 ${w.ready.p50} p99 ${w.ready.p99} ms · start p50 ${w.start.p50} p99 ${w.start.p99} ms · shed ${w.shed} · failed ${w.failed} · CPU ms/taker ${w.cpu ? `${w.cpu.serverMs ?? '?'} srv · ${w.cpu.postgresMs ?? '?'} pg · ${w.cpu.benchMs} bench` : '?'} — ${w.held ? 'held' : 'did not hold'}`,
    );
  lines.push(
    `sustained arrival rate: ${s.sustained === null ? 'none of the waves held' : `${s.sustained} takers/s`} with Ready/start p99 ≤ ${s.boundMs} ms`,
  );
  const c = s.cpuPerTaker;
  if (c && c.serverMs !== null && c.postgresMs !== null) {
    const both = c.serverMs + c.postgresMs;
    lines.push(
      `CPU per arriving taker (Ready + start, the waves that held): ${c.serverMs} ms server + ${c.postgresMs} ms PostgreSQL = ${round1(both)} ms (load generator ${c.benchMs} ms, not counted): ${cores} free cores would carry about ${Math.round((cores * 1000) / both)} arrivals/s`,
    );
  }
  return lines;
}
