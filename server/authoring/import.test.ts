/**
 * The batch import (decision 012) through the HTTP API, on PGlite and PostgreSQL: each question is created
 * whole — options, images, its place in an assessment, where it came from — or not at all; a question with a
 * bad image leaves nothing behind and the others of its batch go on; running the import again creates
 * nothing twice and says `unchanged`; a changed question is `changed` until `update` rewrites it (keeping
 * its option ids); a question the caller created and exported (`waymark:{id}`) is itself; two imports of the
 * same file at once create each question once; and every refusal names its field.
 */
import { fingerprint } from '@shared/formats/fingerprint';
import type { QuestionInput } from '@shared/schemas/authoring';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { questionOptions, questions } from '../questions/tables';
import {
  authoringApi,
  questionBody,
  type SubjectFixture,
  seedSubject,
  snapshot,
} from '../test/fixtures/authoring';
import type { Person } from '../test/harness';
import { setupServer } from '../test/helper';
import { questionImportSources, tenantAssessmentQuestions } from './tables';

const server = setupServer();
const api = authoringApi(server);
const { call, ok } = api;

/** The first bytes of a PNG of this size: enough for the upload route's and the import's checks. */
function pngHead(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 2, 0, 0, 0], 16);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

const fp = (q: QuestionInput, image: string | null = null) =>
  fingerprint({
    question: q.question,
    questionType: q.questionType ?? 'MCQ',
    code: q.code,
    points: q.points,
    subject: q.subject,
    topic: q.topic,
    options: q.options.map((o) => ({ value: o.value, isCorrect: o.isCorrect ?? false })),
    explanation: q.explanation,
    tags: q.tags,
    image,
  });

