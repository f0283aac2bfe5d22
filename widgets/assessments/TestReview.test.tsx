import type { Question } from '@shared/schemas/assessment';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TestReview, type TestViewData } from './TestReview';

afterEach(() => cleanup());

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
let next = 100;
const opt = (value: string, isCorrect = false) => ({
  _id: id(next++),
  value,
  isCorrect,
  points: isCorrect ? 10 : 0,
});

function question(n: number, over: Partial<Question>): Question {
  return {
    _id: id(n),
    questionId: id(n),
    question: `Question text ${n}`,
    questionType: 'MCQ',
    optionType: null,
    code: null,
    questionImagePath: null,
    isQuestionImage: false,
    points: 10,
    options: [],
    subject: null,
    topic: null,
    language: id(999),
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
  };
}

const mcq = question(1, {
  question: 'Which keyword declares a constant?',
  options: [opt('var'), opt('const', true), opt('let')],
  explanation: [{ type: 'TEXT', value: 'const bindings cannot be reassigned.' }],
});
const msq = question(2, {
  questionType: 'MSQ',
  question: 'Which are primitive types?',
  options: [opt('string', true), opt('number', true), opt('object')],
});
const fib = question(3, {
  questionType: 'FILL_IN_BLANK',
  question: 'typeof null is ___',
  options: [opt('object', true)],
});
const code = question(4, {
  questionType: 'CODE_MCQ',
  question: 'What does this print?',
  code: 'console.log(1 + "1")',
  options: [opt('2'), opt('11', true)],
});
const image = question(5, {
  questionType: 'MCQ_IMAGE',
  question: 'Which tree is right?',
  questionImagePath: '/images/questions/dom-tree-siblings.svg',
  options: [opt('/images/a.svg', true), opt('/images/b.svg')],
});

const view: TestViewData = {
  _id: id(90),
  linkId: 'link-abcdefghij',
  type: 'SECTION',
  subject: null,
  testId: null,
  isCompleted: true,
  percentage: 30,
  score: 15,
  createdAt: '2026-03-03T16:05:00Z',
  completedIn: 125,
  status: 'NO_ENOUGH_MARKS',
  startTime: null,
  duration: null,
  userId: id(91),
  certificateGenerated: false,
  assignedSectionName: 'Basics',
  assignedRoadMapName: 'JavaScript Foundations',
  assignedResourceName: null,
  assignedSubjectName: null,
  questionCount: 5,
  assignedRoadmapId: null,
  sectionId: null,
  resourceId: null,
  integrity: null,
  timeline: [],
  attempt: 2,
  retakeAt: null,
  questions: [mcq, msq, fib, code, image],
  answers: [
    { questionId: mcq._id, answerId: mcq.options[0]!._id, points: 0 },
    { questionId: msq._id, answerId: [msq.options[0]!._id], points: 5 },
    { questionId: fib._id, answer: ' Object ', points: 10 },
    { questionId: image._id, answerId: [] },
  ],
};

const card = (n: number) => screen.getByRole('heading', { name: `Question ${n}` }).closest('li')!;

