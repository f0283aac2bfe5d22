/**
 * Tenants' own assessments through the HTTP API (mentor §2.7, §5 create and share rules, §7 tenant
 * assessment calls, §9), with people signed in through the Auth emulator: creating (name trimmed, 'Assessment
 * name cannot be empty.'), listing, reading, adding and removing questions (idempotent, in the order added;
 * a question created inside an assessment joins it when first saved, so a draft left behind never counts),
 * another tenant's assessment refused, the builder's search (lower-cased; blank lists everything visible),
 * and sharing (at least 10 published questions, the tenant's own learners, start not before now on a
 * 15-minute step, at least an hour, 'Please provide valid input'): each learner gets a CUSTOM-TEST link
 * whose window behaves as learner §4 describes, and a shared question is withdrawn rather than deleted.
 */
import { attemptHeaders, newAttemptToken } from '@shared/rules/attempt-token';
import { customTestWindow } from '@shared/rules/test-status';
import type { QuestionType } from '@shared/schemas/assessment';
import { editorMessages, type QuestionInput } from '@shared/schemas/authoring';
import { and, eq, inArray } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testAnswers, testLinkQuestions, testLinks } from '../assessments/tables';
import { outbox, users } from '../db/schema';
import { questions } from '../questions/tables';
import {
  authoringApi,
  NIL,
  questionBody,
  type SubjectFixture,
  seedSubject,
  snapshot,
} from '../test/fixtures/authoring';
import type { Person } from '../test/harness';
import { type Json, setupServer } from '../test/helper';
import { tenantAssessmentQuestions, tenantAssessments } from './tables';

const server = setupServer();
const api = authoringApi(server);
const { call, ok } = api;
const STEP = 15 * 60_000;
const HOUR = 3600_000;

