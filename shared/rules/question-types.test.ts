import { describe, expect, it } from 'vitest';
import {
  answerKindOf,
  effectiveType,
  hasImageOptions,
  isMultiAnswer,
  isSingleAnswer,
  isTextAnswer,
  QUESTION_TYPE_TABLE,
  QUESTION_TYPES,
  questionTypeFor,
  typeLabel,
  typeNeedsHint,
  typeSwitchKeepsOptions,
  typesWhere,
} from './question-types';

describe('the question-type table (mentor §3)', () => {
  it('has one row per type, in the order of the list', () => {
    expect(Object.keys(QUESTION_TYPE_TABLE)).toEqual([...QUESTION_TYPES]);
  });

  it('sorts the types by the answer they take and the options they show', () => {
    expect(typesWhere(() => true).filter(isSingleAnswer)).toEqual(['MCQ', 'CODE_MCQ', 'MCQ_IMAGE']);
    expect(QUESTION_TYPES.filter(isMultiAnswer)).toEqual(['MSQ', 'MSQ_IMAGE']);
    expect(QUESTION_TYPES.filter(isTextAnswer)).toEqual(['FILL_IN_BLANK']);
    expect(QUESTION_TYPES.filter(hasImageOptions)).toEqual(['MCQ_IMAGE', 'MSQ_IMAGE']);
  });

  it('reads a question with no type as an MCQ', () => {
    for (const none of [null, undefined, ''] as const) {
      expect(effectiveType(none)).toBe('MCQ');
      expect(answerKindOf(none)).toBe('single');
      expect(hasImageOptions(none)).toBe(false);
      expect(typeLabel(none)).toBe('questionType.mcq');
    }
  });

  it('switches between the single and multiple form of one option kind keeping the options, both ways', () => {
    const keeps = QUESTION_TYPES.flatMap((from) =>
      QUESTION_TYPES.filter((to) => to !== from && typeSwitchKeepsOptions(from, to)).map(
        (to) => `${from}→${to}`,
      ),
    );
    expect(keeps).toEqual(['MCQ→MSQ', 'MSQ→MCQ', 'MCQ_IMAGE→MSQ_IMAGE', 'MSQ_IMAGE→MCQ_IMAGE']);
    for (const t of QUESTION_TYPES) expect(typeSwitchKeepsOptions(t, t)).toBe(true);
    for (const info of Object.values(QUESTION_TYPE_TABLE))
      for (const to of info.keepsOptionsWith) expect(QUESTION_TYPE_TABLE[to].option).toBe(info.option);
  });

  it('finds each type again from what a file says of it', () => {
    for (const t of QUESTION_TYPES) {
      const info = QUESTION_TYPE_TABLE[t];
      expect(questionTypeFor(info.answer, info.option, info.code)).toBe(t);
    }
    // code beside image or several options does not make another type
    expect(questionTypeFor('single', 'image', true)).toBe('MCQ_IMAGE');
    expect(questionTypeFor('multiple', 'text', true)).toBe('MSQ');
    expect(questionTypeFor('text', 'image', true)).toBe('FILL_IN_BLANK');
    expect(typeNeedsHint('MCQ', true)).toBe(true);
    expect(typeNeedsHint('CODE_MCQ', false)).toBe(true);
    expect(typeNeedsHint('MSQ', true)).toBe(false);
  });
});
