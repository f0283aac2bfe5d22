/**
 * A test never mixes languages (decision 010): a subject test draws its questions in the
 * learner's language — the language of their roadmap in that subject (else of their latest roadmap, else
 * the one most of the subject's questions are in) — and a resource, section or final test in its roadmap's.
 * On the demo content: the English "Programming" subject test drew Spanish questions from the Spanish
 * roadmap "Python para principiantes".
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roadmaps, sections } from '../catalogue/tables';
import { subjects } from '../db/schema';
import { seedCatalogue } from '../demo/catalogue';
import { assignTo, calls } from '../test/fixtures/assessments';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';

/** `r` is a roadmap the target `t` belongs to: the roadmap itself, a section's or a resource's. */
const ASSESSED_ROADMAP = sql`(t.kind = 'ROADMAP' and r.id = t.target_id)
  or (t.kind = 'SECTION' and r.id = (select s.roadmap_id from sections s where s.id = t.target_id))
  or (t.kind = 'RESOURCE' and r.id in (
    select s.roadmap_id from section_resources sr join sections s on s.id = sr.section_id
    where sr.resource_id = t.target_id))`;

for (const backend of BACKENDS) {
  describe(`the language of a test on ${backend}`, () => {
    let h: Harness;
    let api: ReturnType<typeof calls>;
    let programming: string;
    let dataScience: string;

    /** A learner with these demo roadmaps assigned, in this order. */
    async function learnerWith(...names: string[]): Promise<{ me: Person; assigned: string[] }> {
      const me = await h.learner();
      const assigned: string[] = [];
      for (const name of names) {
        const [rm] = await h.db.select({ id: roadmaps.id }).from(roadmaps).where(eq(roadmaps.name, name));
        const sectionIds = (
          await h.db
            .select({ id: sections.id })
            .from(sections)
            .where(eq(sections.roadmapId, rm!.id))
            .orderBy(sections.position)
        ).map((s) => s.id);
        assigned.push(
          await assignTo(h.db, me.id, { roadmapId: rm!.id, sectionIds: sectionIds as [string, string] }),
        );
      }
      return { me, assigned };
    }

    /**
     * The languages of a link's questions, judged by the roadmaps they assess (directly, or through a section
     * or a resource) — not by anything the draw itself reads.
     */
    async function languagesOf(linkId: string): Promise<string[]> {
      const ids = (await api.questionsOf(linkId)).map((q) => q._id);
      const rows = (await h.db.execute(sql`
        select distinct l.name from question_targets t
        join roadmaps r on ${ASSESSED_ROADMAP}
        join languages l on l.id = r.language_id
        where t.question_id in ${ids}`)) as unknown as { rows: { name: string }[] };
      return rows.rows.map((r) => r.name).sort();
    }

    beforeAll(async () => {
      h = await openHarness(backend);
      api = calls(h.app);
      await seedCatalogue(h.db);
      const subjectId = async (name: string) =>
        (await h.db.select({ id: subjects.id }).from(subjects).where(eq(subjects.name, name)))[0]!.id;
      programming = await subjectId('Programming');
      dataScience = await subjectId('Data Science');
    }, 180_000);

    afterAll(async () => {
      await h?.close();
    });

    const subjectTest = (me: Person, subject: string) =>
      api.create(me, { type: 'SUBJECT', subject, lookingForJob: 'NO' });

    it('draws an English learner’s Programming test in English only (the Spanish roadmap’s questions stay out)', async () => {
      // three learners: the old draw took 4 to 5 Spanish questions of 20 nearly every time
      for (let i = 0; i < 3; i++) {
        const { me } = await learnerWith('JavaScript Foundations');
        const res = await subjectTest(me, programming);
        expect(res.statusCode, res.body).toBe(200);
        const linkId = res.json().data.testLinkId as string;
        expect((await api.questionsOf(linkId)).length).toBe(20);
        expect(await languagesOf(linkId)).toEqual(['English']);
      }
    });

    it('draws a Spanish learner’s Programming test in Spanish only', async () => {
      const { me } = await learnerWith('Python para principiantes');
      const res = await subjectTest(me, programming);
      expect(res.statusCode, res.body).toBe(200);
      const linkId = res.json().data.testLinkId as string;
      expect(await languagesOf(linkId)).toEqual(['Spanish']);
      expect((await api.questionsOf(linkId)).length).toBeGreaterThanOrEqual(10);
    });

    it('follows the roadmap of the subject over a later roadmap of another subject', async () => {
      const { me } = await learnerWith('Python para principiantes', 'SQL Essentials');
      const linkId = (await subjectTest(me, programming)).json().data.testLinkId as string;
      expect(await languagesOf(linkId)).toEqual(['Spanish']);
    });

    it('without a roadmap, uses the language most of the subject’s questions are in', async () => {
      const me = await h.learner();
      const res = await subjectTest(me, programming);
      expect(res.statusCode, res.body).toBe(200);
      expect(await languagesOf(res.json().data.testLinkId)).toEqual(['English']);
    });

    it('says so when the subject has no questions in the learner’s language', async () => {
      const { me } = await learnerWith('Python para principiantes');
      const res = await subjectTest(me, dataScience);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        field: 'subject',
        message: 'There are no questions for this subject in Spanish yet. Please try another one later.',
      });
    });

    it('keeps resource, section and final tests in their roadmap’s language', async () => {
      const { me, assigned } = await learnerWith('Python para principiantes');
      const linkId = await api.createOk(me, { type: 'ROADMAP', assignedRoadmapId: assigned[0] });
      expect(await languagesOf(linkId)).toEqual(['Spanish']);
      // every question of the bank has the language of what it assesses
      const mixed = (await h.db.execute(sql`
        select q.id from questions q join question_targets t on t.question_id = q.id
        join roadmaps r on ${ASSESSED_ROADMAP}
        where r.language_id <> q.language_id`)) as unknown as { rows: unknown[] };
      expect(mixed.rows).toEqual([]);
    });
  });
}
