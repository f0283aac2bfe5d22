/**
 * What the authoring tests share (questions.test.ts, assessments.test.ts): people signed in through the
 * Auth emulator, the calls through the HTTP API, a subject with topics of its own, question bodies that
 * pass the editor's rules for each of the six types, and a snapshot of the authoring tables to show that a
 * refused call wrote nothing. Used by tests only.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { QuestionType } from '@shared/schemas/assessment';
import type { QuestionInput } from '@shared/schemas/authoring';
import { asc, eq } from 'drizzle-orm';
import type { Person } from '../assessments/harness';
import { testLinks } from '../assessments/tables';
import { subjects, topics, users } from '../db/schema';
import { questionOptions, questions } from '../questions/tables';
import type { Json, TestServer } from '../test/helper';
import { tenantAssessmentQuestions, tenantAssessments } from './tables';

export type { Person };
export const NIL = '00000000-0000-4000-8000-000000000000';

export interface Reply {
  status: number;
  body: Json;
}

export function authoringApi(server: TestServer) {
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    who?: Person,
    payload?: unknown,
  ): Promise<Reply> => {
    const res = await server.app.inject({
      method,
      url: `/api${url}`,
      headers: who?.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.body ? (res.json() as Json) : null };
  };
  const ok = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    who: Person,
    payload?: unknown,
  ) => {
    const res = await call(method, url, who, payload);
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as Json;
  };
  const createQuestion = async (
    who: Person,
    body?: { questionType?: QuestionType; assessmentId?: string },
  ): Promise<string> => (await ok('POST', '/admin/question/create', who, body)).questionId;
  return {
    call,
    ok,
    /** A signed-in person with this name (set directly: any name, the profile form is not under test). */
    async person(role: 'USER' | 'TENANT', name: string): Promise<Person> {
      const signed = await server.signedIn(role, { name });
      await server.db.update(users).set({ name }).where(eq(users.id, signed.user._id));
      return {
        id: signed.user._id,
        email: signed.account.email,
        headers: { authorization: `Bearer ${signed.token}` },
      };
    },
    /** A learner account that never signs in (a seat to share with). */
    async quietLearner(name: string): Promise<{ id: string; email: string }> {
      const email = `quiet-${randomBytes(5).toString('hex')}@example.com`;
      const [u] = await server.db
        .insert(users)
        .values({ firebaseUid: randomUUID(), email, role: 'USER', name, emailVerified: true })
        .returning({ id: users.id });
      return { id: u!.id, email };
    },
    createQuestion,
    /** Creates a question and saves it (status PUBLISH); returns its id. */
    async publishQuestion(who: Person, body: QuestionInput, assessmentId?: string) {
      const id = await createQuestion(who, {
        questionType: body.questionType ?? 'MCQ',
        ...(assessmentId ? { assessmentId } : {}),
      });
      await ok('PUT', `/admin/question/${id}`, who, body);
      return id;
    },
    async createAssessment(who: Person, name: string) {
      return (await ok('POST', '/tenant/assessment/create', who, { name }))._id as string;
    },
  };
}
export type AuthoringApi = ReturnType<typeof authoringApi>;

export interface SubjectFixture {
  subjectId: string;
  topicId: string;
  otherTopicId: string;
  /** A topic of another subject. */
  foreignTopicId: string;
  subjectName: string;
}

/** A subject with two topics, and another subject with one, named so no other test's data matches. */
export async function seedSubject(server: TestServer): Promise<SubjectFixture> {
  const tag = randomBytes(4).toString('hex');
  const subjectName = `Authoring ${tag}`;
  const [s] = await server.db.insert(subjects).values({ name: subjectName }).returning({ id: subjects.id });
  const [other] = await server.db
    .insert(subjects)
    .values({ name: `Elsewhere ${tag}` })
    .returning({ id: subjects.id });
  const ts = await server.db
    .insert(topics)
    .values([
      { subjectId: s!.id, name: 'Variables' },
      { subjectId: s!.id, name: 'Functions' },
      { subjectId: other!.id, name: 'Unrelated' },
    ])
    .returning({ id: topics.id });
  return {
    subjectId: s!.id,
    topicId: ts[0]!.id,
    otherTopicId: ts[1]!.id,
    foreignTopicId: ts[2]!.id,
    subjectName,
  };
}

const text = (values: string[], correct: number[]) =>
  values.map((value, i) => ({ value, isCorrect: correct.includes(i) }));
const image = (n: number) => `https://cdn.example.com/questions/demo/option-${n}.png`;

/** A body that passes the editor's rules for this type. */
export function questionBody(
  type: QuestionType,
  s: Pick<SubjectFixture, 'subjectId' | 'topicId'>,
  overrides: Partial<QuestionInput> = {},
): QuestionInput {
  const base = {
    question: `A ${type} question about variables`,
    questionType: type,
    subject: s.subjectId,
    topic: s.topicId,
    explanation: [{ type: 'TEXT' as const, value: 'Because that is how it works.' }],
    tags: ['Variables', 'basics'],
  };
  const byType: Record<QuestionType, Partial<QuestionInput>> = {
    MCQ: { options: text(['const', 'var', 'let', 'static'], [0]) },
    MSQ: { options: text(['let', 'const', 'var', 'goto'], [0, 1]) },
    CODE_MCQ: {
      code: 'const x = 2 ** 4;\nconsole.log(x);',
      options: text(['16', '8', '6', 'NaN'], [0]),
    },
    MCQ_IMAGE: {
      questionImagePath: 'https://cdn.example.com/questions/demo/diagram.png',
      options: [0, 1, 2].map((n) => ({ value: image(n), isCorrect: n === 2 })),
    },
    MSQ_IMAGE: { options: [0, 1, 2, 3].map((n) => ({ value: image(n), isCorrect: n % 2 === 0 })) },
    FILL_IN_BLANK: { options: [{ value: '42', isCorrect: true }] },
  };
  return { ...base, options: [], ...byType[type], ...overrides } as QuestionInput;
}

/** Every row of the authoring tables and the test links, to compare before and after a refused call. */
export async function snapshot(server: TestServer) {
  const db = server.db;
  const [q, o, a, aq, links] = await Promise.all([
    db.select().from(questions).orderBy(asc(questions.id)),
    db.select().from(questionOptions).orderBy(asc(questionOptions.id)),
    db.select().from(tenantAssessments).orderBy(asc(tenantAssessments.id)),
    db
      .select()
      .from(tenantAssessmentQuestions)
      .orderBy(asc(tenantAssessmentQuestions.assessmentId), asc(tenantAssessmentQuestions.questionId)),
    db.select().from(testLinks).orderBy(asc(testLinks.id)),
  ]);
  return { questions: q, options: o, assessments: a, assessmentQuestions: aq, testLinks: links };
}

/** The smallest files that pass the upload route's magic-byte check. */
export const IMAGES = {
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  jpeg: Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
    Buffer.from('JFIF'),
    Buffer.alloc(64, 7),
  ]),
  webp: Buffer.concat([
    Buffer.from('RIFF'),
    Buffer.from([36, 0, 0, 0]),
    Buffer.from('WEBPVP8 '),
    Buffer.alloc(32),
  ]),
};
