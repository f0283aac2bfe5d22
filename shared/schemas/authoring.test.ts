import { describe, expect, it } from 'vitest';
import { editorMessages, QuestionInput } from './authoring';

const ids = {
  subject: '00000000-0000-4000-8000-000000000001',
  topic: '00000000-0000-4000-8000-000000000002',
};
const fillIn = (...values: string[]) => ({
  question: 'How many bits are in a byte? ____',
  questionType: 'FILL_IN_BLANK' as const,
  ...ids,
  options: values.map((value) => ({ value, isCorrect: true })),
  explanation: [{ type: 'TEXT' as const, value: 'A byte is eight bits.' }],
  tags: ['basics'],
});
const problems = (input: unknown) => {
  const r = QuestionInput.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('a fill-in-blank question in the editor', () => {
  it('accepts answers that are all numbers, or all text', () => {
    expect(problems(fillIn('8', '8.0'))).toEqual([]);
    expect(problems(fillIn('eight', 'Eight'))).toEqual([]);
  });

  it('refuses a mix of numbers and text: a test compares numbers as numbers', () => {
    expect(problems(fillIn('8', 'eight'))).toEqual([`textCorrectAnswer: ${editorMessages.answerKinds}`]);
  });

  it('needs an answer', () => {
    expect(problems(fillIn(' ', ''))).toEqual([`textCorrectAnswer: ${editorMessages.answerEmpty}`]);
  });
});
