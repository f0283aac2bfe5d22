/**
 * The catalogue list kept serialized (list-cache.ts): the same bytes for the same filter within the time
 * it is kept, gzip for clients that accept it, an ETag answered with 304, the signed-in list still
 * refusing a caller without a token, and nothing kept under NODE_ENV=test (where every other test
 * changes the catalogue between calls).
 */
import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roadmapTests } from '../assessments/roadmap-tests';
import { installAuthentication } from '../auth/current-user';
import { installErrorHandling } from '../http/errors';
import { buildFixture, type Fixture } from '../test/fixtures/catalogue';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';
import { cacheKey, ListCache } from './list-cache';
import { catalogueRoutes } from './routes';
import { roadmaps } from './tables';

describe('ListCache', () => {
  it('keeps a list fresh for its time, then as expired for as long again, then forgets it', () => {
    let now = 1_000;
    const cache = new ListCache(30_000, () => now);
    cache.set('subject=x', '{"data":[]}');
    now += 29_999;
    expect(cache.get('subject=x')?.json.toString()).toBe('{"data":[]}');
    now += 1;
    expect(cache.get('subject=x')).toBeNull();
    expect(cache.stale('subject=x')?.json.toString()).toBe('{"data":[]}');
    now += 30_000;
    expect(cache.stale('subject=x')).toBeNull();
  });

  it('has one refresh of a filter under way at a time, and lets its waiters go when it ends', async () => {
    const cache = new ListCache(30_000);
    expect(cache.refreshing('a=1')).toBeNull();
    const end = cache.beginRefresh('a=1');
    const underway = cache.refreshing('a=1');
    expect(underway).toBeInstanceOf(Promise);
    let released = false;
    void underway!.then(() => {
      released = true;
    });
    end();
    await underway;
    expect(released).toBe(true);
    expect(cache.refreshing('a=1')).toBeNull();
  });

  it('holds a bounded number of filters, dropping the oldest', () => {
    const cache = new ListCache(30_000, Date.now, 2);
    cache.set('a=1', '1');
    cache.set('a=2', '2');
    cache.set('a=3', '3');
    expect(cache.get('a=1')).toBeNull();
    expect(cache.get('a=2')?.json.toString()).toBe('2');
    expect(cache.get('a=3')?.json.toString()).toBe('3');
  });

  it('keys a filter the same whatever the order of its parameters', () => {
    expect(cacheKey('/api/roadmap/list?topic=b&language=a')).toBe(
      cacheKey('/api/roadmap/list?language=a&topic=b'),
    );
    expect(cacheKey('/api/roadmap/list')).toBe('');
  });
});

for (const backend of BACKENDS) {
  describe(`the kept catalogue list on ${backend}`, () => {
    let h: Harness;
    let f: Fixture;
    let asha: Person;
    /** The catalogue's calls as the server registers them, with the list kept for 30 s on a clock we move. */
    let app: FastifyInstance;
    let now = Date.parse('2026-03-02T10:00:00Z');

    beforeAll(async () => {
      h = await openHarness(backend);
      f = await buildFixture(h.db);
      asha = await h.learner('Asha');
      const { config, tokens, mail, reads } = h.app.services;
      app = Fastify({ logger: false });
      installErrorHandling(app);
      installAuthentication(app, h.db, tokens);
      catalogueRoutes(app, {
        db: h.db,
        reads,
        config,
        mail,
        roadmapTests,
        listCacheMs: 30_000,
        now: () => new Date(now),
      });
      await app.ready();
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await h?.close();
    });

    const get = (url: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url, headers });

    it('answers the same filter with the same bytes while kept, even after the catalogue changed', async () => {
      const url = `/api/roadmap/list/no-auth?subject=${f.programming}`;
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('public, max-age=30');
      expect(first.json().data.map((r: { name: string }) => r.name)).toContain(f.alpha.name);
      await h.db
        .update(roadmaps)
        .set({ name: `Renamed ${f.tag}` })
        .where(eq(roadmaps.id, f.alpha.id));
      const second = await get(url);
      expect(second.statusCode).toBe(200);
      expect(second.body).toBe(first.body);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
      // another filter is read afresh
      const other = await get(`/api/roadmap/list/no-auth?subject=${f.programming}&language=${f.english}`);
      expect(other.body).toContain(`Renamed ${f.tag}`);
      // 30 s later the first is read afresh: by one request, while those arriving meanwhile get the
      // expired copy rather than all reading it again
      now += 30_000;
      const [refresher, ...others] = await Promise.all([get(url), get(url), get(url), get(url)]);
      expect(refresher!.body).toContain(`Renamed ${f.tag}`);
      for (const other of others) expect(other.body).toBe(first.body);
      expect((await get(url)).body).toBe(refresher!.body);
      await h.db.update(roadmaps).set({ name: f.alpha.name }).where(eq(roadmaps.id, f.alpha.id));
      now += 60_000;
    });

    it('requests arriving while a list is read for the first time wait for it', async () => {
      const url = `/api/roadmap/list/no-auth?language=${f.english}`;
      const answers = await Promise.all([get(url), get(url), get(url)]);
      for (const a of answers) expect(a.statusCode).toBe(200);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      // the first read it (answered by the handler); the others waited and were answered from what it kept
      expect(answers.map((a) => a.headers.vary ?? 'handler')).toEqual([
        'handler',
        'accept-encoding',
        'accept-encoding',
      ]);
    });

    it('sends it gzipped to clients that accept gzip, and 304 to a client that has it', async () => {
      const url = '/api/roadmap/list/no-auth';
      const plain = await get(url);
      const zipped = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toContain('accept-encoding');
      expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
      expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      const again = await get(url, { 'if-none-match': String(plain.headers.etag) });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });

    it('still signs in every caller of the signed-in list, kept or not', async () => {
      const url = `/api/roadmap/list?language=${f.spanish}`;
      const mine = await get(url, asha.headers);
      expect(mine.statusCode).toBe(200);
      expect(mine.headers['cache-control']).toBe('private, no-cache');
      const kept = await get(url, asha.headers);
      expect(kept.body).toBe(mine.body);
      expect((await get(url)).statusCode).toBe(401);
      expect((await get(url, { authorization: 'Bearer nonsense' })).statusCode).toBe(401);
    });

    it('keeps nothing that failed: a malformed filter is refused every time', async () => {
      const url = `/api/roadmap/list/no-auth?language=${'x'.repeat(101)}`;
      expect((await get(url)).statusCode).toBe(400);
      expect((await get(url)).statusCode).toBe(400);
    });
  });
}

describe('under NODE_ENV=test', () => {
  let h: Harness;
  let f: Fixture;
  beforeAll(async () => {
    h = await openHarness();
    f = await buildFixture(h.db);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('reads the list afresh on every call', async () => {
    const url = '/api/roadmap/list/no-auth';
    expect((await h.app.inject({ method: 'GET', url })).body).toContain(f.alpha.name);
    await h.db
      .update(roadmaps)
      .set({ name: `Renamed ${f.tag}` })
      .where(eq(roadmaps.id, f.alpha.id));
    expect((await h.app.inject({ method: 'GET', url })).body).toContain(`Renamed ${f.tag}`);
  });
});
