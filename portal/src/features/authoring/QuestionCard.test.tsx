import type { Question } from '@shared/schemas/assessment';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderPortal } from '../../testing/render';
import { QuestionCard } from './QuestionCard';
import { authoredQuestion } from './question.fixture';

const card = (type: Question['questionType'], correct: boolean[], points = 10) =>
  authoredQuestion(
    type,
    correct.map((isCorrect, i) => ({ value: `option ${i}`, isCorrect })),
    { points, status: 'PUBLISH' },
  );

const badges = () => screen.queryAllByText(/^Correct/).map((b) => b.textContent);

afterEach(cleanup);

describe('a question card', () => {
  it("shows each correct option's share of a multi-select question's 10 points (decision 005)", () => {
    renderPortal(<QuestionCard question={card('MSQ', [true, false, true, true])} index={0} mine={false} />);
    expect(badges()).toEqual(['Correct · 3.33 points', 'Correct · 3.33 points', 'Correct · 3.33 points']);
  });

  it('shows the whole 10 on a single-choice question and the points of a fill-in-blank', () => {
    renderPortal(<QuestionCard question={card('MCQ', [false, true])} index={0} mine={false} />);
    expect(badges()).toEqual(['Correct · 10 points']);
    cleanup();
    renderPortal(<QuestionCard question={card('FILL_IN_BLANK', [true], 25)} index={0} mine={false} />);
    expect(badges()).toEqual(['Correct · 25 points']);
  });
});
