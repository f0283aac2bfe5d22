/**
 * Learning time through the HTTP API, on this run's backend (server/test/harness.ts): the extension's
 * heartbeat batches, what is counted, and the dashboard reports read from the rollups.
 */
import { randomUUID } from 'node:crypto';
import english from '@shared/i18n/messages/en.json';
import { dateRange } from '@shared/rules/date-ranges';
import { UNINSTALL_REASONS, uninstallMessages } from '@shared/schemas/activity';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignedRoadmaps,
  assignedSections,
  resources,
  roadmaps,
  sectionResources,
  sections,
} from '../catalogue/tables';
import { rowsOf } from '../db/helpers';
import { languages, subjects, topics } from '../db/schema';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';
import { uninstallFeedback } from './tables';

const S = 1000;
const DAY = 86_400;

for (const backend of BACKENDS) {
  describe(`learning time on ${backend}`, () => {
    let h: Harness;
    let app: Harness['app'];
    let db: Harness['db'];
    let learner: Person;
    const ids = {
      learner: '',
      other: '',
      assigned: '',
      section: '',
      video: '',
      article: '',
      notAssigned: '',
    };
    const tokens = { extension: '', web: '', firefox: '', other: '', otherExtension: '' };
    const urls = {
      video: 'https://www.youtube.com/watch?v=abcdefghijk',
      article: 'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Guide/',
      notAssigned: 'https://example.com/not-mine',
    };
    // yesterday 10:00 UTC: inside every dashboard range
    const base = (Math.floor(Date.now() / 1000 / DAY) * DAY - DAY + 10 * 3600) * S;
    let n = 0;
    const hb = (
      resource: 'video' | 'article' | 'notAssigned',
      sec: number,
      kind: 'active' | 'audible' | 'end' = 'active',
      over: Partial<{ url: string; id: string; time: number }> = {},
    ) => ({
      id: over.id ?? `hb-${++n}-${randomUUID().slice(0, 8)}`,
      resourceId: ids[resource],
      url: over.url ?? urls[resource],
      time: over.time ?? base + sec * S,
      tabActive: kind === 'active',
      audible: kind === 'audible',
    });
    const send = (heartbeats: unknown[], token = tokens.extension) =>
      app.inject({
        method: 'POST',
        url: '/api/activity/heartbeats',
        headers: { authorization: `Bearer ${token}` },
        payload: { heartbeats },
      });
    const get = (url: string, token = tokens.web) =>
      app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const yesterday = dateRange('Yesterday');
    const count = async () =>
      Number(
        rowsOf<{ n: string | number }>(
          await db.execute(sql`select count(*) as n from activity_heartbeats where user_id = ${ids.learner}`),
        )[0]!.n,
      );

    beforeAll(async () => {
      h = await openHarness(backend);
      app = h.app;
      db = h.db;
      learner = await h.learner('Lee Learner');
      const other = await h.learner('Oth');
      ids.learner = learner.id;
      ids.other = other.id;
      const [language] = await db.insert(languages).values({ name: 'English-activity' }).returning();
      const [subject] = await db.insert(subjects).values({ name: 'Web-activity' }).returning();
      const [roadmap] = await db
        .insert(roadmaps)
        .values({
          name: 'JavaScript basics',
          description: 'd',
          languageId: language!.id,
          subjectId: subject!.id,
        })
        .returning();
      const [section] = await db
        .insert(sections)
        .values({ roadmapId: roadmap!.id, name: 'Start', position: 0 })
        .returning();
      ids.section = section!.id;
      const made = await db
        .insert(resources)
        .values([
          { actualTitle: 'Intro video', type: 'WATCH', url: urls.video, shortId: 'vid-001' },
          {
            actualTitle: 'Guide',
            userTitle: 'The JavaScript Guide',
            type: 'READ',
            url: urls.article,
            shortId: 'art-001',
          },
          { actualTitle: 'Elsewhere', type: 'READ', url: urls.notAssigned, shortId: 'oth-001' },
        ])
        .returning();
      ids.video = made[0]!.id;
      ids.article = made[1]!.id;
      ids.notAssigned = made[2]!.id;
      await db.insert(sectionResources).values([
        { sectionId: section!.id, resourceId: ids.video, position: 0 },
        { sectionId: section!.id, resourceId: ids.article, position: 1 },
      ]);
      const [assigned] = await db
        .insert(assignedRoadmaps)
        .values({ userId: ids.learner, roadmapId: roadmap!.id })
        .returning();
      ids.assigned = assigned!.id;
      await db
        .insert(assignedSections)
        .values({ assignedRoadmapId: assigned!.id, sectionId: section!.id, position: 0 });

      // the web app's tokens are the people's own sign-ins; the extensions' are issued as the extension's
      // sign-in would (the device is in the token)
      const bearer = (p: Person) => p.headers.authorization.slice('Bearer '.length);
      tokens.web = bearer(learner);
      tokens.other = bearer(other);
      const issue = app.services.tokens;
      tokens.extension = (await issue.issue({ id: ids.learner, role: 'USER' }, 'CHROME_EXTENSION')).token;
      tokens.firefox = (await issue.issue({ id: ids.learner, role: 'USER' }, 'FIREFOX_EXTENSION')).token;
      tokens.otherExtension = (await issue.issue({ id: ids.other, role: 'USER' }, 'CHROME_EXTENSION')).token;
    }, 120_000);

    afterAll(() => h?.close());

    it('hands the extension only the resources of assigned roadmaps, and only to extension tokens', async () => {
      const res = await get('/api/activity/tracked-resources', tokens.extension);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.data.user).toEqual({ _id: ids.learner, name: 'Lee Learner', email: learner.email });
      expect(body.data.resources.map((r: { resourceId: string }) => r.resourceId).sort()).toEqual(
        [ids.video, ids.article].sort(),
      );
      const web = await get('/api/activity/tracked-resources', tokens.web);
      expect(web.statusCode).toBe(403);
      const sent = await send([hb('video', 0)], tokens.web);
      expect(sent.statusCode).toBe(403);
    });

    it('refuses a bad batch whole, naming the field, and writes nothing', async () => {
      const tooMany = await send(Array.from({ length: 101 }, (_, i) => hb('video', i)));
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toMatchObject({
        field: 'heartbeats',
        message: 'heartbeats: at most 100 heartbeats a batch',
      });
      const badTime = await send([hb('video', 0), { ...hb('video', 30), time: 'soon' }]);
      expect(badTime.statusCode).toBe(400);
      expect(badTime.json().field).toBe('heartbeats.1.time');
      const empty = await send([]);
      expect(empty.statusCode).toBe(400);
      expect(await count()).toBe(0);
    });

    it('counts heartbeats of assigned resources, and a resent batch once', async () => {
      const batch = [hb('article', 0), hb('article', 30), hb('article', 60), hb('article', 75, 'end')];
      const first = await send(batch);
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toEqual({ accepted: 4, duplicates: 0, ignored: [] });
      const again = await send(batch);
      expect(again.json().data).toEqual({ accepted: 0, duplicates: 4, ignored: [] });
      const daily = await get(
        `/api/reports/dashboard/time-spent-by-user-daywise?startTime=${yesterday.startTime}&endTime=${yesterday.endTime}`,
      );
      expect(daily.json().data).toEqual([{ date: yesterday.startTime, timespent: 75 }]);
    });

    it('says which heartbeats it ignored and why, and stores none of them', async () => {
      const before = await count();
      const ok = hb('video', 200, 'audible');
      const res = await send([
        ok,
        hb('notAssigned', 210),
        hb('video', 220, 'active', { url: 'https://www.youtube.com/watch?v=zzzzzzzzzzz' }),
        hb('video', 0, 'active', { time: Date.now() - 31 * DAY * S }),
        hb('video', 0, 'active', { time: Date.now() + 3600 * S }),
      ]);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.accepted).toBe(1);
      expect(data.ignored.map((i: { reason: string }) => i.reason).sort()).toEqual([
        'IN_FUTURE',
        'NOT_ASSIGNED',
        'TOO_OLD',
        'URL_MISMATCH',
      ]);
      expect(await count()).toBe(before + 1);
    });

    it('accepts the same video under another of its addresses, from Firefox too', async () => {
      const res = await send(
        [
          hb('video', 230, 'audible', { url: 'https://youtu.be/abcdefghijk?t=10' }),
          hb('video', 260, 'audible', { url: 'https://m.youtube.com/watch?v=abcdefghijk#x' }),
        ],
        tokens.firefox,
      );
      expect(res.json().data.accepted).toBe(2);
    });

    it('never counts a second twice when tabs overlap, whatever the order batches arrive in', async () => {
      // the video plays 200 → 260 (sent above); the article is read in front 240 → 300, sent late
      const late = await send([hb('article', 300, 'end'), hb('article', 240), hb('article', 270)]);
      expect(late.json().data.accepted).toBe(3);
      const page = await get(
        `/api/reports/dashboard/time-spent-on-resource-by-user?startTime=${yesterday.startTime}&endTime=${yesterday.endTime}&skip=1&limit=5`,
      );
      expect(page.statusCode).toBe(200);
      // article: 75 s earlier + 60 s now (it is in front, so it wins 240 → 260); video: 200 → 240
      expect(page.json().data).toEqual({
        totalCount: 2,
        timeSpentOnResource: [
          { resource: { _id: ids.article, userTitle: 'The JavaScript Guide' }, timespent: 135 },
          { resource: { _id: ids.video, userTitle: 'Intro video' }, timespent: 40 },
        ],
      });
      const daily = await get(
        `/api/reports/dashboard/time-spent-by-user-daywise?startTime=${yesterday.startTime}&endTime=${yesterday.endTime}`,
      );
      expect(daily.json().data).toEqual([{ date: yesterday.startTime, timespent: 175 }]);
    });

    it('pages the resource report by page number and keeps the total', async () => {
      const q = `startTime=${yesterday.startTime}&endTime=${yesterday.endTime}`;
      const second = await get(`/api/reports/dashboard/time-spent-on-resource-by-user?${q}&skip=2&limit=1`);
      expect(second.json().data.timeSpentOnResource.map((r: { timespent: number }) => r.timespent)).toEqual([
        40,
      ]);
      expect(second.json().data.totalCount).toBe(2);
      const beyond = await get(`/api/reports/dashboard/time-spent-on-resource-by-user?${q}&skip=9&limit=5`);
      expect(beyond.json().data).toEqual({ totalCount: 2, timeSpentOnResource: [] });
      const bad = await get(`/api/reports/dashboard/time-spent-on-resource-by-user?${q}&skip=0`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().field).toBe('skip');
    });

    it('lists every day of a range, zero included, split at UTC midnight', async () => {
      const midnight = (Math.floor(Date.now() / 1000 / DAY) * DAY - DAY) * S;
      // 30 s before and after the midnight that starts yesterday
      await send([
        hb('article', 0, 'active', { time: midnight - 30 * S }),
        hb('article', 0, 'active', { time: midnight }),
        hb('article', 0, 'end', { time: midnight + 30 * S }),
      ]);
      const week = dateRange('Past 7 days');
      const res = await get(
        `/api/reports/dashboard/time-spent-by-user-daywise?startTime=${week.startTime}&endTime=${week.endTime}`,
      );
      const data = res.json().data as { date: number; timespent: number }[];
      expect(data).toHaveLength(7);
      expect(data.map((d) => d.date)).toEqual(Array.from({ length: 7 }, (_, i) => week.startTime + i * DAY));
      expect(data[5]).toEqual({ date: yesterday.startTime - DAY, timespent: 30 });
      expect(data[6]).toEqual({ date: yesterday.startTime, timespent: 205 });
      expect(data.slice(0, 5).every((d) => d.timespent === 0)).toBe(true);
      const reversed = await get(`/api/reports/dashboard/time-spent-by-user-daywise?startTime=10&endTime=5`);
      expect(reversed.statusCode).toBe(400);
      expect(reversed.json().field).toBe('endTime');
    });

    it('shows the most recently studied resources of ongoing roadmaps as cards', async () => {
      const res = await get('/api/reports/dashboard/get-current-resource');
      expect(res.statusCode).toBe(200);
      const cards = res.json().data;
      expect(cards.map((c: { resourceId: string }) => c.resourceId)).toEqual([ids.article, ids.video]);
      expect(cards[0]).toEqual({
        roadmapName: 'JavaScript basics',
        resourceName: 'The JavaScript Guide',
        resourceUrl: urls.article,
        resourceType: 'READ',
        latestTimestamp: Math.floor((base + 270 * S) / 1000),
        // 135 s yesterday morning, 30 s either side of the midnight that started yesterday
        totalTimeSpent: 195,
        roadmapId: ids.assigned,
        sectionId: ids.section,
        resourceId: ids.article,
        // no failed test holds its retake back
        retakeAt: null,
      });
    });

    it("keeps each learner's time their own", async () => {
      const res = await get(
        `/api/reports/dashboard/time-spent-on-resource-by-user?startTime=${yesterday.startTime}&endTime=${yesterday.endTime}`,
        tokens.other,
      );
      expect(res.json().data).toEqual({ totalCount: 0, timeSpentOnResource: [] });
      expect((await get('/api/reports/dashboard/get-current-resource', tokens.other)).json().data).toEqual(
        [],
      );
      // another learner's extension cannot add time to a resource they were not assigned
      const theirs = await send([hb('video', 0)], tokens.otherExtension);
      expect(theirs.json().data).toMatchObject({ accepted: 0, ignored: [{ reason: 'NOT_ASSIGNED' }] });
    });

    it("tells the popup today's time per resource", async () => {
      const now = Date.now();
      await send([
        hb('video', 0, 'audible', { time: now - 60 * S }),
        hb('video', 0, 'audible', { time: now - 30 * S }),
        hb('video', 0, 'end', { time: now - 10 * S }),
      ]);
      const res = await get('/api/activity/today', tokens.extension);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.user.email).toBe(learner.email);
      expect(data.resources).toEqual([{ resourceId: ids.video, title: 'Intro video', seconds: 50 }]);
      expect(data.totalSeconds).toBe(50);
      const tooEarly = await get(`/api/activity/today?startTime=${Math.floor(now / 1000) - 3 * DAY}`);
      expect(tooEarly.statusCode).toBe(400);
      expect(tooEarly.json().field).toBe('startTime');
    });

    it('shows twelve months of learning days with the current and the longest streak', async () => {
      // 90 s on each of three days in a row, 12 to 10 days ago
      const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
      for (const daysAgo of [12, 11, 10]) {
        const t = (today - daysAgo * DAY + 9 * 3600) * S;
        await send(
          [0, 30, 60, 90].map((sec, i) =>
            hb('article', 0, i === 3 ? 'end' : 'active', { time: t + sec * S }),
          ),
        );
      }
      const res = await get('/api/reports/dashboard/learning-days');
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.to).toBe(today);
      expect([365, 366]).toContain((data.to - data.from) / DAY + 1);
      expect(data.days).toEqual([
        { date: today - 12 * DAY, timespent: 90 },
        { date: today - 11 * DAY, timespent: 90 },
        { date: today - 10 * DAY, timespent: 90 },
        { date: today - 2 * DAY, timespent: 30 },
        { date: today - DAY, timespent: 205 },
        { date: today, timespent: 50 },
      ]);
      // a learning day is a minute or more: 30 s the day before yesterday and 50 s today do not count
      expect(data).toMatchObject({
        thresholdSeconds: 60,
        learningDays: 4,
        totalSeconds: 90 * 3 + 30 + 205 + 50,
        currentStreak: 1,
        currentStreakEnd: today - DAY,
        longestStreak: 3,
        longestStreakEnd: today - 10 * DAY,
      });
      const theirs = await get('/api/reports/dashboard/learning-days', tokens.other);
      expect(theirs.json().data).toMatchObject({
        days: [],
        currentStreak: 0,
        longestStreak: 0,
        learningDays: 0,
      });
    });

    it('shows the time per subject and topic of a range', async () => {
      const [subject] = await db.select().from(subjects).where(sql`name = 'Web-activity'`);
      const [topic] = await db
        .insert(topics)
        .values({ subjectId: subject!.id, name: 'Language basics' })
        .returning();
      await db.update(roadmaps).set({ topicId: topic!.id }).where(sql`name = 'JavaScript basics'`);
      const week = dateRange('Past 7 days');
      const res = await get(
        `/api/reports/dashboard/time-spent-by-topic?startTime=${week.startTime}&endTime=${week.endTime}`,
      );
      expect(res.statusCode).toBe(200);
      // the article 165 s yesterday and 30 s the day before, the video 40 s yesterday; today is not in the range
      expect(res.json().data).toEqual([
        {
          subject: { _id: subject!.id, name: 'Web-activity' },
          timespent: 235,
          topics: [{ topic: { _id: topic!.id, name: 'Language basics' }, timespent: 235 }],
        },
      ]);
    });

    it('refuses a range that is backwards, years long or absurd, naming the field', async () => {
      const url = (q: string) => `/api/reports/dashboard/time-spent-by-topic?${q}`;
      const cases: [string, string][] = [
        ['startTime=1700000000&endTime=1600000000', 'endTime'],
        ['startTime=1600000000&endTime=1700000000', 'endTime'],
        ['startTime=99999999999999&endTime=99999999999999', 'startTime'],
        ['startTime=1e300&endTime=1700000000', 'startTime'],
        ['startTime=-5&endTime=1700000000', 'startTime'],
        ['startTime=1700000000', 'endTime'],
        ['startTime=soon&endTime=1700000000', 'startTime'],
      ];
      for (const [q, field] of cases) {
        const res = await get(url(q));
        expect(res.statusCode, q).toBe(400);
        expect(res.json().field, q).toBe(field);
      }
    });

    /** The rollups are the sums of the spans, day by day and resource by resource. */
    async function expectRollupsFromSpans() {
      const rows = rowsOf<{ day: string; resource_id: string; spans: string | null; daily: string | null }>(
        await db.execute(sql`
          select coalesce(s.day, d.day)::text as day, coalesce(s.resource_id, d.resource_id) as resource_id,
                 s.ms::text as spans, d.ms::text as daily
          from (select day, resource_id, sum(end_at - start_at) as ms from activity_spans
                where user_id = ${ids.learner} group by 1, 2) s
          full join (select day, resource_id, ms from activity_daily where user_id = ${ids.learner} and ms <> 0) d
            on d.day = s.day and d.resource_id = s.resource_id`),
      );
      for (const r of rows)
        expect(Number(r.daily ?? 0), `${r.day} ${r.resource_id}`).toBe(Number(r.spans ?? 0));
      const totals = rowsOf<{ resource_id: string; ms: string; spans: string | null }>(
        await db.execute(sql`
          select t.resource_id, t.ms::text, (select sum(end_at - start_at) from activity_spans s
            where s.user_id = t.user_id and s.resource_id = t.resource_id)::text as spans
          from activity_resource_totals t where t.user_id = ${ids.learner}`),
      );
      for (const t of totals) expect(Number(t.ms)).toBe(Number(t.spans ?? 0));
      // and the sums the reports over many learners read (decision 049) are those of the daily rollups
      const [sums] = rowsOf<{ days: string; daily: string; ms: string; learning_days: number }>(
        await db.execute(sql`
          select (select string_agg(day::text || '=' || ms, ',' order by day) from
                   (select day, sum(ms) as ms from activity_daily where user_id = ${ids.learner} group by day) d
                   where ms > 0) as daily,
                 (select string_agg(day::text || '=' || ms, ',' order by day) from activity_user_days
                   where user_id = ${ids.learner} and ms > 0) as days,
                 (select ms::text || '/' || days from activity_learning_totals where user_id = ${ids.learner}) as ms,
                 (select count(distinct day)::int from activity_daily where user_id = ${ids.learner} and ms > 0)
                   as learning_days`),
      );
      expect(sums!.days).toBe(sums!.daily);
      const dailyMs = (sums!.daily ?? '').split(',').reduce((a, e) => a + Number(e.split('=')[1] ?? 0), 0);
      expect(sums!.ms ?? '0/0').toBe(`${dailyMs}/${sums!.learning_days}`);
    }

    it('lists what was tracked: every span by day, newest first, with its resource and kind', async () => {
      await expectRollupsFromSpans();
      const res = await get('/api/activity/tracked?skip=1&limit=2');
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
      expect(data.totalDays).toBe(6);
      expect(data.days.map((d: { date: number; seconds: number }) => [d.date, d.seconds])).toEqual([
        [today, 50],
        [today - DAY, 205],
      ]);
      // today: the video only played (media), 50 s
      expect(data.days[0].spans).toEqual([
        expect.objectContaining({
          resource: { _id: ids.video, title: 'Intro video', url: urls.video },
          seconds: 50,
          tabActive: false,
          timesKnown: true,
        }),
      ]);
      const spans = data.days[1].spans as { start: string; end: string; seconds: number }[];
      expect(spans.reduce((s, x) => s + x.seconds, 0)).toBe(205);
      for (const sp of spans) {
        expect(sp.start.slice(0, 10)).toBe(new Date((today - DAY) * 1000).toISOString().slice(0, 10));
        expect((Date.parse(sp.end) - Date.parse(sp.start)) / 1000).toBe(sp.seconds);
      }
      // the extension's tokens cannot read it; another learner sees none of it
      expect((await get('/api/activity/tracked', tokens.extension)).statusCode).toBe(403);
      expect((await get('/api/activity/tracked', tokens.other)).json().data).toEqual({
        totalDays: 0,
        totalSeconds: 0,
        days: [],
      });
    });

    it('deletes a span: the totals follow at once, and a late heartbeat cannot bring it back', async () => {
      const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
      const before = (await get('/api/activity/tracked?skip=1&limit=7')).json().data;
      const yesterday = before.days.find((d: { date: number }) => d.date === today - DAY);
      const article = yesterday.spans.find(
        (s: { resource: { _id: string } }) => s.resource._id === ids.article,
      );
      // another learner cannot delete it
      const theirs = await app.inject({
        method: 'DELETE',
        url: `/api/activity/tracked/spans/${article._id}`,
        headers: { authorization: `Bearer ${tokens.other}` },
      });
      expect(theirs.statusCode).toBe(404);
      const del = await app.inject({
        method: 'DELETE',
        url: `/api/activity/tracked/spans/${article._id}`,
        headers: { authorization: `Bearer ${tokens.web}` },
      });
      expect(del.statusCode).toBe(200);
      expect(del.json().data).toEqual({
        day: new Date((today - DAY) * 1000).toISOString().slice(0, 10),
        seconds: article.seconds,
        daySeconds: 205 - article.seconds,
      });
      const daily = await get(
        `/api/reports/dashboard/time-spent-by-user-daywise?startTime=${today - DAY}&endTime=${today - 1}`,
      );
      expect(daily.json().data).toEqual([{ date: today - DAY, timespent: 205 - article.seconds }]);
      await expectRollupsFromSpans();
      // the same heartbeats sent again (an offline queue resending) are refused inside the deleted stretch
      const startMs = Date.parse(article.start);
      const late = await send([
        hb('article', 0, 'active', { time: startMs + 1_000 }),
        hb('article', 0, 'active', { time: Math.floor((startMs + Date.parse(article.end)) / 2) }),
      ]);
      expect(late.json().data.ignored.map((i: { reason: string }) => i.reason)).toEqual(['ERASED', 'ERASED']);
      expect(
        (
          await get(
            `/api/reports/dashboard/time-spent-by-user-daywise?startTime=${today - DAY}&endTime=${today - 1}`,
          )
        ).json().data,
      ).toEqual([{ date: today - DAY, timespent: 205 - article.seconds }]);
      const heartbeatsLeft = rowsOf<{ n: string }>(
        await db.execute(sql`select count(*)::text as n from activity_heartbeats
          where user_id = ${ids.learner} and resource_id = ${ids.article} and at >= ${startMs} and at < ${Date.parse(article.end)}`),
      )[0]!.n;
      expect(Number(heartbeatsLeft)).toBe(0);
      const again = await app.inject({
        method: 'DELETE',
        url: `/api/activity/tracked/spans/${article._id}`,
        headers: { authorization: `Bearer ${tokens.web}` },
      });
      expect(again.statusCode).toBe(404);
    });

    it('deletes a day, and refuses a day that is not one, naming it', async () => {
      const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
      const day = new Date((today - 11 * DAY) * 1000).toISOString().slice(0, 10);
      const del = (d: string) =>
        app.inject({
          method: 'DELETE',
          url: `/api/activity/tracked/days/${d}`,
          headers: { authorization: `Bearer ${tokens.web}` },
        });
      const res = await del(day);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ day, seconds: 90, daySeconds: 0 });
      const days = (await get('/api/reports/dashboard/learning-days')).json().data;
      expect(days.days.some((d: { date: number }) => d.date === today - 11 * DAY)).toBe(false);
      // the streak of three days is broken in two
      expect(days.longestStreak).toBe(1);
      await expectRollupsFromSpans();
      for (const bad of ['2026-02-30', 'yesterday', '1999-12-31', '2026-1-1']) {
        const r = await del(bad);
        expect(r.statusCode, bad).toBe(400);
        expect(r.json().field, bad).toBe('day');
      }
    });

    it('deletes a span and a day a month back, in the time partitions they are in', async () => {
      const midnight = Math.floor(Date.now() / 1000 / DAY) * DAY * S;
      const first = midnight - 29 * DAY * S + 10 * 3600 * S;
      const second = midnight - 28 * DAY * S + 10 * 3600 * S;
      const beats = (at: number) =>
        Array.from({ length: 4 }, (_, i) => hb('article', 0, 'active', { time: at + i * 30 * S }));
      expect((await send([...beats(first), ...beats(second)])).json().data.accepted).toBe(8);
      const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const where = rowsOf<{ part: string; n: number }>(
        await db.execute(sql`select tableoid::regclass::text as part, count(*)::int as n from activity_heartbeats
          where user_id = ${ids.learner} and at between ${first} and ${second + DAY * S} group by 1 order by 1`),
      );
      expect(where).toEqual([
        { part: `activity_heartbeats_p${dayOf(first).replace(/-/g, '')}`, n: 4 },
        { part: `activity_heartbeats_p${dayOf(second).replace(/-/g, '')}`, n: 4 },
      ]);
      const tracked = (await get('/api/activity/tracked?skip=1&limit=31')).json().data.days as {
        day: string;
        spans: { _id: string; seconds: number }[];
      }[];
      const span = tracked.find((d) => d.day === dayOf(first))!.spans[0]!;
      expect(span.seconds).toBe(90);
      const delSpan = await app.inject({
        method: 'DELETE',
        url: `/api/activity/tracked/spans/${span._id}`,
        headers: { authorization: `Bearer ${tokens.web}` },
      });
      expect(delSpan.json().data).toMatchObject({ day: dayOf(first), seconds: 90, daySeconds: 0 });
      const delDay = await app.inject({
        method: 'DELETE',
        url: `/api/activity/tracked/days/${dayOf(second)}`,
        headers: { authorization: `Bearer ${tokens.web}` },
      });
      expect(delDay.json().data).toEqual({ day: dayOf(second), seconds: 90, daySeconds: 0 });
      const left = (await get('/api/activity/tracked?skip=1&limit=31')).json().data.days as {
        day: string;
      }[];
      expect(left.map((d) => d.day)).not.toContain(dayOf(first));
      expect(left.map((d) => d.day)).not.toContain(dayOf(second));
      // the heartbeats behind them are gone: the span's stretch, and the whole day
      expect(
        rowsOf<{ n: number }>(
          await db.execute(sql`select count(*)::int as n from activity_heartbeats where user_id = ${ids.learner}
            and (at >= ${first} and at < ${first + 90 * S} or at >= ${midnight - 28 * DAY * S} and at < ${midnight - 27 * DAY * S})`),
        )[0]!.n,
      ).toBe(0);
      // both stretches are guarded: the same heartbeats again are refused
      const again = await send([...beats(first), ...beats(second)]);
      expect(new Set(again.json().data.ignored.map((i: { reason: string }) => i.reason))).toEqual(
        new Set(['ERASED']),
      );
      await expectRollupsFromSpans();
    });

    it('exports everything as JSON or CSV, each span once, read back by an independent parser', async () => {
      const spans = Number(
        rowsOf<{ n: string }>(
          await db.execute(
            sql`select count(*)::text as n from activity_spans where user_id = ${ids.learner}`,
          ),
        )[0]!.n,
      );
      const csv = await get('/api/activity/export?format=csv');
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toMatch(
        /^attachment; filename="waymark-activity-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const rows = parse(csv.body, { bom: true }) as string[][];
      expect(rows[0]).toEqual([
        'Day (UTC)',
        'Start (UTC)',
        'End (UTC)',
        'Seconds',
        'Resource',
        'Address',
        'Tab in front or media playing',
        'Time of day recorded',
      ]);
      expect(rows).toHaveLength(spans + 1);
      expect(rows.slice(1).every((r) => ['tab in front', 'media playing'].includes(r[6]!))).toBe(true);
      expect(rows.some((r) => r[4] === 'The JavaScript Guide' && r[5] === urls.article)).toBe(true);
      const json = await get('/api/activity/export');
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
      const doc = json.json();
      expect(doc.user).toEqual({ _id: ids.learner, name: 'Lee Learner', email: learner.email });
      expect(doc.spans).toHaveLength(spans);
      const total = doc.days.reduce((s: number, d: { seconds: number }) => s + d.seconds, 0);
      const tracked = (await get('/api/activity/tracked')).json().data;
      expect(total).toBe(tracked.totalSeconds);
      const bad = await get('/api/activity/export?format=xlsx');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().field).toBe('format');
    });

    it('stores uninstall feedback with the messages of the form', async () => {
      const missing = await app.inject({
        method: 'POST',
        url: '/api/feedback/create',
        payload: { emailId: '', reason: [] },
      });
      expect(missing.statusCode).toBe(400);
      // the form's messages, in English for a caller who asks for no language
      expect(missing.json().fields).toMatchObject({
        emailId: english[uninstallMessages.emailRequired],
        reason: english[uninstallMessages.reasonRequired],
      });
      const other = await app.inject({
        method: 'POST',
        url: '/api/feedback/create',
        payload: { emailId: 'x@example.com', reason: ['other'] },
      });
      expect(other.json().fields).toMatchObject({ other: english[uninstallMessages.otherRequired] });
      const res = await app.inject({
        method: 'POST',
        url: '/api/feedback/create',
        payload: {
          emailId: 'x@example.com',
          reason: [UNINSTALL_REASONS[1], 'other'],
          other: 'Too slow',
          message: 'Bye',
        },
      });
      expect(res.statusCode).toBe(201);
      const rows = await db.select().from(uninstallFeedback);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ emailId: 'x@example.com', other: 'Too slow', message: 'Bye' });
    });
  });
}