describe('the questions-and-answers review', () => {
  it('shows each question with its type badge, points badge and verdict', () => {
    render(<TestReview view={view} />);
    expect(within(card(1)).getByText('Single choice')).toBeTruthy();
    expect(within(card(1)).getByText('0 / 10 points')).toBeTruthy();
    expect(within(card(1)).getByText('Wrong')).toBeTruthy();
    expect(within(card(2)).getByText('Multiple choice')).toBeTruthy();
    expect(within(card(2)).getByText('5 / 10 points')).toBeTruthy();
    expect(within(card(2)).getByText('Partly correct')).toBeTruthy();
    expect(within(card(3)).getByText('10 / 10 points')).toBeTruthy();
    expect(within(card(3)).getByText('Fill in the blank')).toBeTruthy();
  });

  it("marks the correct options and the learner's wrong choice", () => {
    render(<TestReview view={view} />);
    const options = within(card(1)).getAllByRole('listitem');
    expect(options.map((o) => o.textContent)).toEqual([
      expect.stringContaining('Your answer, wrong'),
      expect.stringContaining('Correct answer'),
      expect.not.stringMatching(/Correct answer|Your answer/),
    ]);
    const msqOptions = within(card(2)).getAllByRole('listitem');
    expect(msqOptions[0]!.textContent).toContain('Your answer');
    expect(msqOptions[0]!.textContent).toContain('Correct answer');
    expect(msqOptions[1]!.textContent).toContain('Correct answer');
    expect(msqOptions[1]!.textContent).not.toContain('Your answer');
  });

  it("says 'Not Attended' for unanswered questions, an empty choice list included", () => {
    render(<TestReview view={view} />);
    expect(within(card(4)).getByText('Not Attended')).toBeTruthy();
    expect(within(card(4)).getByText('0 / 10 points')).toBeTruthy();
    expect(within(card(5)).getByText('Not Attended')).toBeTruthy();
    expect(within(card(1)).queryByText('Not Attended')).toBeNull();
  });

  it('shows the fill-in-blank answer with the expected answer', () => {
    render(<TestReview view={view} />);
    const terms = within(card(3))
      .getAllByRole('term')
      .map((t) => t.textContent);
    const defs = within(card(3))
      .getAllByRole('definition')
      .map((d) => d.textContent);
    expect(terms).toEqual(['Your answer', 'Expected answer']);
    expect(defs).toEqual(['ObjectCorrect', 'object']);
  });

  it('shows the code, the question image, image options and the explanation', () => {
    render(<TestReview view={view} />);
    expect(within(card(4)).getByText('console.log(1 + "1")')).toBeTruthy();
    expect(within(card(5)).getByRole('img', { name: 'Illustration of question 5' }).getAttribute('src')).toBe(
      '/images/questions/dom-tree-siblings.svg',
    );
    expect(within(card(5)).getByRole('img', { name: 'Option A' }).getAttribute('src')).toBe('/images/a.svg');
    expect(within(card(1)).getByText('const bindings cannot be reassigned.')).toBeTruthy();
  });

  it('scores with the shared rules when the server sent no points', () => {
    const unscored = { ...view, answers: view.answers.map(({ points: _p, ...a }) => a) };
    render(<TestReview view={unscored} />);
    expect(within(card(2)).getByText('5 / 10 points')).toBeTruthy();
    expect(within(card(3)).getByText('10 / 10 points')).toBeTruthy();
  });

  it('offers Feedback only when the host can send it', () => {
    render(<TestReview view={view} />);
    expect(screen.queryByRole('button', { name: /^Feedback/ })).toBeNull();
  });
});

describe('question feedback', () => {
  const open = (onFeedback = vi.fn(async () => 'Thank you for your feedback.')) => {
    render(<TestReview view={view} onFeedback={onFeedback} />);
    fireEvent.click(screen.getByRole('button', { name: 'Feedback on question 2' }));
    return onFeedback;
  };
  const type = (text: string) =>
    fireEvent.input(screen.getByRole('textbox', { name: /Your feedback/ }), { target: { value: text } });
  const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));

  it("is required: 'Please enter your feedback'", async () => {
    const onFeedback = open();
    send();
    expect(await screen.findByText('Please enter your feedback')).toBeTruthy();
    type('          ');
    send();
    expect(await screen.findByText('Please enter your feedback')).toBeTruthy();
    expect(onFeedback).not.toHaveBeenCalled();
  });

  it("needs 10 characters: 'Feedback at least 10 characters'", async () => {
    const onFeedback = open();
    type('Too short');
    send();
    expect(await screen.findByText('Feedback at least 10 characters')).toBeTruthy();
    expect(onFeedback).not.toHaveBeenCalled();
  });

  it("allows 500 characters: 'Feedback maximum 500 characters'", async () => {
    const onFeedback = open();
    type('x'.repeat(501));
    send();
    expect(await screen.findByText('Feedback maximum 500 characters')).toBeTruthy();
    expect(screen.getByText('501 / 500 characters')).toBeTruthy();
    expect(onFeedback).not.toHaveBeenCalled();
  });

  it('sends the trimmed text for the question and closes', async () => {
    const onFeedback = open();
    type(`  ${'y'.repeat(500)}  `);
    send();
    await waitFor(() =>
      expect(onFeedback).toHaveBeenCalledWith({ questionId: msq._id, feedback: 'y'.repeat(500) }),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Send feedback' })).toBeNull());
  });

  it("shows the server's refusal and keeps the text", async () => {
    const { ApiError } = await import('@shared/client/client');
    open(
      vi.fn(async () => {
        throw new ApiError(409, {
          statusCode: 409,
          error: 'Conflict',
          message: 'Feedback can be given once the test is evaluated.',
        });
      }),
    );
    type('The second option is also right.');
    send();
    expect(await screen.findByText('Feedback can be given once the test is evaluated.')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /Your feedback/ }) as HTMLTextAreaElement).value).toBe(
      'The second option is also right.',
    );
  });
});