describe('tenant assessments', () => {
  let mentor: Person;
  let rival: Person;
  let asha: Person;
  let ravi: Person;
  let quiet: { id: string; email: string };
  let s: SubjectFixture;
  const body = (type: QuestionType, overrides: Partial<QuestionInput> = {}) =>
    questionBody(type, s, overrides);
  const detail = (id: string, who: Person = mentor) => ok('GET', `/tenant/assessment/${id}`, who);
  const idsOf = async (id: string) => (await detail(id)).questions.map((q: Json) => q._id as string);
  const add = (a: string, q: string, who: Person = mentor) =>
    call('PUT', `/tenant/assessment/${a}/add-question/${q}`, who);
  const remove = (a: string, q: string, who: Person = mentor) =>
    call('PUT', `/tenant/assessment/${a}/remove-question/${q}`, who);

  beforeAll(async () => {
    [mentor, rival, asha, ravi] = await Promise.all([
      api.person('TENANT', 'Mira Mentor'),
      api.person('TENANT', 'Rex Rival'),
      api.person('USER', 'Asha Learner'),
      api.person('USER', 'Ravi Learner'),
    ]);
    s = await seedSubject(server);
    quiet = await api.quietLearner('Quiet Learner');
    // Asha and Quiet are Mira's learners, Ravi is Rex's
    for (const [who, email] of [
      [mentor, asha.email],
      [mentor, quiet.email],
      [rival, ravi.email],
    ] as const) {
      expect((await call('POST', '/tenant/users/add-user-v2', who, { email })).status).toBe(200);
    }
  }, 120_000);

  describe('creating, listing and reading', () => {
    it('creates an assessment with a trimmed name, and refuses a blank one with the form message, writing nothing', async () => {
      const id = await api.createAssessment(mentor, '   Week one check  ');
      const [row] = await server.db.select().from(tenantAssessments).where(eq(tenantAssessments.id, id));
      expect(row).toMatchObject({ name: 'Week one check', tenantId: mentor.id });
      const before = await snapshot(server);
      for (const payload of [{ name: '   ' }, { name: '' }, {}, { name: 42 }]) {
        const res = await call('POST', '/tenant/assessment/create', mentor, payload);
        expect(res.status, JSON.stringify(payload)).toBe(400);
        expect(res.body.field).toBe('name');
        expect(res.body.fields.name, JSON.stringify(payload)).toBe(editorMessages.assessmentName);
      }
      // no body at all is a malformed request
      expect((await call('POST', '/tenant/assessment/create', mentor)).status).toBe(400);
      const long = await call('POST', '/tenant/assessment/create', mentor, { name: 'x'.repeat(121) });
      expect(long.status).toBe(400);
      expect(long.body.field).toBe('name');
      expect(await snapshot(server)).toEqual(before);
    });

    it("lists the tenant's own assessments, newest first, with their question counts", async () => {
      const first = await api.createAssessment(mentor, 'Listed first');
      const second = await api.createAssessment(mentor, 'Listed second');
      await api.publishQuestion(mentor, body('MCQ'), second);
      await api.publishQuestion(mentor, body('MSQ'), second);
      const theirs = await api.createAssessment(rival, 'Rival only');
      const list = await ok('GET', '/tenant/assessment/list', mentor);
      const ids = list.map((a: Json) => a._id);
      expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
      expect(ids).not.toContain(theirs);
      expect(list.find((a: Json) => a._id === second)).toMatchObject({
        name: 'Listed second',
        tenantId: { _id: mentor.id, name: 'Mira Mentor' },
        questionCount: 2,
      });
      expect(list.find((a: Json) => a._id === first).questionCount).toBe(0);
      const rivals = await ok('GET', '/tenant/assessment/list', rival);
      expect(rivals.map((a: Json) => a._id)).toEqual([theirs]);
    });

    it('reads an assessment with its questions as their authors see them', async () => {
      const id = await api.createAssessment(mentor, 'Read me');
      expect(await detail(id)).toMatchObject({
        _id: id,
        name: 'Read me',
        tenantId: { _id: mentor.id, name: 'Mira Mentor' },
        questions: [],
      });
      const q = await api.publishQuestion(mentor, body('MCQ'), id);
      // a question created inside the assessment is not in it until it is saved
      const draft = await api.createQuestion(mentor, { questionType: 'FILL_IN_BLANK', assessmentId: id });
      const read = await detail(id);
      expect(read.questions.map((x: Json) => [x._id, x.status])).toEqual([[q, 'PUBLISH']]);
      expect(read.questions[0].options.filter((o: Json) => o.isCorrect)).toHaveLength(1);
      expect(read.questions[0]).toEqual(await ok('GET', `/tenant/question/${q}`, mentor));
      await ok('PUT', `/admin/question/${draft}`, mentor, body('FILL_IN_BLANK'));
      expect((await detail(id)).questions.map((x: Json) => [x._id, x.status])).toEqual([
        [q, 'PUBLISH'],
        [draft, 'PUBLISH'],
      ]);
      // saved again, it stays once
      await ok('PUT', `/admin/question/${draft}`, mentor, body('FILL_IN_BLANK'));
      expect(await idsOf(id)).toEqual([q, draft]);
    });

    it('counts the published questions only, the same in the list, the builder and sharing; a draft left behind is in no assessment', async () => {
      const id = await api.createAssessment(mentor, 'Abandoned drafts');
      const q = await api.publishQuestion(mentor, body('MCQ'), id);
      const left = await api.createQuestion(mentor, { assessmentId: id });
      const list = await ok('GET', '/tenant/assessment/list', mentor);
      expect(list.find((a: Json) => a._id === id).questionCount).toBe(1);
      expect(await idsOf(id)).toEqual([q]);
      expect(await ok('GET', `/tenant/assessment/${id}/question-pools`, mentor)).not.toContainEqual(
        expect.objectContaining({ id: left }),
      );
      // deleting the draft (the builder discards it when left) leaves the assessment as it was
      expect((await call('DELETE', `/admin/question/${left}`, mentor)).status).toBe(200);
      expect(await idsOf(id)).toEqual([q]);
    });
  });

  describe('adding and removing questions', () => {
    it('adds and removes questions idempotently, on both removal paths', async () => {
      const a = await api.createAssessment(mentor, 'Idempotent');
      const q1 = await api.publishQuestion(mentor, body('MCQ'));
      const q2 = await api.publishQuestion(mentor, body('FILL_IN_BLANK'));
      for (let i = 0; i < 2; i++) {
        const res = await add(a, q1);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ ok: true });
      }
      expect((await add(a, q2)).status).toBe(200);
      expect(await idsOf(a)).toEqual([q1, q2]);
      for (let i = 0; i < 2; i++) expect((await remove(a, q1)).status).toBe(200);
      expect(await idsOf(a)).toEqual([q2]);
      // the builder's other path: PUT /tenant/question/{id} with the assessment in the body
      for (let i = 0; i < 2; i++) {
        const res = await call('PUT', `/tenant/question/${q2}`, mentor, { assessmentId: a });
        expect(res.status).toBe(200);
      }
      expect(await idsOf(a)).toEqual([]);
      // removing a question that was never there changes nothing
      expect((await remove(a, q1)).status).toBe(200);
      // the questions themselves are untouched
      expect(
        await server.db
          .select()
          .from(questions)
          .where(inArray(questions.id, [q1, q2])),
      ).toHaveLength(2);
    });

    it('keeps the questions in the order they were added, also after removals', async () => {
      const a = await api.createAssessment(mentor, 'Ordered');
      const [q1, q2, q3, q4] = [
        await api.publishQuestion(mentor, body('MCQ')),
        await api.publishQuestion(mentor, body('MSQ')),
        await api.publishQuestion(mentor, body('CODE_MCQ')),
        await api.publishQuestion(mentor, body('FILL_IN_BLANK')),
      ] as string[];
      for (const q of [q1!, q2!, q3!]) await add(a, q);
      await remove(a, q1!);
      await remove(a, q2!);
      await add(a, q4!);
      expect(await idsOf(a)).toEqual([q3, q4]);
      await add(a, q1!);
      expect(await idsOf(a)).toEqual([q3, q4, q1]);
    });

    it('adds published questions, the caller’s or others’, and refuses a draft until it is saved', async () => {
      const a = await api.createAssessment(mentor, 'Whose questions');
      const myDraft = await api.createQuestion(mentor);
      const theirDraft = await api.createQuestion(rival);
      const theirPublished = await api.publishQuestion(rival, body('MSQ'));
      const before = await snapshot(server);
      for (const q of [theirDraft, NIL]) {
        const res = await add(a, q);
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('Question not found');
      }
      const draft = await add(a, myDraft);
      expect(draft.status).toBe(400);
      expect(draft.body).toMatchObject({ field: 'questionId', message: editorMessages.saveBeforeAdding });
      expect(await snapshot(server)).toEqual(before);
      expect((await add(a, theirPublished)).status).toBe(200);
      await ok('PUT', `/admin/question/${myDraft}`, mentor, body('MCQ'));
      expect((await add(a, myDraft)).status).toBe(200);
      const read = await detail(a);
      expect(read.questions.map((q: Json) => q._id)).toEqual([theirPublished, myDraft]);
      expect(read.questions[0].createdBy).toEqual({ _id: rival.id, name: 'Rex Rival' });
    });

    it("refuses another tenant's assessment on every call, writing nothing", async () => {
      const a = await api.createAssessment(mentor, 'Not yours');
      const q = await api.publishQuestion(mentor, body('MCQ'), a);
      const theirs = await api.publishQuestion(rival, body('MCQ'));
      const before = await snapshot(server);
      const start = Math.ceil((Date.now() + HOUR) / STEP) * STEP;
      const attempts: [string, string, unknown][] = [
        ['GET', `/tenant/assessment/${a}`, undefined],
        ['PUT', `/tenant/assessment/${a}/add-question/${theirs}`, undefined],
        ['PUT', `/tenant/assessment/${a}/remove-question/${q}`, undefined],
        ['PUT', `/tenant/question/${q}`, { assessmentId: a }],
        [
          'PUT',
          `/tenant/assessment/${a}/assign-users`,
          { userIds: [ravi.id], createdAt: Date.now(), startTime: start, duration: 1 },
        ],
        ['POST', '/admin/question/create', { assessmentId: a }],
      ];
      for (const [method, url, payload] of attempts) {
        const res = await call(method as 'PUT', url, rival, payload);
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body.message).toBe('Assessment not found');
        expect(res.body.data).toBeUndefined();
      }
      for (const url of [`/tenant/assessment/${NIL}`, `/tenant/assessment/${NIL}/add-question/${q}`]) {
        const method = url.includes('add-question') ? 'PUT' : 'GET';
        expect((await call(method, url, mentor)).status, url).toBe(404);
      }
      expect(await snapshot(server)).toEqual(before);
      expect(await idsOf(a)).toEqual([q]);
    });
  });

  describe('searching the bank', () => {
    const search = async (who: Person, searchText?: string) => {
      const q = new URLSearchParams({ limit: '50', ...(searchText === undefined ? {} : { searchText }) });
      return (await ok('GET', `/tenant/question/search-list?${q}`, who)) as Json[];
    };

    it('reads on page by page: the pages neither repeat nor skip a question', async () => {
      const word = `paged${Date.now().toString(36)}`;
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        made.push(
          await api.publishQuestion(mentor, body('MCQ', { question: `Question ${i} about ${word}?` })),
        );
      }
      const page = async (n: number) =>
        (
          (await ok(
            'GET',
            `/tenant/question/search-list?searchText=${word}&limit=2&page=${n}`,
            mentor,
          )) as Json[]
        ).map((q) => q._id);
      const pages = [await page(1), await page(2), await page(3), await page(4)];
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1, 0]);
      expect(pages.flat().sort()).toEqual([...made].sort());
      // the most recently changed first
      expect(pages[0]![0]).toBe(made[4]);
      expect((await call('GET', '/tenant/question/search-list?page=0', mentor)).status).toBe(400);
    });

    it('finds published questions by text, tag or subject, lower-cased', async () => {
      const word = `keyword${Date.now().toString(36)}`;
      const tag = `Tag${Date.now().toString(36)}`;
      const mine = await api.publishQuestion(
        mentor,
        body('MCQ', {
          question: `Which ${word.toUpperCase()} declares a Block-Scoped constant?`,
          tags: [tag],
        }),
      );
      const myDraft = await api.createQuestion(mentor);
      const theirDraft = await api.createQuestion(rival);
      const ids = (list: Json[]) => list.map((q) => q._id);

      expect(ids(await search(mentor, word))).toEqual([mine]);
      expect(ids(await search(mentor, word.toUpperCase()))).toEqual([mine]);
      // tags are stored lower-cased and matched whole
      expect((await getTags(mine)).tags).toEqual([tag.toLowerCase()]);
      expect(ids(await search(mentor, tag.toUpperCase()))).toEqual([mine]);
      expect(ids(await search(mentor, tag.slice(0, -2)))).not.toContain(mine);
      // the subject's name
      expect(ids(await search(rival, s.subjectName.toUpperCase()))).toContain(mine);
      // LIKE's wildcards are plain characters
      expect(ids(await search(mentor, '%'))).not.toContain(mine);
      expect(ids(await search(mentor, '_'))).not.toContain(mine);

      // blank text does nothing: the same list as no text; drafts are nobody's to add, not even their author's
      const all = ids(await search(mentor));
      expect(ids(await search(mentor, '   ')).sort()).toEqual([...all].sort());
      expect(all).not.toContain(myDraft);
      expect(all).not.toContain(theirDraft);
      const rivals = ids(await search(rival));
      expect(rivals).toContain(mine);
      expect(rivals).not.toContain(theirDraft);
      for (const q of await search(rival)) expect(q.status).toBe('PUBLISH');
    });

    const getTags = (id: string) => ok('GET', `/admin/question/${id}`, mentor);
  });

  describe('sharing', () => {
    let shared: string;
    let bank: string[];
    let draft: string;
    const types: QuestionType[] = ['MCQ', 'MSQ', 'CODE_MCQ', 'MCQ_IMAGE', 'MSQ_IMAGE', 'FILL_IN_BLANK'];
    const nextStart = (ahead = 5 * 60_000) => Math.ceil((Date.now() + ahead) / STEP) * STEP;
    const share = (payload: unknown, who: Person = mentor, id = shared) =>
      call('PUT', `/tenant/assessment/${id}/assign-users`, who, payload);
    const valid = () => ({ userIds: [asha.id], createdAt: Date.now(), startTime: nextStart(), duration: 1 });

    afterEach(() => {
      vi.useRealTimers();
    });

    beforeAll(async () => {
      shared = await api.createAssessment(mentor, 'Share check');
      bank = [];
      for (let i = 0; i < 9; i++) {
        const type = types[i % types.length]!;
        bank.push(
          await api.publishQuestion(mentor, body(type, { question: `Shared question ${i}` }), shared),
        );
      }
      draft = await api.createQuestion(mentor, { assessmentId: shared });
    }, 60_000);

    it('needs at least 10 published questions', async () => {
      const before = await snapshot(server);
      // nine published, and a draft the builder does not count either
      expect((await detail(shared)).questions).toHaveLength(9);
      expect(
        (await ok('GET', '/tenant/assessment/list', mentor)).find((a: Json) => a._id === shared),
      ).toMatchObject({ questionCount: 9 });
      const res = await share(valid());
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field: 'questions', message: editorMessages.minQuestionsToShare });
      expect(await snapshot(server)).toEqual(before);
      await ok('PUT', `/admin/question/${draft}`, mentor, body('MCQ', { question: 'Shared question 9' }));
      bank.push(draft);
      // saved, it joins: ten
      expect(await idsOf(shared)).toEqual(bank);
    });

    it("refuses invalid input ('Please provide valid input') and schedules off the rules, writing nothing", async () => {
      const before = await snapshot(server);
      const v = valid();
      const without = (key: keyof typeof v) =>
        Object.fromEntries(Object.entries(v).filter(([k]) => k !== key));
      const invalid = editorMessages.invalidShare;
      const cases: [string, unknown, string, string][] = [
        ['nothing', {}, 'userIds', invalid],
        ['no learner', { ...v, userIds: [] }, 'userIds', invalid],
        ['no user ids', without('userIds'), 'userIds', invalid],
        ['no start', without('startTime'), 'startTime', invalid],
        ['no duration', without('duration'), 'duration', invalid],
        ['no creation time', without('createdAt'), 'createdAt', invalid],
        ['a malformed user id', { ...v, userIds: ['42'] }, 'userIds.0', 'must be a valid id'],
        [
          'off the 15-minute steps',
          { ...v, startTime: v.startTime + 5 * 60_000 },
          'startTime',
          'The start time must be on a 15-minute step',
        ],
        ['under an hour', { ...v, duration: 0 }, 'duration', 'The duration must be at least 1 hour'],
        ['a fraction of an hour', { ...v, duration: 1.5 }, 'duration', ''],
        [
          'in the past',
          { ...v, startTime: Math.floor(Date.now() / STEP) * STEP - STEP },
          'startTime',
          'The start time cannot be in the past',
        ],
        ["another tenant's learner", { ...v, userIds: [asha.id, ravi.id] }, 'userIds', ''],
        ['somebody unknown', { ...v, userIds: [NIL] }, 'userIds', ''],
        ['a tenant', { ...v, userIds: [rival.id] }, 'userIds', ''],
        ['the tenant', { ...v, userIds: [mentor.id] }, 'userIds', ''],
      ];
      for (const [name, payload, field, message] of cases) {
        const res = await share(payload);
        expect(res.status, name).toBe(400);
        expect(res.body.field, name).toBe(field);
        if (message) expect(res.body.fields[field], name).toBe(message);
      }
      expect(await snapshot(server)).toEqual(before);
    });

    it('gives each learner a CUSTOM-TEST link that opens at the start for the duration, and e-mails them', async () => {
      const start = nextStart();
      // a learner who reads Spanish gets the mail in Spanish (decision 040)
      await server.db.update(users).set({ language: 'es' }).where(eq(users.id, quiet.id));
      const res = await share({
        userIds: [asha.id, quiet.id, asha.id],
        createdAt: Date.now(),
        startTime: start,
        duration: 2,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.created).toBe(2);
      const linkIds = res.body.data.linkIds as string[];
      expect(linkIds).toHaveLength(2);

      const rows = await server.db.select().from(testLinks).where(inArray(testLinks.linkId, linkIds));
      expect(rows.map((r) => r.userId).sort()).toEqual([asha.id, quiet.id].sort());
      for (const r of rows) {
        expect(r).toMatchObject({
          type: 'CUSTOM-TEST',
          tenantAssessmentId: shared,
          assignedSubjectName: 'Share check',
          status: 'TAKE_TEST',
          questionCount: 10,
          durationHours: 2,
          startedAt: null,
        });
        expect(r.startTime!.getTime()).toBe(start);
        expect(r.expiresAt!.getTime()).toBe(start + 2 * HOUR);
        const frozen = await server.db
          .select()
          .from(testLinkQuestions)
          .where(eq(testLinkQuestions.testLinkId, r.id));
        expect(frozen.map((f) => f.questionId).sort()).toEqual([...bank].sort());
      }
      const mails = await server.db.select().from(outbox).where(eq(outbox.kind, 'custom-test'));
      for (const [email, linkId] of [
        [asha.email, rows.find((r) => r.userId === asha.id)!.linkId],
        [quiet.email, rows.find((r) => r.userId === quiet.id)!.linkId],
      ]) {
        const mail = mails.find((m) => m.to === email);
        expect(mail?.subject).toBe(
          email === quiet.email ? 'Nueva evaluación: Share check' : 'New assessment: Share check',
        );
        expect(mail?.text).toContain(`/test/${linkId}`);
      }
      const spanish = mails.find((m) => m.to === quiet.email)!.text;
      expect(spanish).toContain('ha compartido contigo la evaluación «Share check»');
      expect(spanish).toContain('2 horas');
      await server.db.update(users).set({ language: 'en' }).where(eq(users.id, quiet.id));

      // the learner's list: the window of learner §4
      const ashaLink = rows.find((r) => r.userId === asha.id)!.linkId;
      const list = await ok('GET', '/testlink/list', asha);
      const entry = list.find((l: Json) => l.linkId === ashaLink);
      expect(entry).toMatchObject({
        type: 'CUSTOM-TEST',
        status: 'TAKE_TEST',
        duration: 2,
        testId: { _id: shared, name: 'Share check' },
      });
      expect(Date.parse(entry.startTime)).toBe(start);
      const load = () => server.app.inject({ method: 'GET', url: `/api/testlink/assessment/${ashaLink}` });

      // before the start: code 1, and the test does not load
      expect(customTestWindow(entry.startTime, entry.duration).code).toBe(1);
      const early = await load();
      expect(early.statusCode).toBe(403);
      expect(early.json().errorCode).toBe('ASSESSMENT_NOT_YET_STARTED');
      const startEarly = await server.app.inject({
        method: 'PUT',
        url: `/api/testlink/verify/${ashaLink}`,
        headers: attemptHeaders(newAttemptToken()),
      });
      expect(startEarly.json().errorCode).toBe('ASSESSMENT_NOT_YET_STARTED');

      // during the window: code 0, the ten questions load
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(start + 60_000);
      expect(customTestWindow(entry.startTime, entry.duration).code).toBe(0);
      const open = await load();
      vi.useRealTimers();
      expect(open.statusCode).toBe(200);
      expect(open.json().data).toMatchObject({ type: 'CUSTOM-TEST', questionCount: 10, status: 'TAKE_TEST' });
      expect(open.json().data.questions.questions).toHaveLength(10);

      // after it: code -1, the link has expired
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(start + 2 * HOUR + 60_000);
      expect(customTestWindow(entry.startTime, entry.duration).code).toBe(-1);
      const late = await load();
      vi.useRealTimers();
      expect(late.statusCode).toBe(410);
      expect(late.json().errorCode).toBe('LINK_EXPIRED');
      const [after] = await server.db.select().from(testLinks).where(eq(testLinks.linkId, ashaLink));
      expect(after!.status).toBe('EXPIRED');
    });

    it("keeps a learner's answers when the author corrects a question during the test", async () => {
      const link = (
        await server.db
          .select()
          .from(testLinks)
          .where(and(eq(testLinks.tenantAssessmentId, shared), eq(testLinks.userId, quiet.id)))
      )[0]!;
      const at = (ms: number) => {
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(link.startTime!.getTime() + ms);
      };
      // the learner's browser, with the attempt token it started the test with
      const attempt = attemptHeaders(newAttemptToken());
      const inject = (method: 'PUT' | 'POST', url: string, payload?: object) =>
        server.app.inject({ method, url: `/api${url}`, headers: attempt, payload });
      const target = bank.find((_, i) => types[i % types.length] === 'MSQ')!;
      const q = await ok('GET', `/admin/question/${target}`, mentor);
      const right = q.options.filter((o: Json) => o.isCorrect).map((o: Json) => o._id);

      at(60_000);
      expect((await inject('PUT', `/testlink/verify/${link.linkId}`)).statusCode).toBe(200);
      const answered = await inject('PUT', `/testlink/${link.linkId}/answer`, {
        questionId: target,
        answerId: right,
      });
      expect(answered.statusCode).toBe(200);
      vi.useRealTimers();

      // the author fixes a typo in an option, as the editor saves it (with the options' ids)
      await ok(
        'PUT',
        `/admin/question/${target}`,
        mentor,
        body('MSQ', {
          question: q.question,
          options: q.options.map((o: Json, i: number) => ({
            _id: o._id,
            value: i === 0 ? `${o.value} (fixed)` : o.value,
            isCorrect: o.isCorrect,
          })),
        }),
      );

      at(5 * 60_000);
      const taker = await server.app.inject({
        method: 'GET',
        url: `/api/testlink/assessment/${link.linkId}`,
      });
      const evaluated = await inject('POST', '/testlink/evaluvate/v2', { linkId: link.linkId, answers: [] });
      vi.useRealTimers();
      const shown = taker.json().data.questions.questions.find((x: Json) => x._id === target);
      expect(shown.options.map((o: Json) => o._id).sort()).toEqual(q.options.map((o: Json) => o._id).sort());
      const mine = taker.json().data.answers.find((a: Json) => a.questionId === target);
      expect(mine.answerId).toEqual(right);
      expect(evaluated.statusCode).toBe(200);
      const [scored] = await server.db
        .select()
        .from(testAnswers)
        .where(and(eq(testAnswers.testLinkId, link.id), eq(testAnswers.questionId, target)));
      expect(scored!.points).toBeGreaterThan(0);
    });

    it('withdraws a shared question instead of deleting it, and the assessment then falls short', async () => {
      const used = bank[0]!;
      expect(
        (await ok('GET', `/admin/question/${used}`, mentor)).countRepeatedQuestion,
      ).toBeGreaterThanOrEqual(2);
      const res = await call('DELETE', `/admin/question/${used}`, mentor);
      expect(res.status).toBe(200);
      const [row] = await server.db.select().from(questions).where(eq(questions.id, used));
      expect(row).toMatchObject({ status: 'PREVIEW' });
      // learners' links keep it
      const frozen = await server.db
        .select()
        .from(testLinkQuestions)
        .where(eq(testLinkQuestions.questionId, used));
      expect(frozen.length).toBeGreaterThanOrEqual(2);
      // it has left every assessment and the bank; its creator still sees it
      expect(await idsOf(shared)).not.toContain(used);
      const inAssessments = await server.db
        .select()
        .from(tenantAssessmentQuestions)
        .where(eq(tenantAssessmentQuestions.questionId, used));
      expect(inAssessments).toEqual([]);
      expect((await call('GET', `/admin/question/${used}`, rival)).status).toBe(404);
      expect((await call('GET', `/admin/question/${used}`, mentor)).body.data.status).toBe('PREVIEW');
      // nine questions left: no more sharing
      const again = await share(valid());
      expect(again.status).toBe(400);
      expect(again.body.field).toBe('questions');
      const links = await server.db
        .select()
        .from(testLinks)
        .where(and(eq(testLinks.tenantAssessmentId, shared), eq(testLinks.userId, asha.id)));
      expect(links).toHaveLength(1);
    });
  });
});
