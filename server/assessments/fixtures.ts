/**
 * Test data for the assessment tests: a small roadmap (two sections of two resources) with a question bank
 * of every type aimed at its resources, sections and the roadmap, and learners' assigned copies.
 * Used by tests only.
 */
import { randomBytes } from 'node:crypto';
import type { QuestionType } from '@shared/schemas/assessment';
import { eq } from 'drizzle-orm';
import {
  assignedRoadmaps,
  assignedSections,
  resources,
  roadmaps,
  sectionResources,
  sections,
} from '../catalogue/tables';
import type { Db } from '../db/client';
import { languages, subjects, users } from '../db/schema';
import { questionOptions, questions, questionTargets } from '../questions/tables';
import { testLinks } from './tables';

export interface BankQuestion {
  id: string;
  type: QuestionType;
  /** Option ids in authoring order. */
  options: string[];
  correct: string[];
  wrong: string[];
  /** The accepted fill-in-blank value. */
  value?: string;
}

export interface Bank {
  subjectId: string;
  /** The language of the bank's roadmap, and so of its questions. */
  languageId: string;
  emptySubjectId: string;
  roadmapId: string;
  sectionIds: [string, string];
  resourceIds: [string, string, string, string];
  /** A resource with no questions at all. */
  barrenResourceId: string;
  questions: Map<string, BankQuestion>;
}

const uid = () => randomBytes(4).toString('hex');

export async function addQuestion(
  db: Db,
  spec: {
    type: QuestionType;
    text: string;
    options?: { value: string; isCorrect: boolean }[];
    value?: string;
    subjectId: string;
    languageId: string;
    target: { kind: 'RESOURCE' | 'SECTION' | 'ROADMAP'; id: string };
  },
): Promise<BankQuestion> {
  const [q] = await db
    .insert(questions)
    .values({
      question: spec.text,
      questionType: spec.type,
      code: spec.type === 'CODE_MCQ' ? 'const x: number = 2 ** 4;\nconsole.log(x);' : null,
      questionImagePath: spec.type.endsWith('_IMAGE') ? '/files/questions/demo/diagram.png' : null,
      points: 10,
      subjectId: spec.subjectId,
      languageId: spec.languageId,
      explanation: [{ type: 'TEXT', value: `Why: ${spec.text}` }],
      tags: ['test'],
      status: 'PUBLISH',
    })
    .returning({ id: questions.id });
  const id = q!.id;
  await db
    .insert(questionTargets)
    .values({ questionId: id, kind: spec.target.kind, targetId: spec.target.id });
  if (spec.type === 'FILL_IN_BLANK') {
    const [o] = await db
      .insert(questionOptions)
      .values({ questionId: id, value: spec.value ?? '', isCorrect: true, points: 10, position: 0 })
      .returning({ id: questionOptions.id });
    return { id, type: spec.type, options: [o!.id], correct: [o!.id], wrong: [], value: spec.value };
  }
  const opts = spec.options ?? [];
  const rows = await db
    .insert(questionOptions)
    .values(
      opts.map((o, position) => ({
        questionId: id,
        value: o.value,
        isCorrect: o.isCorrect,
        points: o.isCorrect ? 10 : 0,
        position,
      })),
    )
    .returning({ id: questionOptions.id, isCorrect: questionOptions.isCorrect });
  return {
    id,
    type: spec.type,
    options: rows.map((r) => r.id),
    correct: rows.filter((r) => r.isCorrect).map((r) => r.id),
    wrong: rows.filter((r) => !r.isCorrect).map((r) => r.id),
  };
}

const single = (right: string, ...wrong: string[]) => [
  { value: right, isCorrect: true },
  ...wrong.map((value) => ({ value, isCorrect: false })),
];