describe('the focus record beside the answers', () => {
  const at = (min: number, sec = 0) => new Date(Date.UTC(2026, 2, 3, 16, min, sec)).toISOString();
  const recorded: TestViewData = {
    ...view,
    integrity: {
      tier: 'NOTABLE',
      awaySeconds: 130,
      longestAwaySeconds: 130,
      absences: 1,
      briefAbsences: 1,
      pastes: 1,
      secondTabs: 0,
      offlineSeconds: 0,
      testSeconds: 1200,
      reasons: ['2 min 10 s away in all (11 % of the test)', 'away 2 min 10 s at once'],
    },
    timeline: [
      { kind: 'AWAY', at: at(6), until: at(8, 10), seconds: 130, question: 2, chars: null, brief: false },
      { kind: 'AWAY', at: at(9), until: at(9, 1), seconds: 1, question: 2, chars: null, brief: true },
      { kind: 'PASTE', at: at(10), until: null, seconds: null, question: 3, chars: 7, brief: false },
    ],
  };

  it('shows the tier and its reasons as context, not proof, with the figures and the timeline', () => {
    render(<TestReview view={recorded} />);
    const record = screen.getByRole('region', { name: /Focus record/ });
    expect(record.querySelector('.badge')?.textContent).toMatch(/^Notable/);
    expect(record.textContent).toContain(
      'Notable: 2 min 10 s away in all (11 % of the test); away 2 min 10 s at once.',
    );
    expect(record.textContent).toContain('This is context, not proof');
    expect(within(record).getByText('1 (and 1 brief)')).toBeTruthy();
    const timeline = within(record).getByRole('list', { name: 'Focus record timeline' });
    expect(
      within(timeline)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.replace(/^.*(am|pm)\s*/, '')),
    ).toEqual([
      'Away 2 min 10 s on question 2',
      'Briefly away 1 s on question 2',
      'Pasted 7 characters into the answer on question 3',
    ]);
  });

  it('lists beside each question what happened while it was on screen', () => {
    render(<TestReview view={recorded} />);
    expect(within(card(2)).getByText('While this question was on screen')).toBeTruthy();
    expect(within(card(2)).getByText('Away 2 min 10 s on question 2')).toBeTruthy();
    expect(within(card(3)).getByText('Pasted 7 characters into the answer on question 3')).toBeTruthy();
    expect(within(card(1)).queryByText('While this question was on screen')).toBeNull();
  });

  it('speaks to the learner about their own record', () => {
    render(
      <TestReview
        view={{ ...recorded, integrity: { ...recorded.integrity!, tier: 'NONE', reasons: [] } }}
        onFeedback={vi.fn()}
      />,
    );
    expect(screen.getByRole('region', { name: /Focus record/ }).textContent).toContain(
      'You stayed with the test: nothing reached the rules below.',
    );
  });
});