describe('importing a bank of questions', () => {
  let mentor: Person;
  let rival: Person;
  let learner: Person;
  let s: SubjectFixture;
  const body = (text: string, extra: Partial<QuestionInput> = {}) =>
    questionBody('MCQ', s, { question: text, ...extra });
  const item = async (key: string, q: QuestionInput, uploads?: object) => ({
    key,
    fingerprint: await fp(q),
    question: q,
    ...(uploads ? { uploads } : {}),
  });
  const upload = async (who: Person, bytes: Buffer, fileType = 'png') => {
    const { url, key } = await ok('POST', '/admin/question/import/signed-url', who, { fileType });
    const u = new URL(url);
    const res = await server.app.inject({
      method: 'PUT',
      url: u.pathname + u.search,
      headers: { 'content-type': `image/${fileType}` },
      payload: bytes,
    });
    expect(res.statusCode).toBe(200);
    return key as string;
  };
  const sourcesOf = (who: Person) =>
    server.db.select().from(questionImportSources).where(eq(questionImportSources.authorId, who.id));

  beforeAll(async () => {
    [mentor, rival, learner] = await Promise.all([
      api.person('TENANT', 'Ines Importer'),
      api.person('TENANT', 'Rita Rival'),
      api.person('USER', 'Leo Learner'),
    ]);
    s = await seedSubject(server);
  }, 120_000);

  it('creates each question published and whole, and a run again creates nothing and says unchanged', async () => {
    const batch = [await item('gift:a', body('Import A')), await item('gift:b', body('Import B'))];
    const check = await ok('POST', '/admin/question/import/check', mentor, {
      items: batch.map(({ key, fingerprint }) => ({ key, fingerprint })),
    });
    expect(check.map((c: { status: string }) => c.status)).toEqual(['new', 'new']);

    const first = await ok('POST', '/admin/question/import', mentor, { questions: batch });
    expect(first.map((r: { status: string }) => r.status)).toEqual(['created', 'created']);
    const saved = await ok('GET', `/admin/question/${first[0].questionId}`, mentor);
    expect(saved).toMatchObject({ question: 'Import A', status: 'PUBLISH', createdBy: { _id: mentor.id } });
    expect(saved.options.map((o: { value: string }) => o.value)).toEqual(['const', 'var', 'let', 'static']);

    const before = await snapshot(server);
    const again = await ok('POST', '/admin/question/import', mentor, { questions: batch });
    expect(again).toEqual(
      first.map((r: { key: string; questionId: string }) => ({ ...r, status: 'unchanged' })),
    );
    expect(await snapshot(server)).toEqual(before);
    const recheck = await ok('POST', '/admin/question/import/check', mentor, {
      items: batch.map(({ key, fingerprint }) => ({ key, fingerprint })),
    });
    expect(recheck.map((c: { status: string }) => c.status)).toEqual(['unchanged', 'unchanged']);
  });

  it('creates an imported question without explanation or tags, which the editor still asks for (decision 032)', async () => {
    // a Moodle or Canvas question: no general feedback, no tags
    const bare = body('Imported bare', { explanation: [], tags: [] });
    const [created] = await ok('POST', '/admin/question/import', mentor, {
      questions: [await item('moodle-question:301', bare)],
    });
    expect(created).toMatchObject({ status: 'created' });
    const saved = await ok('GET', `/admin/question/${created.questionId}`, mentor);
    expect(saved).toMatchObject({ question: 'Imported bare', explanation: [], tags: [], status: 'PUBLISH' });
    const recheck = await ok('POST', '/admin/question/import/check', mentor, {
      items: [{ key: 'moodle-question:301', fingerprint: await fp(bare) }],
    });
    expect(recheck[0].status).toBe('unchanged');
    // saved from the editor, it needs them as any question does
    const edited = await call('PUT', `/admin/question/${created.questionId}`, mentor, bare);
    expect(edited.status).toBe(400);
    expect(edited.body.fields).toMatchObject({ 'explanation.0.value': 'Required', tags: 'Required' });
  });

  it('says changed for a question whose content changed, and update rewrites it keeping its option ids', async () => {
    const original = await item('gift:c', body('Import C'));
    const [created] = await ok('POST', '/admin/question/import', mentor, { questions: [original] });
    const optionIds = (await ok('GET', `/admin/question/${created.questionId}`, mentor)).options.map(
      (o: { _id: string }) => o._id,
    );
    const edited = await item('gift:c', body('Import C, reworded', { tags: ['renamed'] }));
    const [changed] = await ok('POST', '/admin/question/import', mentor, { questions: [edited] });
    expect(changed).toEqual({ key: 'gift:c', status: 'changed', questionId: created.questionId });
    expect((await ok('GET', `/admin/question/${created.questionId}`, mentor)).question).toBe('Import C');

    const [updated] = await ok('POST', '/admin/question/import', mentor, {
      questions: [edited],
      update: true,
    });
    expect(updated).toEqual({ key: 'gift:c', status: 'updated', questionId: created.questionId });
    const now = await ok('GET', `/admin/question/${created.questionId}`, mentor);
    expect(now).toMatchObject({ question: 'Import C, reworded', tags: ['renamed'] });
    expect(now.options.map((o: { _id: string }) => o._id)).toEqual(optionIds);
    const [after] = await ok('POST', '/admin/question/import', mentor, { questions: [edited] });
    expect(after.status).toBe('unchanged');
  });

  it('leaves nothing behind of a question whose image is bad, and creates the rest of its batch', async () => {
    const banner = await upload(mentor, pngHead(1200, 400));
    const small = await upload(mentor, pngHead(300, 100));
    const theirs = await upload(rival, pngHead(1200, 400));
    const never = `imports/${mentor.id}/never-uploaded.png`;
    const batch = [
      await item('img:good', body('With a banner'), { question: banner }),
      await item('img:small', body('With a small image'), { question: small }),
      await item('img:theirs', body("With someone else's image"), { question: theirs }),
      await item('img:never', body('With an image never uploaded'), { question: never }),
      await item('img:option', questionBody('MCQ_IMAGE', s, { questionImagePath: null }), {
        options: [null, never],
      }),
    ];
    const before = await snapshot(server);
    const results = await ok('POST', '/admin/question/import', mentor, { questions: batch });
    expect(results.map((r: { status: string; field?: string }) => [r.status, r.field])).toEqual([
      ['created', undefined],
      ['failed', 'image'],
      ['failed', 'image'],
      ['failed', 'image'],
      ['failed', 'options: option 2'],
    ]);
    expect(results[1].message).toContain('Image dimension should be 1200*400 pixels.');
    expect(results[2].message).toContain('is not an image you uploaded for this import');
    expect(results[3].message).toContain('was never uploaded');
    const after = await snapshot(server);
    expect(after.questions.length).toBe(before.questions.length + 1);
    expect(after.options.length).toBe(before.options.length + 4);
    const keys = (await sourcesOf(mentor)).map((r) => r.sourceKey);
    expect(keys).toContain('img:good');
    expect(keys.filter((k) => k.startsWith('img:') && k !== 'img:good')).toEqual([]);
    const created = await ok('GET', `/admin/question/${results[0].questionId}`, mentor);
    expect(created.questionImagePath).toMatch(new RegExp(`/files/imports/${mentor.id}/`));
    const image = await server.app.inject({
      method: 'GET',
      url: new URL(created.questionImagePath).pathname,
    });
    expect(image.statusCode).toBe(200);
  });

  it('adds the questions to an assessment of the caller, and refuses one of someone else', async () => {
    const assessmentId = await api.createAssessment(mentor, 'Imported week');
    const batch = [
      await item('gift:a', body('Import A')),
      await item('asmt:new', body('Only in the assessment')),
    ];
    const results = await ok('POST', '/admin/question/import', mentor, { questions: batch, assessmentId });
    expect(results.map((r: { status: string }) => r.status)).toEqual(['unchanged', 'created']);
    const linked = await server.db
      .select()
      .from(tenantAssessmentQuestions)
      .where(eq(tenantAssessmentQuestions.assessmentId, assessmentId));
    expect(linked.map((l) => l.questionId).sort()).toEqual(
      results.map((r: { questionId: string }) => r.questionId).sort(),
    );
    const refused = await call('POST', '/admin/question/import', rival, { questions: batch, assessmentId });
    expect(refused.status).toBe(404);
  });

  it('knows a question the caller created by its Waymark id, as a bank exported and imported again', async () => {
    const q = body('Written in the editor');
    const id = await api.publishQuestion(mentor, q);
    const saved = await ok('GET', `/admin/question/${id}`, mentor);
    const asExported = { ...q, tags: saved.tags };
    const [same] = await ok('POST', '/admin/question/import', mentor, {
      questions: [await item(`waymark:${id}`, asExported)],
    });
    expect(same).toEqual({ key: `waymark:${id}`, status: 'unchanged', questionId: id });
    // someone else importing the same file gets their own copy
    const [copy] = await ok('POST', '/admin/question/import', rival, {
      questions: [await item(`waymark:${id}`, asExported)],
    });
    expect(copy.status).toBe('created');
    expect(copy.questionId).not.toBe(id);
  });

  it('creates each question once when two imports of the same file run at once', async () => {
    const batch = await Promise.all(
      Array.from({ length: 5 }, (_, i) => item(`race:${i}`, body(`Raced question ${i}`))),
    );
    const [a, b] = await Promise.all([
      ok('POST', '/admin/question/import', mentor, { questions: batch }),
      ok('POST', '/admin/question/import', mentor, { questions: batch }),
    ]);
    for (let i = 0; i < batch.length; i++) {
      expect([a[i].status, b[i].status].sort()).toEqual(['created', 'unchanged']);
      expect(a[i].questionId).toBe(b[i].questionId);
    }
    const rows = await server.db
      .select()
      .from(questions)
      .where(and(eq(questions.createdBy, mentor.id), eq(questions.question, 'Raced question 0')));
    expect(rows.length).toBe(1);
    const options = await server.db
      .select()
      .from(questionOptions)
      .where(eq(questionOptions.questionId, rows[0]!.id));
    expect(options.length).toBe(4);
  });

  it('refuses bad input naming the field, writes nothing, and lets only mentors import', async () => {
    const before = await snapshot(server);
    const good = await item('bad:1', body('Fine'));
    const cases = [
      { questions: [] },
      { questions: [{ ...good, fingerprint: 'nope' }] },
      { questions: [{ ...good, question: { ...good.question, options: [] } }] },
      { questions: [{ ...good, key: '' }] },
    ];
    for (const payload of cases) {
      const res = await call('POST', '/admin/question/import', mentor, payload);
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.body.message).toBeTruthy();
    }
    const wrongTopic = await ok('POST', '/admin/question/import', mentor, {
      questions: [await item('bad:topic', body('Wrong topic', { topic: s.foreignTopicId }))],
    });
    expect(wrongTopic[0]).toMatchObject({ status: 'failed', field: 'topic' });
    expect(await snapshot(server)).toEqual(before);
    expect((await call('POST', '/admin/question/import', undefined, { questions: [good] })).status).toBe(401);
    expect((await call('POST', '/admin/question/import', learner, { questions: [good] })).status).toBe(403);
    expect((await call('POST', '/admin/question/import/check', learner, { items: [good] })).status).toBe(403);
    expect(
      (await call('POST', '/admin/question/import/signed-url', mentor, { fileType: 'gif' })).status,
    ).toBe(400);
  });
});