/** A roadmap with a question bank of every type. */
export async function seedBank(db: Db): Promise<Bank> {
  const tag = uid();
  const [subject] = await db
    .insert(subjects)
    .values({ name: `Subject ${tag}` })
    .returning({ id: subjects.id });
  const [empty] = await db
    .insert(subjects)
    .values({ name: `Empty ${tag}` })
    .returning({ id: subjects.id });
  const [language] = await db
    .insert(languages)
    .values({ name: `Language ${tag}` })
    .returning({ id: languages.id });
  const [roadmap] = await db
    .insert(roadmaps)
    .values({
      name: `TypeScript ${tag}`,
      description: 'Types for JavaScript',
      languageId: language!.id,
      subjectId: subject!.id,
    })
    .returning({ id: roadmaps.id });
  const sectionIds: string[] = [];
  const resourceIds: string[] = [];
  for (let s = 0; s < 2; s++) {
    const [section] = await db
      .insert(sections)
      .values({ roadmapId: roadmap!.id, name: `Section ${s + 1}`, position: s })
      .returning({ id: sections.id });
    sectionIds.push(section!.id);
    for (let r = 0; r < 2; r++) {
      const [resource] = await db
        .insert(resources)
        .values({
          actualTitle: `Lesson ${s + 1}.${r + 1}`,
          type: 'READ',
          url: `https://example.com/${tag}/${s}/${r}`,
          shortId: `${tag}${s}${r}`,
        })
        .returning({ id: resources.id });
      resourceIds.push(resource!.id);
      await db
        .insert(sectionResources)
        .values({ sectionId: section!.id, resourceId: resource!.id, position: r });
    }
  }
  const [barren] = await db
    .insert(resources)
    .values({
      actualTitle: 'Unassessed',
      type: 'READ',
      url: `https://example.com/${tag}/x`,
      shortId: `${tag}xx`,
    })
    .returning({ id: resources.id });
  await db
    .insert(sectionResources)
    .values({ sectionId: sectionIds[1]!, resourceId: barren!.id, position: 9 });

  const bank = new Map<string, BankQuestion>();
  const put = (q: BankQuestion) => bank.set(q.id, q);
  const subjectId = subject!.id;
  const languageId = language!.id;
  // the first resource: one question of every type (6), so a resource test covers every type
  const r0 = { kind: 'RESOURCE' as const, id: resourceIds[0]! };
  put(
    await addQuestion(db, {
      type: 'MCQ',
      text: 'Which keyword declares a constant?',
      options: single('const', 'var', 'let', 'static'),
      subjectId,
      languageId,
      target: r0,
    }),
  );
  put(
    await addQuestion(db, {
      type: 'MSQ',
      text: 'Which are primitive types?',
      options: [
        { value: 'string', isCorrect: true },
        { value: 'number', isCorrect: true },
        { value: 'Array', isCorrect: false },
        { value: 'Date', isCorrect: false },
      ],
      subjectId,
      languageId,
      target: r0,
    }),
  );
  put(
    await addQuestion(db, {
      type: 'CODE_MCQ',
      text: 'What does this print?',
      options: single('16', '6', '32', 'NaN'),
      subjectId,
      languageId,
      target: r0,
    }),
  );
  put(
    await addQuestion(db, {
      type: 'MCQ_IMAGE',
      text: 'Which diagram shows a union?',
      options: single('/files/a.png', '/files/b.png', '/files/c.png'),
      subjectId,
      languageId,
      target: r0,
    }),
  );
  put(
    await addQuestion(db, {
      type: 'MSQ_IMAGE',
      text: 'Which diagrams show narrowing?',
      options: [
        { value: '/files/n1.png', isCorrect: true },
        { value: '/files/n2.png', isCorrect: true },
        { value: '/files/n3.png', isCorrect: true },
        { value: '/files/n4.png', isCorrect: false },
      ],
      subjectId,
      languageId,
      target: r0,
    }),
  );
  put(
    await addQuestion(db, {
      type: 'FILL_IN_BLANK',
      text: 'How many bits in a byte?',
      value: '8',
      subjectId,
      languageId,
      target: r0,
    }),
  );
  // the other resources: a handful of MCQs each; sections and the roadmap: more
  for (const [i, rid] of resourceIds.slice(1).entries()) {
    for (let k = 0; k < 6; k++) {
      put(
        await addQuestion(db, {
          type: 'MCQ',
          text: `Resource ${i + 2} question ${k + 1}`,
          options: single('yes', 'no', 'maybe'),
          subjectId,
          languageId,
          target: { kind: 'RESOURCE', id: rid },
        }),
      );
    }
  }
  for (const sid of sectionIds) {
    for (let k = 0; k < 4; k++) {
      put(
        await addQuestion(db, {
          type: 'MCQ',
          text: `Section question ${k + 1}`,
          options: single('right', 'wrong'),
          subjectId,
          languageId,
          target: { kind: 'SECTION', id: sid },
        }),
      );
    }
  }
  for (let k = 0; k < 4; k++) {
    put(
      await addQuestion(db, {
        type: 'FILL_IN_BLANK',
        text: `2 + ${k} = ?`,
        value: String(2 + k),
        subjectId,
        languageId,
        target: { kind: 'ROADMAP', id: roadmap!.id },
      }),
    );
  }
  return {
    subjectId,
    languageId,
    emptySubjectId: empty!.id,
    roadmapId: roadmap!.id,
    sectionIds: sectionIds as [string, string],
    resourceIds: resourceIds as [string, string, string, string],
    barrenResourceId: barren!.id,
    questions: bank,
  };
}

