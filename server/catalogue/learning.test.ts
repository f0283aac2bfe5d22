/**
 * A learner's roadmaps through the HTTP API: assignment (two ongoing at most, idempotent), selection
 * before sign-in, preview and claim, isolation between learners, scores and test links on the learner's
 * copy, completion, and task submission.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testLinks } from '../assessments/tables';
import { buildFixture, type Fixture } from '../test/fixtures/catalogue';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';
import { markRoadmapCompleted } from './learning';
import { assignedRoadmaps, taskSubmissions } from './tables';

const LIMIT = 'Can only learn two roadmaps at a time.';

for (const backend of BACKENDS) {
  describe(`a learner's roadmaps on ${backend}`, () => {
    let h: Harness;
    let f: Fixture;
    let mentor: Person;

    beforeAll(async () => {
      h = await openHarness(backend);
      f = await buildFixture(h.db);
      mentor = await h.tenant('Mira');
    }, 120_000);
    afterAll(async () => {
      await h?.close();
    });

    const call = (method: 'GET' | 'POST' | 'PUT', url: string, who?: Person, payload?: object) =>
      h.app.inject({ method, url, headers: who?.headers, payload });
    const assign = (who: Person, roadmapId: string) =>
      call('POST', '/api/roadmap/assign-roadmap', who, { roadmapId });
    const rowsOf = (userId: string) =>
      h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, userId));

    describe('callers and ids', () => {
      it('learner calls refuse a signed-out caller (401) and answer a malformed id with 400, never 500', async () => {
        const asha = await h.learner();
        const id = '00000000-0000-4000-8000-000000000000';
        const calls: ['GET' | 'POST' | 'PUT', string, object?][] = [
          ['GET', `/api/roadmap/check-roadmap-assigned-to-user/${id}`],
          ['POST', '/api/roadmap/assign-roadmap', { roadmapId: id }],
          ['GET', '/api/roadmap/my-roadmaps'],
          ['GET', `/api/roadmap/assigned-roadmap/${id}`],
          ['PUT', `/api/roadmap/assign-user-to-roadmap/${id}`],
          ['PUT', `/api/roadmap/assigned-roadmap/${id}/task/${id}/submit`, {}],
        ];
        for (const [method, url, body] of calls) {
          expect((await call(method, url, undefined, body)).statusCode, `${method} ${url}`).toBe(401);
        }
        const malformed: ['GET' | 'POST' | 'PUT', string, string, object?][] = [
          ['GET', '/api/roadmap/check-roadmap-assigned-to-user/42', 'id'],
          ['POST', '/api/roadmap/assign-roadmap', 'roadmapId', { roadmapId: '42' }],
          ['GET', '/api/roadmap/assigned-roadmap/42', 'id'],
          ['PUT', '/api/roadmap/assign-user-to-roadmap/42', 'id'],
          ['PUT', `/api/roadmap/assigned-roadmap/42/task/${id}/submit`, 'id', {}],
          ['PUT', `/api/roadmap/assigned-roadmap/${id}/task/42/submit`, 'taskId', {}],
          ['POST', '/api/roadmap/create-roadmap/42', 'id'],
          ['GET', '/api/roadmap/prerequisite-selected-roadmap/42', 'id'],
          ['POST', '/api/roadmap/generate-initial-assessment-questions/42', 'id'],
        ];
        for (const [method, url, field, body] of malformed) {
          const res = await call(method, url, asha, body);
          expect(res.statusCode, `${method} ${url}`).toBe(400);
          expect(res.json().field, `${method} ${url}`).toBe(field);
        }
        const noBody = await h.app.inject({
          method: 'POST',
          url: '/api/roadmap/assign-roadmap',
          headers: { ...asha.headers, 'content-type': 'application/json' },
          payload: '{not json',
        });
        expect(noBody.statusCode).toBe(400);
      });
    });

    describe('assigning', () => {
      it('assigns a roadmap once: assigning it again answers with the same copy', async () => {
        const asha = await h.learner();
        const check = await call('GET', `/api/roadmap/check-roadmap-assigned-to-user/${f.alpha.id}`, asha);
        expect(check.json().data).toEqual({ assigned: false, assignedRoadmapId: null });

        const first = await assign(asha, f.alpha.id);
        expect(first.statusCode).toBe(201);
        const id = first.json().data.assignedRoadmapId;
        const again = await assign(asha, f.alpha.id);
        expect(again.statusCode).toBe(201);
        expect(again.json().data.assignedRoadmapId).toBe(id);
        expect(await rowsOf(asha.id)).toHaveLength(1);

        const after = await call('GET', `/api/roadmap/check-roadmap-assigned-to-user/${f.alpha.id}`, asha);
        expect(after.json().data).toEqual({ assigned: true, assignedRoadmapId: id });
      });

      it(`refuses a third ongoing roadmap with '${LIMIT}'`, async () => {
        const ravi = await h.learner();
        expect((await assign(ravi, f.alpha.id)).statusCode).toBe(201);
        expect((await assign(ravi, f.gamma.id)).statusCode).toBe(201);
        const third = await assign(ravi, f.beta.id);
        expect(third.statusCode).toBe(400);
        expect(third.json().message).toBe(LIMIT);
        // the same through the catalogue's Select
        const viaSelect = await call('POST', `/api/roadmap/create-roadmap/${f.epsilon.id}`, ravi);
        expect(viaSelect.statusCode).toBe(400);
        // re-assigning one they have is still fine
        expect((await assign(ravi, f.gamma.id)).statusCode).toBe(201);
        expect(await rowsOf(ravi.id)).toHaveLength(2);
      });

      it('a completed roadmap no longer counts against the limit', async () => {
        const kiran = await h.learner();
        const a = (await assign(kiran, f.alpha.id)).json().data.assignedRoadmapId;
        await assign(kiran, f.gamma.id);
        await markRoadmapCompleted(h.db, a, 'final-link-id-123');
        expect((await assign(kiran, f.zeta.id)).statusCode).toBe(201);
        const list = (await call('GET', '/api/roadmap/my-roadmaps', kiran)).json().data;
        expect(list.map((r: { name: string; status: string }) => [r.name, r.status])).toEqual([
          [f.zeta.name, 'ONGOING'],
          [f.gamma.name, 'ONGOING'],
          [f.alpha.name, 'COMPLETED'],
        ]);
        const done = (await call('GET', `/api/roadmap/assigned-roadmap/${a}`, kiran)).json().data;
        expect(done).toMatchObject({ status: 'COMPLETED', finalAssesmentId: 'final-link-id-123' });
        // marking again changes nothing
        await markRoadmapCompleted(h.db, a, 'another-link');
        expect(
          (await call('GET', `/api/roadmap/assigned-roadmap/${a}`, kiran)).json().data.finalAssesmentId,
        ).toBe('final-link-id-123');
      });

      it('holds the limit under concurrent requests', async () => {
        const meera = await h.learner();
        const results = await Promise.all([f.alpha.id, f.gamma.id, f.zeta.id].map((id) => assign(meera, id)));
        expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 400]);
        expect(results.find((r) => r.statusCode === 400)!.json().errorCode).toBe('ROADMAP_LIMIT');
        expect(await rowsOf(meera.id)).toHaveLength(2);
      });

      it('is for learners: a mentor gets 403, nobody signed in 401; unknown roadmaps 404', async () => {
        expect((await assign(mentor, f.alpha.id)).statusCode).toBe(403);
        expect(
          (await call('POST', '/api/roadmap/assign-roadmap', undefined, { roadmapId: f.alpha.id }))
            .statusCode,
        ).toBe(401);
        const asha = await h.learner();
        expect((await assign(asha, f.hiddenId)).statusCode).toBe(404);
        const bad = await call('POST', '/api/roadmap/assign-roadmap', asha, { roadmapId: 'x' });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().field).toBe('roadmapId');
        expect(await rowsOf(asha.id)).toHaveLength(0);
      });
    });

    describe("the learner's copy", () => {
      it('shows sections, resources, tasks and the best score per resource from completed resource tests', async () => {
        const asha = await h.learner();
        const id = (await assign(asha, f.alpha.id)).json().data.assignedRoadmapId;
        const link = (type: 'RESOURCE' | 'SECTION', over: object) => ({
          linkId: `L${Math.random().toString(36).slice(2, 14)}`,
          type,
          userId: asha.id,
          roadmapId: f.alpha.id,
          assignedRoadmapId: id,
          sectionId: f.alpha.sections[0],
          ...over,
        });
        const rows = [
          link('RESOURCE', {
            resourceId: f.alpha.resources[0],
            isCompleted: true,
            percentage: 40,
            score: 20,
          }),
          link('RESOURCE', {
            resourceId: f.alpha.resources[0],
            isCompleted: true,
            percentage: 80,
            score: 40,
          }),
          link('RESOURCE', { resourceId: f.alpha.resources[1], isCompleted: false }),
          link('SECTION', {}),
        ];
        await h.db.insert(testLinks).values(rows as (typeof testLinks.$inferInsert)[]);

        const res = await call('GET', `/api/roadmap/assigned-roadmap/${id}`, asha);
        expect(res.statusCode).toBe(200);
        const r = res.json().data;
        expect(r).toMatchObject({
          _id: id,
          roadmapId: f.alpha.id,
          name: f.alpha.name,
          status: 'ONGOING',
          userId: asha.id,
        });
        expect(r.finalAssesmentId).toBeNull();
        expect(r.subject.name).toBe(`Programming ${f.tag}`);
        expect(r.language.name).toBe(`English ${f.tag}`);
        expect(r.sections.map((s: { name: string }) => s.name)).toEqual(['Basics', 'Functions']);
        expect(r.sections[0].resourceScores).toEqual({ [f.alpha.resources[0]!]: 80 });
        expect(r.sections[1].resourceScores).toEqual({});
        expect(r.sections[0].assesmentIds).toEqual([rows[3]!.linkId]);
        expect(r.sections[0].resources[0].assesmentIds).toEqual([rows[0]!.linkId, rows[1]!.linkId]);
        expect(r.sections[0].resources[1].assesmentIds).toEqual([rows[2]!.linkId]);
        expect(r.tasks).toHaveLength(3);
      });

      it("never shows someone else's copy: 404, as for an unknown one", async () => {
        const asha = await h.learner();
        const ravi = await h.learner();
        const id = (await assign(asha, f.alpha.id)).json().data.assignedRoadmapId;
        const other = await call('GET', `/api/roadmap/assigned-roadmap/${id}`, ravi);
        expect(other.statusCode).toBe(404);
        expect(other.json().message).toBe('Assigned roadmap not found');
        expect(other.body).not.toContain(f.alpha.name);
        expect(
          (await call('GET', '/api/roadmap/assigned-roadmap/00000000-0000-4000-8000-000000000000', ravi))
            .statusCode,
        ).toBe(404);
        expect((await call('GET', '/api/roadmap/assigned-roadmap/nope', ravi)).statusCode).toBe(400);
        expect((await call('GET', `/api/roadmap/assigned-roadmap/${id}`, mentor)).statusCode).toBe(403);
        expect((await call('GET', '/api/roadmap/my-roadmaps', ravi)).json().data).toEqual([]);
        expect(
          (await call('PUT', `/api/roadmap/assigned-roadmap/${id}/task/${f.alpha.tasks[0]}/submit`, ravi, {}))
            .statusCode,
        ).toBe(404);
      });
    });

    describe('tasks', () => {
      it('submitting a task marks it isSubmited (again: the new link replaces the old)', async () => {
        const asha = await h.learner();
        const id = (await assign(asha, f.alpha.id)).json().data.assignedRoadmapId;
        const url = `/api/roadmap/assigned-roadmap/${id}/task/${f.alpha.tasks[1]}/submit`;
        const res = await call('PUT', url, asha, { url: 'https://github.com/asha/work' });
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toEqual({ ok: true });
        expect((await call('PUT', url, asha, {})).statusCode).toBe(200);
        const tasks = (await call('GET', `/api/roadmap/assigned-roadmap/${id}`, asha)).json().data.tasks;
        expect(tasks.map((t: { isSubmited: boolean }) => t.isSubmited)).toEqual([false, true, false]);
        const rows = await h.db
          .select()
          .from(taskSubmissions)
          .where(eq(taskSubmissions.assignedRoadmapId, id));
        expect(rows).toHaveLength(1);
        expect(rows[0]!.url).toBeNull();
      });

      it('refuses a task of another roadmap (404) and a link that is not one (400 naming url)', async () => {
        const asha = await h.learner();
        const id = (await assign(asha, f.gamma.id)).json().data.assignedRoadmapId;
        const foreign = await call(
          'PUT',
          `/api/roadmap/assigned-roadmap/${id}/task/${f.alpha.tasks[0]}/submit`,
          asha,
          {},
        );
        expect(foreign.statusCode).toBe(404);
        expect(foreign.json().message).toBe('Task not found in this roadmap');
        const alpha = (await assign(asha, f.alpha.id)).json().data.assignedRoadmapId;
        const bad = await call(
          'PUT',
          `/api/roadmap/assigned-roadmap/${alpha}/task/${f.alpha.tasks[0]}/submit`,
          asha,
          {
            url: 'not a link',
          },
        );
        expect(bad.statusCode).toBe(400);
        expect(bad.json().field).toBe('url');
      });
    });

    describe('selecting before sign-in, preview, claim', () => {
      it('anonymous select → preview → claim by the learner who signs in', async () => {
        const created = await call('POST', `/api/roadmap/create-roadmap/${f.alpha.id}`);
        expect(created.statusCode).toBe(201);
        const ar = created.json().data;
        expect(ar).toMatchObject({
          roadmapId: f.alpha.id,
          name: f.alpha.name,
          status: 'ONGOING',
          userId: null,
        });
        const [row] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.id, ar._id));
        expect(row).toMatchObject({ source: 'PUBLIC', userId: null });

        const preview = await call('GET', `/api/roadmap/assigned-roadmap-noauth/${ar._id}`);
        expect(preview.statusCode).toBe(200);
        expect(preview.json().data).toEqual({
          _id: ar._id,
          roadmapId: f.alpha.id,
          name: f.alpha.name,
          subject: { name: `Programming ${f.tag}` },
          sectionCount: 2,
          resourceCount: 4,
          sections: [
            { name: 'Basics', resources: [{ actualTitle: 'Intro video' }, { actualTitle: 'Guide page' }] },
            {
              name: 'Functions',
              resources: [{ actualTitle: 'Backwards marks' }, { actualTitle: 'End only' }],
            },
          ],
          claimed: false,
          mine: false,
          prerequisiteResults: null,
        });

        const asha = await h.learner();
        const claimed = await call('PUT', `/api/roadmap/assign-user-to-roadmap/${ar._id}`, asha);
        expect(claimed.statusCode).toBe(201);
        expect(claimed.json().data).toMatchObject({ _id: ar._id, userId: asha.id });
        expect((await call('GET', `/api/roadmap/assigned-roadmap/${ar._id}`, asha)).statusCode).toBe(200);
        expect(
          (await call('GET', `/api/roadmap/assigned-roadmap-noauth/${ar._id}`)).json().data.claimed,
        ).toBe(true);

        // claiming it again is fine; someone else is refused with a message; a mentor is not a learner
        const again = await call('PUT', `/api/roadmap/assign-user-to-roadmap/${ar._id}`, asha);
        expect(again.statusCode).toBe(201);
        expect(again.json().data._id).toBe(ar._id);
        const ravi = await h.learner();
        const stolen = await call('PUT', `/api/roadmap/assign-user-to-roadmap/${ar._id}`, ravi);
        expect(stolen.statusCode).toBe(400);
        expect(stolen.json().message).toBe(
          'This roadmap has already been claimed by another account. Please select it again.',
        );
        expect((await call('GET', `/api/roadmap/assigned-roadmap/${ar._id}`, ravi)).statusCode).toBe(404);
        expect((await call('PUT', `/api/roadmap/assign-user-to-roadmap/${ar._id}`, mentor)).statusCode).toBe(
          403,
        );
        expect((await call('PUT', `/api/roadmap/assign-user-to-roadmap/${ar._id}`)).statusCode).toBe(401);
      });

      it('claiming a roadmap the learner already has answers with their copy', async () => {
        const asha = await h.learner();
        const mine = (await assign(asha, f.gamma.id)).json().data.assignedRoadmapId;
        const anon = (await call('POST', `/api/roadmap/create-roadmap/${f.gamma.id}`)).json().data._id;
        const res = await call('PUT', `/api/roadmap/assign-user-to-roadmap/${anon}`, asha);
        expect(res.statusCode).toBe(201);
        expect(res.json().data._id).toBe(mine);
        expect(await rowsOf(asha.id)).toHaveLength(1);
      });

      it(`claiming a third ongoing roadmap is refused with '${LIMIT}'`, async () => {
        const asha = await h.learner();
        await assign(asha, f.alpha.id);
        await assign(asha, f.gamma.id);
        const anon = (await call('POST', `/api/roadmap/create-roadmap/${f.alpha.id}`)).json().data._id;
        // the anonymous copy is of a roadmap Asha has: she gets hers back, no limit involved
        expect((await call('PUT', `/api/roadmap/assign-user-to-roadmap/${anon}`, asha)).statusCode).toBe(201);
        const zeta = (await h.app.inject({ method: 'GET', url: '/api/roadmap/list/no-auth' }))
          .json()
          .data.find((r: { name: string }) => r.name === `Zeta empty ${f.tag}`)._id;
        const other = (await call('POST', `/api/roadmap/create-roadmap/${zeta}`)).json().data._id;
        const res = await call('PUT', `/api/roadmap/assign-user-to-roadmap/${other}`, asha);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(LIMIT);
        const [row] = await h.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.id, other));
        expect(row!.userId).toBeNull();
      });

      it('select with a learner token assigns to the caller; a mentor token is refused', async () => {
        const asha = await h.learner();
        const res = await call('POST', `/api/roadmap/create-roadmap/${f.alpha.id}`, asha);
        expect(res.statusCode).toBe(201);
        expect(res.json().data.userId).toBe(asha.id);
        const again = await call('POST', `/api/roadmap/create-roadmap/${f.alpha.id}`, asha);
        expect(again.json().data._id).toBe(res.json().data._id);
        const [row] = await rowsOf(asha.id);
        expect(row!.source).toBe('SELF');
        expect((await call('POST', `/api/roadmap/create-roadmap/${f.alpha.id}`, mentor)).statusCode).toBe(
          403,
        );
      });

      it('a roadmap with prerequisites is selected through its assessment, not directly', async () => {
        const res = await call('POST', `/api/roadmap/create-roadmap/${f.beta.id}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(/prerequisite assessment/);
        expect(res.json().errorCode).toBe('PREREQUISITE_ASSESSMENT_REQUIRED');
        // nor assigned by the learner directly (mentor §2.9, §4): nothing is written
        const nia = await h.learner();
        const direct = await call('POST', '/api/roadmap/assign-roadmap', nia, { roadmapId: f.beta.id });
        expect(direct.statusCode).toBe(400);
        expect(direct.json()).toMatchObject({
          field: 'roadmapId',
          errorCode: 'PREREQUISITE_ASSESSMENT_REQUIRED',
        });
        expect(await rowsOf(nia.id)).toHaveLength(0);
        expect((await call('POST', `/api/roadmap/create-roadmap/${f.hiddenId}`)).statusCode).toBe(404);
      });

      it('the preview answers 400 with a message for an unknown or malformed id; unknown claims are 404', async () => {
        const unknown = await call(
          'GET',
          '/api/roadmap/assigned-roadmap-noauth/00000000-0000-4000-8000-000000000000',
        );
        expect(unknown.statusCode).toBe(400);
        expect(unknown.json().message).toBe(
          'This roadmap link is not valid. Please select the roadmap again.',
        );
        const bad = await call('GET', '/api/roadmap/assigned-roadmap-noauth/12');
        expect(bad.statusCode).toBe(400);
        expect(bad.json().field).toBe('assignedRoadmapId');
        const asha = await h.learner();
        expect(
          (
            await call(
              'PUT',
              '/api/roadmap/assign-user-to-roadmap/00000000-0000-4000-8000-000000000000',
              asha,
            )
          ).statusCode,
        ).toBe(404);
      });

      it('a claimed copy keeps the prerequisite assessment taken before sign-in', async () => {
        const anon = (await call('POST', `/api/roadmap/create-roadmap/${f.gamma.id}`)).json().data._id;
        await h.db
          .insert(testLinks)
          .values({ linkId: `I${Date.now()}abcdef`, type: 'INITIAL-ASSESSMENT', assignedRoadmapId: anon });
        const asha = await h.learner();
        await call('PUT', `/api/roadmap/assign-user-to-roadmap/${anon}`, asha);
        const links = await h.db
          .select()
          .from(testLinks)
          .where(and(eq(testLinks.assignedRoadmapId, anon), eq(testLinks.userId, asha.id)));
        expect(links).toHaveLength(1);
      });
    });
  });
}
