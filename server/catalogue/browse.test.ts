/**
 * Browsing the catalogue through the HTTP API: filters by id or name, durations and lecture counts from
 * resource marks, curators in order, prerequisites, roadmap pages, resource short links, malformed ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, type Fixture } from '../test/fixtures/catalogue';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';

for (const backend of BACKENDS) {
  describe(`browsing the catalogue on ${backend}`, () => {
    let h: Harness;
    let f: Fixture;
    let asha: Person;
    let mentor: Person;

    beforeAll(async () => {
      h = await openHarness(backend);
      f = await buildFixture(h.db);
      asha = await h.learner('Asha');
      mentor = await h.tenant('Mira');
    }, 120_000);
    afterAll(async () => {
      await h?.close();
    });

    const get = (url: string, who?: Person) => h.app.inject({ method: 'GET', url, headers: who?.headers });
    const names = (body: { data: { name: string }[] }) =>
      body.data.map((r) => r.name).filter((n) => n.includes(f.tag));

    describe('GET /roadmap/list/no-auth and /roadmap/list', () => {
      it('lists published roadmaps by name, without sign-in', async () => {
        const res = await get('/api/roadmap/list/no-auth');
        expect(res.statusCode).toBe(200);
        expect(names(res.json())).toEqual([
          f.alpha.name,
          f.beta.name,
          `Epsilon ${f.tag}`,
          f.gamma.name,
          `Zeta empty ${f.tag}`,
        ]);
        expect(res.body).not.toContain('Delta hidden');
      });

      it('needs a signed-in person for /roadmap/list, learner or mentor', async () => {
        expect((await get('/api/roadmap/list')).statusCode).toBe(401);
        expect((await get('/api/roadmap/list', asha)).statusCode).toBe(200);
        expect((await get('/api/roadmap/list', mentor)).statusCode).toBe(200);
      });

      it('filters by language, subject and topic, given as ids or names in any case', async () => {
        const q = async (query: string) => names((await get(`/api/roadmap/list?${query}`, asha)).json());
        expect(await q(`language=${f.spanish}`)).toEqual([f.gamma.name]);
        expect(await q(`language=${encodeURIComponent(`spanish ${f.tag}`.toUpperCase())}`)).toEqual([
          f.gamma.name,
        ]);
        expect(await q(`subject=${f.dataScience}`)).toEqual([f.gamma.name]);
        expect(
          await q(`subject=${encodeURIComponent(`Programming ${f.tag}`)}&topic=${f.javascriptTopic}`),
        ).toEqual([f.alpha.name]);
        expect(await q(`topic=${encodeURIComponent(`typescript ${f.tag}`)}`)).toEqual([f.beta.name]);
        expect(await q(`language=${f.english}&subject=${f.dataScience}`)).toEqual([]);
        expect(await q('language=Klingon')).toEqual([]);
        // an empty filter is no filter
        expect((await q('language=&subject=&topic=')).length).toBe(5);
      });

      it('refuses an over-long filter with a 400 naming the field', async () => {
        const res = await get(`/api/roadmap/list/no-auth?topic=${'x'.repeat(101)}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().field).toBe('topic');
      });

      it('derives duration and lecture count from resource marks (negative spans and no end mark count 0)', async () => {
        const list = (await get('/api/roadmap/list/no-auth')).json().data as {
          _id: string;
          duration: number;
          totalLectures: number;
        }[];
        const alpha = list.find((r) => r._id === f.alpha.id)!;
        // 10 min + 0 (no marks) + 0 (end before start) + 2 min (end only)
        expect(alpha).toMatchObject({ duration: 720, totalLectures: 4 });
        const beta = list.find((r) => r._id === f.beta.id)!;
        expect(beta).toMatchObject({ duration: 600, totalLectures: 2 });
        expect(list.find((r) => r._id === f.epsilon.id)).toMatchObject({ duration: 0, totalLectures: 0 });
      });

      it('gives curators in their order, language, subject with topics, topic, image and prerequisites', async () => {
        const list = (await get('/api/roadmap/list/no-auth')).json().data;
        const alpha = list.find((r: { _id: string }) => r._id === f.alpha.id);
        expect(alpha.authors.map((a: { authorId: { name: string } }) => a.authorId.name)).toEqual([
          `Bob ${f.tag}`,
          `Ada ${f.tag}`,
        ]);
        expect(alpha.authors[1].authorId).toMatchObject({
          designation: 'Engineer',
          shortDescription: 'Short',
          longDescription: 'Long',
        });
        expect(alpha.language).toEqual({ _id: f.english, name: `English ${f.tag}` });
        expect(alpha.subject.name).toBe(`Programming ${f.tag}`);
        expect(alpha.subject.topics.map((t: { name: string }) => t.name)).toEqual([
          `JavaScript ${f.tag}`,
          `TypeScript ${f.tag}`,
        ]);
        expect(alpha.topic).toEqual({ _id: f.javascriptTopic, name: `JavaScript ${f.tag}` });
        expect(alpha.imgPath).toBe(`/images/roadmaps/${f.tag}.svg`);
        expect(alpha).not.toHaveProperty('sections');
        const beta = list.find((r: { _id: string }) => r._id === f.beta.id);
        expect(beta.prerequisites).toEqual([
          { _id: f.alpha.id, name: f.alpha.name },
          { _id: f.gamma.id, name: f.gamma.name },
        ]);
      });
    });

    describe('one roadmap', () => {
      it('GET /roadmap/{id}/no-auth: sections in order with resources, marks, durations, tasks', async () => {
        const res = await get(`/api/roadmap/${f.alpha.id}/no-auth`);
        expect(res.statusCode).toBe(200);
        const r = res.json().data;
        expect(r.sections.map((s: { name: string }) => s.name)).toEqual(['Basics', 'Functions']);
        expect(r.sections.map((s: { duration: number }) => s.duration)).toEqual([600, 120]);
        expect(r.duration).toBe(720);
        expect(r.totalLectures).toBe(4);
        const [intro, guide] = r.sections[0].resources;
        expect(intro).toMatchObject({
          actualTitle: 'Intro video',
          type: 'WATCH',
          start: { hour: 0, minute: 1, second: 0 },
          end: { hour: 0, minute: 11, second: 0 },
          assesmentIds: [],
        });
        expect(guide).toMatchObject({ actualTitle: 'Guide page', type: 'READ', start: null, end: null });
        expect(
          r.tasks.map((t: { actualTitle: string; isSubmited: boolean }) => [t.actualTitle, t.isSubmited]),
        ).toEqual([
          ['Task 1', false],
          ['Task 2', false],
          ['Task 3', false],
        ]);
      });

      it('names every roadmap a resource belongs to', async () => {
        const r = (await get(`/api/roadmap/${f.beta.id}/no-auth`)).json().data;
        const shared = r.sections[0].resources.find((x: { _id: string }) => x._id === f.alpha.resources[0]);
        expect(shared.belongToRoadmap).toEqual([
          { _id: f.alpha.id, name: f.alpha.name },
          { _id: f.beta.id, name: f.beta.name },
        ]);
        const own = r.sections[0].resources.find((x: { _id: string }) => x._id === f.beta.resources[0]);
        expect(own.belongToRoadmap).toEqual([{ _id: f.beta.id, name: f.beta.name }]);
      });

      it('GET /roadmap/view/{id} gives the same roadmap to a signed-in person only', async () => {
        expect((await get(`/api/roadmap/view/${f.alpha.id}`)).statusCode).toBe(401);
        const res = await get(`/api/roadmap/view/${f.alpha.id}`, asha);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toEqual((await get(`/api/roadmap/${f.alpha.id}/no-auth`)).json().data);
      });

      it('404 for an unknown or unpublished roadmap, 400 (not 500) for a malformed id', async () => {
        const unknown = await get('/api/roadmap/00000000-0000-4000-8000-000000000000/no-auth');
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json().message).toBe('Roadmap not found');
        expect((await get(`/api/roadmap/${f.hiddenId}/no-auth`)).statusCode).toBe(404);
        expect((await get(`/api/roadmap/view/${f.hiddenId}`, asha)).statusCode).toBe(404);
        const bad = await get('/api/roadmap/not-an-id/no-auth');
        expect(bad.statusCode).toBe(400);
        expect(bad.json()).toMatchObject({ field: 'roadmapId', message: 'roadmapId: must be a valid id' });
        expect((await get("/api/roadmap/view/1'%20or%201=1", asha)).statusCode).toBe(400);
      });

      it('GET /roadmap/prerequisite-selected-roadmap/{id}: the roadmap and its prerequisites in order', async () => {
        const res = await get(`/api/roadmap/prerequisite-selected-roadmap/${f.beta.id}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toEqual({
          selectedRoadmap: {
            roadmapId: f.beta.id,
            roadmapName: f.beta.name,
            subject: { name: `Programming ${f.tag}` },
          },
          prerequisites: [
            { roadmapId: f.alpha.id, roadmapName: f.alpha.name },
            { roadmapId: f.gamma.id, roadmapName: f.gamma.name },
          ],
        });
        const none = (await get(`/api/roadmap/prerequisite-selected-roadmap/${f.alpha.id}`)).json().data;
        expect(none.prerequisites).toEqual([]);
        expect((await get(`/api/roadmap/prerequisite-selected-roadmap/${f.hiddenId}`)).statusCode).toBe(404);
      });
    });

    describe('GET /resource/{shortId}', () => {
      it('gives the address of a resource, with or without sign-in', async () => {
        const res = await get(`/api/resource/${f.shortIds[0]}?device=WEB`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toMatchObject({
          _id: f.alpha.resources[0],
          url: `https://example.com/${f.tag}/Intro%20video`,
          actualTitle: 'Intro video',
          type: 'WATCH',
        });
        expect((await get(`/api/resource/${f.shortIds[1]}`, asha)).json().data.type).toBe('READ');
      });

      it("answers 404 'Resource not found' for an unknown short id, 400 for a malformed one", async () => {
        const res = await get('/api/resource/nosuchid?device=WEB');
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Resource not found');
        expect((await get('/api/resource/a%20b')).statusCode).toBe(400);
        expect((await get(`/api/resource/${f.shortIds[0]}?device=TOASTER`)).json().field).toBe('device');
      });
    });
  });
}
