import { describe, expect, it } from 'vitest';
import {
  type AnswerSheet,
  answer,
  answeredCount,
  isAnswered,
  payloads,
  sheetFrom,
  toPayload,
  typedValue,
} from './answers';

const q = (questionType: string | null, _id = 'q1') =>
  ({ _id, questionType }) as { _id: string; questionType: never };

describe('answer rules of the test taker (mentor §4)', () => {
  it('single-choice types replace the answer; a question with no type is an MCQ', () => {
    for (const type of ['MCQ', 'CODE_MCQ', 'MCQ_IMAGE', null, '']) {
      let sheet: AnswerSheet = {};
      sheet = answer(sheet, q(type), 'a');
      sheet = answer(sheet, q(type), 'b');
      expect(sheet, String(type)).toEqual({ q1: { answerId: 'b' } });
      expect(toPayload(q(type), sheet.q1)).toEqual({ questionId: 'q1', answerId: 'b' });
    }
  });

  it('multi-select types toggle an option in the list', () => {
    for (const type of ['MSQ', 'MSQ_IMAGE']) {
      let sheet: AnswerSheet = {};
      sheet = answer(sheet, q(type), 'a');
      sheet = answer(sheet, q(type), 'b');
      expect(sheet.q1).toEqual({ answerId: ['a', 'b'] });
      sheet = answer(sheet, q(type), 'a');
      expect(sheet.q1).toEqual({ answerId: ['b'] });
      sheet = answer(sheet, q(type), 'b');
      // every option unticked: still sent, as an empty list, so the server forgets the old choice
      expect(toPayload(q(type), sheet.q1)).toEqual({ questionId: 'q1', answerId: [] });
      expect(isAnswered(sheet.q1)).toBe(false);
    }
  });

  it('fill-in-blank stores the typed value, sent as a number when it is one written plainly', () => {
    let sheet: AnswerSheet = answer({}, q('FILL_IN_BLANK'), ' 1024 ');
    expect(sheet.q1).toEqual({ answer: ' 1024 ' });
    expect(toPayload(q('FILL_IN_BLANK'), sheet.q1)).toEqual({ questionId: 'q1', answer: 1024 });
    sheet = answer(sheet, q('FILL_IN_BLANK'), 'keys');
    expect(toPayload(q('FILL_IN_BLANK'), sheet.q1)).toEqual({ questionId: 'q1', answer: 'keys' });
    expect(typedValue('-3.5')).toBe(-3.5);
    expect(typedValue('0')).toBe(0);
    // kept as typed: leading zeros, exponents, trailing zeros, words
    expect(typedValue('007')).toBe('007');
    expect(typedValue('1e3')).toBe('1e3');
    expect(typedValue('2.50')).toBe('2.50');
    expect(typedValue('')).toBe('');
    // an emptied box is an unanswered question, but it is still sent so the old value is replaced
    sheet = answer(sheet, q('FILL_IN_BLANK'), '   ');
    expect(isAnswered(sheet.q1)).toBe(false);
    expect(toPayload(q('FILL_IN_BLANK'), sheet.q1)).toEqual({ questionId: 'q1', answer: '' });
  });

  it('counts answered questions and builds the evaluation body in question order', () => {
    const questions = [q('MCQ', 'q1'), q('MSQ', 'q2'), q('FILL_IN_BLANK', 'q3'), q('MCQ', 'q4')];
    let sheet: AnswerSheet = {};
    sheet = answer(sheet, questions[2]!, '12');
    sheet = answer(sheet, questions[1]!, 'x');
    sheet = answer(sheet, questions[0]!, 'a');
    expect(answeredCount(sheet, questions)).toBe(3);
    expect(payloads(sheet, questions)).toEqual([
      { questionId: 'q1', answerId: 'a' },
      { questionId: 'q2', answerId: ['x'] },
      { questionId: 'q3', answer: 12 },
    ]);
  });

  it('reads the answers the server holds back into a sheet', () => {
    expect(
      sheetFrom([
        { questionId: 'q1', answerId: 'a' },
        { questionId: 'q2', answerId: ['x', 'y'] },
        { questionId: 'q3', answer: 12 },
        { questionId: 'q4', answer: '' },
      ]),
    ).toEqual({
      q1: { answerId: 'a' },
      q2: { answerId: ['x', 'y'] },
      q3: { answer: '12' },
      q4: { answer: '' },
    });
  });
});