/** The body of POST /testlink/create for resource `r` (0–3) of the bank, in an assigned roadmap. */
export const resourceBody = (bank: Pick<Bank, 'sectionIds' | 'resourceIds'>, ar: string, r = 0) => ({
  type: 'RESOURCE',
  assignedRoadmapId: ar,
  sectionId: bank.sectionIds[r < 2 ? 0 : 1],
  resourceId: bank.resourceIds[r],
});

/** A test link's row by its public id. */
export async function linkRowOf(db: Db, linkId: string) {
  const [row] = await db.select().from(testLinks).where(eq(testLinks.linkId, linkId));
  return row!;
}

/** Assigns the roadmap to a learner (with its sections copied), returns the assigned roadmap id. */
export async function assignTo(
  db: Db,
  userId: string,
  bank: Pick<Bank, 'roadmapId' | 'sectionIds'>,
): Promise<string> {
  const [ar] = await db
    .insert(assignedRoadmaps)
    .values({ userId, roadmapId: bank.roadmapId, status: 'ONGOING', source: 'SELF' })
    .returning({ id: assignedRoadmaps.id });
  await db
    .insert(assignedSections)
    .values(
      bank.sectionIds.map((sectionId, position) => ({ assignedRoadmapId: ar!.id, sectionId, position })),
    );
  return ar!.id;
}

/** A correct answer to a bank question, as the API takes it. */
export function rightAnswer(q: BankQuestion): {
  questionId: string;
  answerId?: string | string[];
  answer?: string | number;
} {
  if (q.type === 'FILL_IN_BLANK') return { questionId: q.id, answer: q.value ?? '' };
  if (q.type === 'MSQ' || q.type === 'MSQ_IMAGE') return { questionId: q.id, answerId: q.correct };
  return { questionId: q.id, answerId: q.correct[0]! };
}

/** A wrong answer to a bank question. */
export function wrongAnswer(q: BankQuestion): {
  questionId: string;
  answerId?: string | string[];
  answer?: string | number;
} {
  if (q.type === 'FILL_IN_BLANK') return { questionId: q.id, answer: 'not this' };
  if (q.type === 'MSQ' || q.type === 'MSQ_IMAGE') return { questionId: q.id, answerId: [q.wrong[0]!] };
  return { questionId: q.id, answerId: q.wrong[0]! };
}

export async function userIdByEmail(db: Db, email: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return row?.id ?? null;
}
