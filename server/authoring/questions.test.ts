/**
 * The question editor's calls through the HTTP API (mentor §2.7, §2.8, §3 Question/Option, §4 builder and
 * type switching, §5 question editor rules, §7 authoring), with people signed in through the Auth emulator:
 * who may call every authoring call (signed out 401, a learner 403, malformed ids and bodies 400 naming the
 * field, nothing written), create (PREVIEW) then save (PUBLISH) for each of the six types under the
 * editor's rules, other tenants (read only once published, never changed), switching types, removing
 * options, images (the signed upload address, the upload itself, recording and removing the paths), code,
 * deleting, the feedback list and the subject list.
 */
import { allCalls } from '@shared/contract/registry';
import type { QuestionType } from '@shared/schemas/assessment';
import { editorMessages, type QuestionInput } from '@shared/schemas/authoring';
import { eq, inArray } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { questionFeedback } from '../assessments/tables';
import { languages } from '../db/schema';
import { questionOptions, questions } from '../questions/tables';
import {
  authoringApi,
  IMAGES,
  NIL,
  questionBody,
  type SubjectFixture,
  seedSubject,
  snapshot,
} from '../test/fixtures/authoring';
import type { Person } from '../test/harness';
import { type Json, setupServer } from '../test/helper';
import { questionFeedbackActivity, tenantAssessmentQuestions } from './tables';

const server = setupServer();
const api = authoringApi(server);
const { call, ok } = api;

const TYPES: QuestionType[] = ['MCQ', 'MSQ', 'CODE_MCQ', 'MCQ_IMAGE', 'MSQ_IMAGE', 'FILL_IN_BLANK'];
const authoringCalls = allCalls().filter(({ name }) => name.startsWith('authoring.'));
const fill = (path: string, value: (name: string) => string) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));

