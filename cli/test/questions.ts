/** A question of the bank as the server gives it (GET /tenant/question/search-list), for the CLI's tests. */
import type { Question } from '@shared/schemas/assessment';

/** A published MCQ with no options, changed by `over`. */
export const bankQuestion = (over: Partial<Question>): Question => ({
  _id: '41111111-1111-4111-8111-111111111111',
  questionId: '41111111-1111-4111-8111-111111111111',
  question: 'Q',
  questionType: 'MCQ',
  optionType: 'TEXT',
  code: null,
  questionImagePath: null,
  isQuestionImage: false,
  points: 10,
  options: [],
  subject: null,
  topic: null,
  language: '51111111-1111-4111-8111-111111111111',
  explanation: [],
  tags: [],
  status: 'PUBLISH',
  roadmapId: null,
  roadmapName: null,
  createdBy: null,
  countRepeatedQuestion: 0,
  feedbackCount: 0,
  belongToResource: [],
  ...over,
});
