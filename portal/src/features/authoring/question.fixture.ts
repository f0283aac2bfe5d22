/** A question as its author receives it, for the authoring components' tests. */
import type { Question, QuestionType } from '@shared/schemas/assessment';

export const fixtureId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * A question of the given type with these options (ids fixtureId(100), (101), …); stored option points
 * are 10 for every correct option whatever the type, as the server stores them (decision 005).
 */
export function authoredQuestion(
  type: QuestionType,
  options: { value: string; isCorrect: boolean }[],
  extra: Partial<Question> = {},
): Question {
  return {
    _id: fixtureId(1),
    questionId: fixtureId(1),
    question: 'Which of these are prime?',
    questionType: type,
    optionType: 'TEXT',
    code: null,
    questionImagePath: null,
    isQuestionImage: false,
    points: 10,
    options: options.map((o, i) => ({ _id: fixtureId(100 + i), ...o, points: o.isCorrect ? 10 : 0 })),
    subject: null,
    topic: null,
    language: fixtureId(60),
    explanation: [],
    tags: [],
    status: 'PREVIEW',
    roadmapId: null,
    roadmapName: null,
    createdBy: null,
    countRepeatedQuestion: 0,
    feedbackCount: 0,
    belongToResource: [],
    ...extra,
  };
}