describe('question editor calls', () => {
  let mentor: Person;
  let rival: Person;
  let asha: Person;
  let s: SubjectFixture;
  const body = (type: QuestionType, overrides: Partial<QuestionInput> = {}) =>
    questionBody(type, s, overrides);
  const getQ = (id: string, who: Person = mentor) => ok('GET', `/admin/question/${id}`, who);

  beforeAll(async () => {
    [mentor, rival, asha] = await Promise.all([
      api.person('TENANT', 'Mira Mentor'),
      api.person('TENANT', 'Rex Rival'),
      api.person('USER', 'Asha Learner'),
    ]);
    s = await seedSubject(server);
  }, 120_000);

  describe('who may call', () => {
    it('declares every authoring call (admin and tenant paths) for TENANT callers only', () => {
      expect(authoringCalls.length).toBe(25);
      for (const { name, call: c } of authoringCalls) expect(c.access, name).toEqual(['TENANT']);
    });

    it('refuses a signed-out caller (401) and a learner (403) on every call, writing nothing', async () => {
      const draft = await api.createQuestion(mentor);
      const before = await snapshot(server);
      for (const { call: c } of authoringCalls) {
        const url = fill(c.path, () => draft);
        const payload = c.method === 'GET' ? undefined : {};
        const signedOut = await call(c.method as 'GET', url, undefined, payload);
        expect(signedOut.status, `${c.method} ${c.path}`).toBe(401);
        const learner = await call(c.method as 'GET', url, asha, payload);
        expect(learner.status, `${c.method} ${c.path}`).toBe(403);
        expect(learner.body.message).toBe('Not permitted');
      }
      expect(await snapshot(server)).toEqual(before);
    });

    it('answers a malformed id with 400 naming the field, on every call with an id', async () => {
      const before = await snapshot(server);
      for (const { call: c } of authoringCalls.filter(({ call: c }) => c.path.includes('{'))) {
        const names = [...c.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        for (const bad of names) {
          const url = fill(c.path, (n) => (n === bad ? 'not-an-id' : NIL));
          const res = await call(c.method as 'GET', url, mentor, c.method === 'GET' ? undefined : {});
          expect(res.status, `${c.method} ${url}`).toBe(400);
          expect(res.body.field, `${c.method} ${url}`).toBe(bad);
        }
      }
      expect(await snapshot(server)).toEqual(before);
    });

    it('answers malformed bodies and queries with 400 naming the field, writing nothing', async () => {
      const draft = await api.createQuestion(mentor);
      const assessment = await api.createAssessment(mentor, 'Malformed bodies');
      const before = await snapshot(server);
      const cases: [string, string, unknown, string, RegExp?][] = [
        ['POST', '/admin/question/create', { questionType: 'ESSAY' }, 'questionType'],
        ['POST', '/admin/question/create', { assessmentId: '42' }, 'assessmentId', /valid id/],
        ['PUT', `/admin/question/${draft}`, {}, 'question'],
        ['PUT', `/admin/question/${draft}`, body('MCQ', { subject: 'maths' as never }), 'subject'],
        ['PUT', `/admin/question/${draft}/change-type`, { questionType: 'ESSAY' }, 'questionType'],
        ['PUT', `/admin/question/update-imagepath/${draft}`, {}, 'questionType'],
        [
          'PUT',
          `/admin/question/update-imagepath/${draft}`,
          { questionType: 'MCQ_IMAGE', options: [{ _id: '42', value: 'x.png' }] },
          'options.0._id',
        ],
        ['PUT', `/admin/question/${draft}/delete-image`, { type: 'banner' }, 'type'],
        ['PUT', `/admin/question/${draft}/delete-image`, { type: 'option', optionIndex: 10 }, 'optionIndex'],
        [
          'POST',
          '/admin/question/signed-url',
          { type: 'question', questionId: draft, fileType: 'gif' },
          'fileType',
          /must be jpeg, png or webp/,
        ],
        ['POST', '/admin/question/signed-url', { type: 'question', fileType: 'png' }, 'questionId'],
        ['GET', '/tenant/question/search-list?limit=0', undefined, 'limit'],
        ['GET', `/tenant/question/search-list?searchText=${'a'.repeat(201)}`, undefined, 'searchText'],
        ['PUT', `/tenant/question/${draft}`, {}, 'assessmentId'],
        ['PUT', `/tenant/question/${draft}`, { assessmentId: 'abc' }, 'assessmentId'],
        ['POST', '/tenant/assessment/create', {}, 'name', /Assessment name cannot be empty/],
        ['PUT', `/tenant/assessment/${assessment}/assign-users`, {}, 'userIds', /Please provide valid input/],
      ];
      for (const [method, url, payload, field, message] of cases) {
        const res = await call(method as 'GET', url, mentor, payload);
        expect(res.status, `${method} ${url}`).toBe(400);
        expect(res.body.field, `${method} ${url}`).toBe(field);
        if (message) expect(res.body.fields[field]).toMatch(message);
      }
      expect(await snapshot(server)).toEqual(before);
    });
  });

  describe('creating and saving', () => {
    it('creates an empty question (PREVIEW, 4 empty options) owned by the caller; a fill-in-blank has one option and 10 points', async () => {
      const id = await api.createQuestion(mentor);
      const q = await getQ(id);
      expect(q).toMatchObject({
        _id: id,
        questionType: 'MCQ',
        status: 'PREVIEW',
        question: '',
        points: 10,
        createdBy: { _id: mentor.id, name: 'Mira Mentor' },
        countRepeatedQuestion: 0,
        feedbackCount: 0,
      });
      expect(q.options).toHaveLength(4);
      for (const o of q.options) expect(o).toMatchObject({ value: '', isCorrect: false, points: 0 });
      const fib = await getQ(await api.createQuestion(mentor, { questionType: 'FILL_IN_BLANK' }));
      expect(fib).toMatchObject({ questionType: 'FILL_IN_BLANK', status: 'PREVIEW', points: 10 });
      expect(fib.options.map((o: Json) => o.value)).toEqual(['']);
      const msq = await getQ(await api.createQuestion(mentor, { questionType: 'MSQ' }));
      expect(msq.options).toHaveLength(4);
    });

    it.each(TYPES)('saves a %s question and publishes it', async (type) => {
      const id = await api.createQuestion(mentor, { questionType: type });
      const sent = body(type);
      const saved = await ok('PUT', `/admin/question/${id}`, mentor, sent);
      expect(saved).toMatchObject({
        _id: id,
        question: sent.question,
        questionType: type,
        status: 'PUBLISH',
        subject: s.subjectId,
        topic: s.topicId,
        explanation: sent.explanation,
        tags: ['variables', 'basics'],
        optionType: type.endsWith('_IMAGE') ? 'IMAGE' : 'TEXT',
        points: 10,
        code: sent.code ?? null,
        questionImagePath: sent.questionImagePath ?? null,
        isQuestionImage: Boolean(sent.questionImagePath),
      });
      expect(saved.options.map((o: Json) => o.value)).toEqual(sent.options.map((o) => o.value));
      if (type !== 'FILL_IN_BLANK') {
        expect(saved.options.map((o: Json) => o.isCorrect)).toEqual(sent.options.map((o) => o.isCorrect));
        expect(saved.options.map((o: Json) => o.points)).toEqual(
          sent.options.map((o) => (o.isCorrect ? 10 : 0)),
        );
      }
      expect(await getQ(id)).toEqual(saved);
      const [row] = await server.db.select().from(questions).where(eq(questions.id, id));
      expect(row).toMatchObject({ status: 'PUBLISH', createdBy: mentor.id, questionType: type });
    });

    it('sets option points from correctness (10 or 0), whatever the editor sent', async () => {
      const id = await api.createQuestion(mentor, { questionType: 'MSQ' });
      const saved = await ok(
        'PUT',
        `/admin/question/${id}`,
        mentor,
        body('MSQ', {
          options: [
            { value: 'let', isCorrect: true, points: 3 },
            { value: 'const', isCorrect: true, points: 99 },
            { value: 'var', isCorrect: false, points: 10 },
            { value: 'goto', isCorrect: false },
          ],
        }),
      );
      expect(saved.options.map((o: Json) => o.points)).toEqual([10, 10, 0, 0]);
    });

    it('keeps the points of a fill-in-blank question (10 by default), drops its empty answers, and gives other types 10', async () => {
      const id = await api.createQuestion(mentor, { questionType: 'FILL_IN_BLANK' });
      const saved = await ok(
        'PUT',
        `/admin/question/${id}`,
        mentor,
        body('FILL_IN_BLANK', { points: 25, options: [{ value: '7' }, { value: '  ' }, { value: ' 8 ' }] }),
      );
      expect(saved.points).toBe(25);
      expect(saved.options.map((o: Json) => o.value)).toEqual(['7', '8']);
      const text = await ok(
        'PUT',
        `/admin/question/${id}`,
        mentor,
        body('FILL_IN_BLANK', { options: [{ value: 'Paris' }, { value: 'paris' }] }),
      );
      expect(text.points).toBe(10);
      expect(text.options.map((o: Json) => o.value)).toEqual(['Paris', 'paris']);
      const mcq = await api.createQuestion(mentor);
      expect((await ok('PUT', `/admin/question/${mcq}`, mentor, body('MCQ', { points: 25 }))).points).toBe(
        10,
      );
    });

    it('keeps the options the editor sends back (their ids, in the order sent), adds new ones and drops the rest', async () => {
      const id = await api.publishQuestion(mentor, body('MCQ'));
      const [a, b, c, d] = (await getQ(id)).options as Json[];
      const saved = await ok(
        'PUT',
        `/admin/question/${id}`,
        mentor,
        body('MCQ', {
          options: [
            { _id: c._id, value: 'let (fixed)', isCorrect: true },
            { _id: a._id, value: a.value, isCorrect: false },
            { value: 'new one', isCorrect: false },
            // an id of another question's option is a new option here
            { _id: NIL, value: 'stranger', isCorrect: false },
          ],
        }),
      );
      expect(saved.options.map((o: Json) => [o.value, o.isCorrect, o.points])).toEqual([
        ['let (fixed)', true, 10],
        [a.value, false, 0],
        ['new one', false, 0],
        ['stranger', false, 0],
      ]);
      expect(saved.options[0]._id).toBe(c._id);
      expect(saved.options[1]._id).toBe(a._id);
      expect([a._id, b._id, c._id, d._id, NIL]).not.toContain(saved.options[2]._id);
      expect([a._id, b._id, c._id, d._id, NIL]).not.toContain(saved.options[3]._id);
      const rows = await server.db
        .select()
        .from(questionOptions)
        .where(inArray(questionOptions.id, [b._id, d._id]));
      expect(rows).toEqual([]);
      expect(await getQ(id)).toEqual(saved);
    });

    it('refuses a question that breaks an editor rule with 400 naming the field, writing nothing', async () => {
      const id = await api.createQuestion(mentor);
      const before = await snapshot(server);
      const options = (values: string[], correct: number[]) =>
        values.map((value, i) => ({ value, isCorrect: correct.includes(i) }));
      const m = editorMessages;
      const cases: [string, QuestionInput, string, string][] = [
        ['no question', body('MCQ', { question: '   ' }), 'question', m.required],
        ['no subject', body('MCQ', { subject: null }), 'subject', m.required],
        ['no topic', body('MCQ', { topic: undefined }), 'topic', m.required],
        ['no explanation', body('MCQ', { explanation: [] }), 'explanation.0.value', m.required],
        [
          'a blank explanation',
          body('MCQ', { explanation: [{ type: 'TEXT', value: '  ' }] }),
          'explanation.0.value',
          m.required,
        ],
        ['no tag', body('MCQ', { tags: [] }), 'tags', m.required],
        [
          'MCQ, nothing correct',
          body('MCQ', { options: options(['a', 'b'], []) }),
          'correctAnswer',
          m.oneCorrect,
        ],
        [
          'MSQ, nothing correct',
          body('MSQ', { options: options(['a', 'b'], []) }),
          'correctAnswer',
          m.oneCorrect,
        ],
        [
          'MCQ, two correct',
          body('MCQ', { options: options(['a', 'b', 'c'], [0, 2]) }),
          'correctAnswer',
          m.onlyOneCorrect,
        ],
        [
          'CODE_MCQ, two correct',
          body('CODE_MCQ', { options: options(['a', 'b'], [0, 1]) }),
          'correctAnswer',
          m.onlyOneCorrect,
        ],
        [
          'MCQ_IMAGE, two correct',
          body('MCQ_IMAGE', { options: options(['a.png', 'b.png'], [0, 1]) }),
          'imageAnswer',
          m.onlyOneCorrect,
        ],
        [
          'MSQ_IMAGE, nothing correct',
          body('MSQ_IMAGE', { options: options(['a.png', 'b.png'], []) }),
          'imageAnswer',
          m.oneCorrect,
        ],
        [
          'an option without a value',
          body('MCQ', { options: options(['a', 'b', '  ', 'd'], [0]) }),
          'options.2.value',
          m.required,
        ],
        [
          'an image option without an image',
          body('MSQ_IMAGE', { options: options(['a.png', '', 'c.png'], [0]) }),
          'options.1.value',
          m.allImages,
        ],
        ['one option', body('MCQ', { options: options(['a'], [0]) }), 'options', m.minOptions],
        [
          'a blank without an answer',
          body('FILL_IN_BLANK', { options: [] }),
          'textCorrectAnswer',
          m.answerEmpty,
        ],
        [
          'a blank with an empty answer',
          body('FILL_IN_BLANK', { options: [{ value: '   ' }] }),
          'textCorrectAnswer',
          m.answerEmpty,
        ],
        [
          'a blank with numbers and text',
          body('FILL_IN_BLANK', { options: [{ value: '42' }, { value: 'forty-two' }] }),
          'textCorrectAnswer',
          m.answerKinds,
        ],
        ['a blank worth 0 points', body('FILL_IN_BLANK', { points: 0 }), 'points', ''],
        ['eleven options', body('MSQ', { options: options([...'abcdefghijk'], [0]) }), 'options', ''],
        ['an unknown type', body('MCQ', { questionType: 'ESSAY' as never }), 'questionType', ''],
      ];
      for (const [name, sent, field, message] of cases) {
        const res = await call('PUT', `/admin/question/${id}`, mentor, sent);
        expect(res.status, name).toBe(400);
        expect(Object.keys(res.body.fields), name).toContain(field);
        if (message) expect(res.body.fields[field], name).toBe(message);
      }
      // the valid MSQ with two correct answers and the image types' other message are not errors
      expect(await snapshot(server)).toEqual(before);
      expect((await getQ(id)).status).toBe('PREVIEW');
    });

    it('refuses a topic of another subject, or an unknown subject, writing nothing', async () => {
      const id = await api.createQuestion(mentor);
      const before = await snapshot(server);
      for (const sent of [
        body('MCQ', { topic: s.foreignTopicId }),
        body('MCQ', { subject: NIL }),
        body('MCQ', { topic: NIL }),
      ]) {
        const res = await call('PUT', `/admin/question/${id}`, mentor, sent);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          field: 'topic',
          message: 'The topic does not belong to the subject',
        });
      }
      expect(await snapshot(server)).toEqual(before);
      // the other topic of the same subject is fine
      const saved = await ok('PUT', `/admin/question/${id}`, mentor, body('MCQ', { topic: s.otherTopicId }));
      expect(saved).toMatchObject({ topic: s.otherTopicId, status: 'PUBLISH' });
    });
  });

  describe('the language of a question', () => {
    it('starts in the author’s last language (English at first) and takes another of the list on save', async () => {
      const lena = await api.person('TENANT', 'Lena Lang');
      const first = await api.createQuestion(lena);
      const startedIn = (await getQ(first, lena)).language as string;
      const [english] = await server.db.select().from(languages).where(eq(languages.id, startedIn));
      expect(english!.name).toBe('English');
      const [spanish] = await server.db
        .insert(languages)
        .values({ name: `Español ${Date.now()}` })
        .returning({ id: languages.id });
      const before = await snapshot(server);
      const unknown = await call('PUT', `/admin/question/${first}`, lena, body('MCQ', { language: NIL }));
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ field: 'language' });
      expect(await snapshot(server)).toEqual(before);
      const saved = await ok('PUT', `/admin/question/${first}`, lena, body('MCQ', { language: spanish!.id }));
      expect(saved.language).toBe(spanish!.id);
      // the next question starts in it; a save that leaves the language out keeps it
      const second = await api.createQuestion(lena);
      expect((await getQ(second, lena)).language).toBe(spanish!.id);
      expect((await ok('PUT', `/admin/question/${second}`, lena, body('MCQ'))).language).toBe(spanish!.id);
    });
  });

  describe("another tenant's questions", () => {
    it('reads a question of another tenant only once it is published, on both paths', async () => {
      const id = await api.createQuestion(mentor);
      for (const url of [`/admin/question/${id}`, `/tenant/question/${id}`]) {
        const res = await call('GET', url, rival);
        expect(res.status, url).toBe(404);
        expect(res.body.data).toBeUndefined();
        expect((await call('GET', url, mentor)).status, url).toBe(200);
      }
      await ok('PUT', `/admin/question/${id}`, mentor, body('MCQ'));
      for (const url of [`/admin/question/${id}`, `/tenant/question/${id}`]) {
        const res = await call('GET', url, rival);
        expect(res.status, url).toBe(200);
        expect(res.body.data).toMatchObject({ _id: id, status: 'PUBLISH', createdBy: { _id: mentor.id } });
      }
    });

    it('lets only the creator change or delete a question: every change call refuses another tenant, writing nothing', async () => {
      const published = await api.publishQuestion(mentor, body('CODE_MCQ'));
      const draft = await api.createQuestion(mentor, { questionType: 'MCQ_IMAGE' });
      for (const id of [published, draft]) {
        const q = await getQ(id);
        const before = await snapshot(server);
        const attempts: [string, string, unknown][] = [
          ['PUT', `/admin/question/${id}`, body('MCQ')],
          ['DELETE', `/admin/question/${id}`, undefined],
          ['PUT', `/admin/question/${id}/change-type`, { questionType: 'MSQ' }],
          ['PUT', `/admin/question/${id}/remove-option/${q.options[0]._id}`, undefined],
          [
            'PUT',
            `/admin/question/update-imagepath/${id}`,
            { questionType: 'MCQ', questionImagePath: 'x.png' },
          ],
          ['PUT', `/admin/question/${id}/delete-image`, { type: 'question' }],
          ['PUT', `/admin/question/delete-code/${id}`, undefined],
          ['POST', '/admin/question/signed-url', { type: 'question', questionId: id, fileType: 'png' }],
        ];
        for (const [method, url, payload] of attempts) {
          const res = await call(method as 'PUT', url, rival, payload);
          expect(res.status, `${method} ${url}`).toBe(403);
          expect(res.body.message).toBe('Only the creator of a question can change it.');
        }
        expect(await snapshot(server)).toEqual(before);
      }
      // the feedback of a published question is its creator's
      const feedback = await call('GET', `/admin/feedback-question/${published}`, rival);
      expect(feedback.status).toBe(403);
      expect((await call('GET', `/admin/feedback-question/${draft}`, rival)).status).toBe(404);
    });

    it('answers 404 for a question that does not exist, on every question call', async () => {
      const attempts: [string, string, unknown][] = [
        ['GET', `/admin/question/${NIL}`, undefined],
        ['GET', `/tenant/question/${NIL}`, undefined],
        ['PUT', `/admin/question/${NIL}`, body('MCQ')],
        ['DELETE', `/admin/question/${NIL}`, undefined],
        ['PUT', `/admin/question/${NIL}/change-type`, { questionType: 'MSQ' }],
        ['PUT', `/admin/question/${NIL}/remove-option/${NIL}`, undefined],
        [
          'PUT',
          `/admin/question/update-imagepath/${NIL}`,
          { questionType: 'MCQ', questionImagePath: 'x.png' },
        ],
        ['PUT', `/admin/question/${NIL}/delete-image`, { type: 'question' }],
        ['PUT', `/admin/question/delete-code/${NIL}`, undefined],
        ['POST', '/admin/question/signed-url', { type: 'question', questionId: NIL, fileType: 'png' }],
        ['GET', `/admin/feedback-question/${NIL}`, undefined],
      ];
      for (const [method, url, payload] of attempts) {
        const res = await call(method as 'PUT', url, mentor, payload);
        expect(res.status, `${method} ${url}`).toBe(404);
      }
    });
  });

  describe('switching the question type', () => {
    const change = (id: string, questionType: QuestionType) =>
      ok('PUT', `/admin/question/${id}/change-type`, mentor, { questionType });
    const optionRows = (id: string) =>
      server.db.select().from(questionOptions).where(eq(questionOptions.questionId, id));

    it('switches MCQ ↔ MSQ and MCQ_IMAGE ↔ MSQ_IMAGE keeping the options, with correct flags and points reset', async () => {
      for (const [from, to] of [
        ['MCQ', 'MSQ'],
        ['MSQ', 'MCQ'],
        ['MCQ_IMAGE', 'MSQ_IMAGE'],
        ['MSQ_IMAGE', 'MCQ_IMAGE'],
      ] as const) {
        const id = await api.publishQuestion(mentor, body(from));
        const before = await getQ(id);
        const after = await change(id, to);
        expect(after.questionType, `${from} → ${to}`).toBe(to);
        expect(after.options.map((o: Json) => [o._id, o.value])).toEqual(
          before.options.map((o: Json) => [o._id, o.value]),
        );
        for (const o of after.options) expect(o).toMatchObject({ isCorrect: false, points: 0 });
        expect(await getQ(id)).toEqual(after);
      }
    });

    it('clears the options of any other switch and removes the saved ones on the server', async () => {
      for (const [from, to] of [
        ['MSQ', 'CODE_MCQ'],
        ['MCQ', 'MCQ_IMAGE'],
        ['MSQ_IMAGE', 'MSQ'],
        ['CODE_MCQ', 'MCQ'],
        ['FILL_IN_BLANK', 'MSQ'],
      ] as const) {
        const id = await api.publishQuestion(mentor, body(from));
        const old = (await optionRows(id)).map((o) => o.id);
        const after = await change(id, to);
        expect(after.questionType, `${from} → ${to}`).toBe(to);
        expect(after.options).toHaveLength(4);
        for (const o of after.options) expect(o).toMatchObject({ value: '', isCorrect: false, points: 0 });
        const rows = await server.db.select().from(questionOptions).where(inArray(questionOptions.id, old));
        expect(rows, `${from} → ${to}`).toEqual([]);
        expect((await optionRows(id)).map((o) => o.id).sort()).toEqual(
          after.options.map((o: Json) => o._id).sort(),
        );
      }
    });

    it('switching to fill-in-blank sets 10 points and one empty option', async () => {
      const blank = await api.publishQuestion(mentor, body('FILL_IN_BLANK', { points: 25 }));
      expect((await getQ(blank)).points).toBe(25);
      await change(blank, 'MCQ');
      const back = await change(blank, 'FILL_IN_BLANK');
      expect(back).toMatchObject({ questionType: 'FILL_IN_BLANK', points: 10 });
      expect(back.options.map((o: Json) => o.value)).toEqual(['']);
      const msq = await api.publishQuestion(mentor, body('MSQ'));
      const fib = await change(msq, 'FILL_IN_BLANK');
      expect(fib.points).toBe(10);
      expect(fib.options).toHaveLength(1);
      expect(await optionRows(msq)).toHaveLength(1);
    });
  });

  describe('removing options', () => {
    it('removes a saved option while at least two remain', async () => {
      const id = await api.publishQuestion(mentor, body('MSQ'));
      const q = await getQ(id);
      const ids = q.options.map((o: Json) => o._id as string);
      const three = await ok('PUT', `/admin/question/${id}/remove-option/${ids[3]}`, mentor);
      expect(three.options.map((o: Json) => o._id)).toEqual(ids.slice(0, 3));
      // an option of another question, or none at all
      const other = await getQ(await api.publishQuestion(mentor, body('MCQ')));
      for (const optionId of [other.options[0]._id, NIL]) {
        const res = await call('PUT', `/admin/question/${id}/remove-option/${optionId}`, mentor);
        expect(res.status).toBe(404);
      }
      expect((await getQ(other._id)).options).toHaveLength(4);
      const two = await ok('PUT', `/admin/question/${id}/remove-option/${ids[2]}`, mentor);
      expect(two.options).toHaveLength(2);
      const last = await call('PUT', `/admin/question/${id}/remove-option/${ids[1]}`, mentor);
      expect(last.status).toBe(400);
      expect(last.body).toMatchObject({ field: 'options', message: editorMessages.minOptions });
      expect(
        (await server.db.select().from(questionOptions).where(eq(questionOptions.questionId, id))).length,
      ).toBe(2);
    });
  });

  describe('images and code', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    const signedUrl = (questionId: string, extra: Record<string, unknown>) =>
      ok('POST', '/admin/question/signed-url', mentor, { questionId, ...extra });
    const upload = (url: string, file: Buffer, contentType: string) => {
      const u = new URL(url);
      return server.app.inject({
        method: 'PUT',
        url: u.pathname + u.search,
        headers: { 'content-type': contentType },
        payload: file,
      });
    };
    const fetchFile = (path: string) => server.app.inject({ method: 'GET', url: new URL(path).pathname });

    it('gives a short-lived upload address for jpeg, png or webp images only', async () => {
      const id = await api.createQuestion(mentor, { questionType: 'MCQ_IMAGE' });
      const before = Date.now();
      const png = await signedUrl(id, { type: 'question', fileType: 'png' });
      const u = new URL(png.url);
      expect(u.pathname).toBe('/api/storage/upload');
      expect(u.searchParams.get('ct')).toBe('image/png');
      expect(u.searchParams.get('key')).toMatch(new RegExp(`^questions/${id}/question-\\d+\\.png$`));
      expect(Number(u.searchParams.get('max'))).toBe(2 * 1024 * 1024);
      expect(new URL(png.path).pathname).toBe(`/files/${u.searchParams.get('key')}`);
      const ttl = Date.parse(png.expiresAt) - before;
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(3600_000);
      const jpg = await signedUrl(id, { type: 'option', optionIndex: 2, fileType: 'jpg' });
      expect(new URL(jpg.url).searchParams.get('ct')).toBe('image/jpeg');
      expect(new URL(jpg.url).searchParams.get('key')).toMatch(/\/option-2-\d+\.jpeg$/);
      const webp = await signedUrl(id, { type: 'option', optionIndex: 0, fileType: 'webp' });
      expect(new URL(webp.url).searchParams.get('ct')).toBe('image/webp');
      for (const fileType of ['gif', 'svg', 'pdf']) {
        const res = await call('POST', '/admin/question/signed-url', mentor, {
          type: 'question',
          questionId: id,
          fileType,
        });
        expect(res.status).toBe(400);
        expect(res.body.field).toBe('fileType');
      }
    });

    it('takes an upload of the signed type and size only, and not once the address has expired', async () => {
      const id = await api.createQuestion(mentor);
      const { url, path, expiresAt } = await signedUrl(id, { type: 'question', fileType: 'png' });
      const wrongType = await upload(url, IMAGES.jpeg, 'image/jpeg');
      expect(wrongType.statusCode).toBe(415);
      expect(wrongType.json().field).toBe('content-type');
      const disguised = await upload(url, IMAGES.jpeg, 'image/png');
      expect(disguised.statusCode).toBe(415);
      expect(disguised.json().message).toBe('The file is not a PNG image.');
      const tooBig = await upload(
        url,
        Buffer.concat([IMAGES.png, Buffer.alloc(2 * 1024 * 1024)]),
        'image/png',
      );
      expect(tooBig.statusCode).toBe(413);
      // the clock passes the address's expiry
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.parse(expiresAt) + 1000);
      const late = await upload(url, IMAGES.png, 'image/png');
      vi.useRealTimers();
      expect(late.statusCode).toBe(403);
      expect(late.json().errorCode).toBe('UPLOAD_URL_EXPIRED');
      expect((await fetchFile(path)).statusCode).toBe(404);
      // in time, the right file
      const up = await upload(url, IMAGES.png, 'image/png');
      expect(up.statusCode).toBe(200);
      expect(up.json().data.size).toBe(IMAGES.png.length);
      const file = await fetchFile(path);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
    });

    it('records the question image and option images, and removes them', async () => {
      const id = await api.createQuestion(mentor, { questionType: 'MCQ_IMAGE' });
      const optionIds = (await getQ(id)).options.map((o: Json) => o._id as string);
      const question = await signedUrl(id, { type: 'question', fileType: 'jpeg' });
      expect((await upload(question.url, IMAGES.jpeg, 'image/jpeg')).statusCode).toBe(200);
      const option = await signedUrl(id, { type: 'option', optionIndex: 1, fileType: 'webp' });
      expect((await upload(option.url, IMAGES.webp, 'image/webp')).statusCode).toBe(200);

      const withImage = await ok('PUT', `/admin/question/update-imagepath/${id}`, mentor, {
        questionType: 'MCQ_IMAGE',
        questionImagePath: question.path,
      });
      expect(withImage).toMatchObject({ questionImagePath: question.path, isQuestionImage: true });
      const withOption = await ok('PUT', `/admin/question/update-imagepath/${id}`, mentor, {
        questionType: 'MCQ_IMAGE',
        options: [{ _id: optionIds[1], value: option.path }],
      });
      expect(withOption.options.map((o: Json) => o.value)).toEqual(['', option.path, '', '']);
      // without ids, options are matched by position
      const byPosition = await ok('PUT', `/admin/question/update-imagepath/${id}`, mentor, {
        questionType: 'MCQ_IMAGE',
        options: [{ value: 'https://cdn.example.com/a.png' }, { value: option.path }, { value: 'c.png' }],
      });
      expect(byPosition.options.map((o: Json) => o._id)).toEqual(optionIds);
      expect(byPosition.options.map((o: Json) => o.value)).toEqual([
        'https://cdn.example.com/a.png',
        option.path,
        'c.png',
        '',
      ]);
      expect(byPosition.questionImagePath).toBe(question.path);

      const noIndex = await call('PUT', `/admin/question/${id}/delete-image`, mentor, { type: 'option' });
      expect(noIndex.status).toBe(400);
      expect(noIndex.body.field).toBe('optionIndex');
      const outOfRange = await call('PUT', `/admin/question/${id}/delete-image`, mentor, {
        type: 'option',
        optionIndex: 9,
      });
      expect(outOfRange.status).toBe(404);
      const optionGone = await ok('PUT', `/admin/question/${id}/delete-image`, mentor, {
        type: 'option',
        fileType: 'webp',
        optionIndex: 1,
      });
      expect(optionGone.options.map((o: Json) => o.value)).toEqual([
        'https://cdn.example.com/a.png',
        '',
        'c.png',
        '',
      ]);
      expect(optionGone.questionImagePath).toBe(question.path);
      const imageGone = await ok('PUT', `/admin/question/${id}/delete-image`, mentor, { type: 'question' });
      expect(imageGone).toMatchObject({ questionImagePath: null, isQuestionImage: false });
      expect(imageGone.options.map((o: Json) => o.value)).toEqual(
        optionGone.options.map((o: Json) => o.value),
      );
    });

    it('removes the code of a question', async () => {
      const id = await api.publishQuestion(mentor, body('CODE_MCQ'));
      expect((await getQ(id)).code).toContain('console.log');
      const res = await ok('PUT', `/admin/question/delete-code/${id}`, mentor);
      expect(res).toMatchObject({ _id: id, code: null, status: 'PUBLISH' });
      const [row] = await server.db.select().from(questions).where(eq(questions.id, id));
      expect(row!.code).toBeNull();
    });
  });

  describe('deleting', () => {
    it('deletes an unused question with its options and takes it out of assessments', async () => {
      const assessment = await api.createAssessment(mentor, 'Deleting');
      const id = await api.publishQuestion(mentor, body('MCQ'), assessment);
      const kept = await api.publishQuestion(mentor, body('MSQ'), assessment);
      expect((await ok('GET', `/tenant/assessment/${assessment}`, mentor)).questions).toHaveLength(2);
      const res = await call('DELETE', `/admin/question/${id}`, mentor);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ok: true });
      expect((await call('GET', `/admin/question/${id}`, mentor)).status).toBe(404);
      expect(await server.db.select().from(questions).where(eq(questions.id, id))).toEqual([]);
      expect(
        await server.db.select().from(questionOptions).where(eq(questionOptions.questionId, id)),
      ).toEqual([]);
      const left = await ok('GET', `/tenant/assessment/${assessment}`, mentor);
      expect(left.questions.map((q: Json) => q._id)).toEqual([kept]);
      const rows = await server.db
        .select()
        .from(tenantAssessmentQuestions)
        .where(eq(tenantAssessmentQuestions.questionId, id));
      expect(rows).toEqual([]);
      expect((await call('DELETE', `/admin/question/${id}`, mentor)).status).toBe(404);
    });
  });

  describe('feedback', () => {
    it("lists learners' feedback on the creator's question, newest first, with its activity trail", async () => {
      const id = await api.publishQuestion(mentor, body('MCQ'));
      const quiet = await api.publishQuestion(mentor, body('MSQ'));
      expect(await ok('GET', `/admin/feedback-question/${quiet}`, mentor)).toEqual([]);
      const [older, newer] = await server.db
        .insert(questionFeedback)
        .values([
          {
            questionId: id,
            userId: asha.id,
            feedback: 'The second option is also right.',
            createdAt: new Date(Date.now() - 3600_000),
          },
          { questionId: id, userId: asha.id, feedback: 'The wording is unclear to me.', status: 'RESOLVED' },
        ])
        .returning({ id: questionFeedback.id });
      await server.db.insert(questionFeedbackActivity).values([
        {
          feedbackId: newer!.id,
          userId: mentor.id,
          message: 'Looking into it',
          toStatus: 'IN_PROGRESS',
          createdAt: new Date(Date.now() - 60_000),
        },
        { feedbackId: newer!.id, userId: mentor.id, message: 'Reworded', toStatus: 'RESOLVED' },
      ]);
      const list = await ok('GET', `/admin/feedback-question/${id}`, mentor);
      expect(list.map((f: Json) => f._id)).toEqual([newer!.id, older!.id]);
      expect(list[0]).toMatchObject({
        feedback: 'The wording is unclear to me.',
        status: 'RESOLVED',
        userId: { name: 'Asha Learner', role: 'USER' },
        activites: [
          { message: 'Looking into it', toStatus: 'IN_PROGRESS', userId: { name: 'Mira Mentor' } },
          { message: 'Reworded', toStatus: 'RESOLVED', userId: { name: 'Mira Mentor' } },
        ],
      });
      expect(list[1]).toMatchObject({ status: 'OPEN', activites: [] });
      expect((await getQ(id)).feedbackCount).toBe(2);
    });
  });

  describe("the platform's own questions (no creator)", () => {
    it("lets no tenant read the feedback on a question of the platform's bank: there is no platform role", async () => {
      // a seeded question of the platform's bank: published, created by nobody
      const id = await api.publishQuestion(mentor, body('MCQ'));
      await server.db.update(questions).set({ createdBy: null }).where(eq(questions.id, id));
      await server.db.insert(questionFeedback).values({
        questionId: id,
        userId: asha.id,
        feedback: 'Private: I think option two is right too.',
      });
      for (const who of [mentor, rival]) {
        const res = await call('GET', `/admin/feedback-question/${id}`, who);
        expect(res.status).toBe(403);
        expect(res.body.message).toBe('Only the creator of a question can read its feedback.');
        expect(JSON.stringify(res.body)).not.toContain('option two');
        expect(JSON.stringify(res.body)).not.toContain('Asha');
      }
      // the question itself stays readable to every tenant, as a published question is
      expect((await getQ(id, rival)).createdBy).toBeNull();
    });
  });

  describe('subjects', () => {
    it('lists the subjects with their topics for the editor', async () => {
      const list = await ok('GET', '/admin/subject/subject-list', mentor);
      const mine = list.find((x: Json) => x._id === s.subjectId);
      expect(mine.name).toBe(s.subjectName);
      expect(mine.topics.map((t: Json) => t._id).sort()).toEqual([s.topicId, s.otherTopicId].sort());
    });
  });
});
