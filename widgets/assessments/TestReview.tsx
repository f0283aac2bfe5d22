/**
 * 'Questions & Answers' (learner §2, mentor §2.5): one evaluated test, question by question, with its type
 * badge, code, image, the options marked correct or wrong and which the learner chose, a points badge,
 * 'Not Attended' for unanswered questions, fill-in-blank answers beside the expected answer, the
 * explanation, and — when `onFeedback` is given (the learner's view) — a Feedback button per question.
 * Shared by the learner's /assesments/{linkId}/view and the tenant's /portal/users/{userId}/testlink/{linkId}.
 */

import { formatDateTime } from '@shared/rules/format-date';
import {
  effectiveType,
  hasImageOptions,
  isMultiAnswer,
  isTextAnswer,
  typeLabel,
} from '@shared/rules/question-types';
import {
  acceptedValues,
  matchesAccepted,
  POINTS_PER_QUESTION,
  round2,
  scoreQuestion,
} from '@shared/rules/scoring';
import { awardKindOf, STATUS_LABELS, scoreDisplay } from '@shared/rules/test-status';
import type { Answer, Question, TestView } from '@shared/schemas/assessment';
import { useState } from 'react';
import type { z } from 'zod';
import { DurationCell } from './cells';
import { FeedbackDialog } from './FeedbackDialog';
import { FocusRecord, QuestionMoments } from './FocusRecord';
import { assessedContext, assessedName } from './labels';
import './assessments.css';

export type TestViewData = z.infer<typeof TestView>;
type GivenAnswer = Answer & { points?: number };

export const NOT_ATTENDED = 'Not Attended';

export interface TestReviewProps {
  view: TestViewData;
  /** Sends feedback on a question (the learner's view); no Feedback button without it. */
  onFeedback?: (input: { questionId: string; feedback: string }) => Promise<string | undefined>;
  /** Who reads it, for the focus record's wording: the learner ('you') or their mentor. */
  viewer?: 'learner' | 'mentor';
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const optionLetter = (i: number) => LETTERS[i] ?? String(i + 1);

const chosenIds = (a: GivenAnswer | undefined): string[] => {
  if (!a || a.answerId === undefined) return [];
  return (Array.isArray(a.answerId) ? a.answerId : [a.answerId]).filter(Boolean);
};
const typedAnswer = (a: GivenAnswer | undefined): string | null => {
  if (!a || a.answer === undefined || a.answer === null) return null;
  const text = String(a.answer).trim();
  return text === '' ? null : text;
};

/** Whether the learner answered the question at all. */
export function isAttended(q: Pick<Question, 'questionType'>, a: GivenAnswer | undefined): boolean {
  return isTextAnswer(q.questionType) ? typedAnswer(a) !== null : chosenIds(a).length > 0;
}

const scoringOf = (q: Question) => ({
  type: q.questionType,
  options: q.options.map((o) => ({ id: o._id, value: o.value, isCorrect: o.isCorrect })),
});

/** The points the answer earned: the server's figure when it sent one, else the shared scoring. */
export function earnedPoints(q: Question, a: GivenAnswer | undefined): number {
  if (!isAttended(q, a)) return 0;
  if (typeof a?.points === 'number') return round2(a.points);
  return scoreQuestion(scoringOf(q), {
    answerIds: chosenIds(a),
    answerText: a?.answer ?? null,
  });
}

type Verdict = { label: string; badge: string };
function verdictOf(attended: boolean, points: number): Verdict {
  if (!attended) return { label: NOT_ATTENDED, badge: 'badge-warning' };
  if (points >= POINTS_PER_QUESTION) return { label: 'Correct', badge: 'badge-success' };
  if (points > 0) return { label: 'Partly correct', badge: 'badge-warning' };
  return { label: 'Wrong', badge: 'badge-danger' };
}

function Options({ question, answer }: { question: Question; answer: GivenAnswer | undefined }) {
  const chosen = new Set(chosenIds(answer));
  const images = hasImageOptions(question.questionType);
  return (
    <ul className="wm-qa-options" aria-label="Options">
      {question.options.map((o, i) => {
        const picked = chosen.has(o._id);
        const state = o.isCorrect ? 'is-correct' : picked ? 'is-wrong' : '';
        return (
          <li key={o._id} className={`wm-qa-option ${state}`}>
            <span className="wm-qa-option-mark" aria-hidden="true">
              {o.isCorrect ? '✓' : picked ? '✗' : optionLetter(i)}
            </span>
            <span className="wm-qa-option-value">
              {images ? <img src={o.value} alt={`Option ${optionLetter(i)}`} /> : o.value}
            </span>
            {picked ? (
              <span className={`badge ${o.isCorrect ? 'badge-success' : 'badge-danger'}`}>
                {o.isCorrect ? 'Your answer' : 'Your answer, wrong'}
              </span>
            ) : null}
            {o.isCorrect ? <span className="badge badge-success">Correct answer</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

function FillInBlank({ question, answer }: { question: Question; answer: GivenAnswer | undefined }) {
  const given = typedAnswer(answer);
  const expected = acceptedValues(scoringOf(question));
  const right = given !== null && expected.some((v) => matchesAccepted(v, given));
  return (
    <dl className="wm-qa-fib">
      <dt>Your answer</dt>
      <dd>
        {given === null ? (
          <span className="muted">{NOT_ATTENDED}</span>
        ) : (
          <>
            <span>{given}</span>
            <span className={`badge ${right ? 'badge-success' : 'badge-danger'}`}>
              {right ? 'Correct' : 'Wrong'}
            </span>
          </>
        )}
      </dd>
      <dt>Expected answer</dt>
      <dd>{expected.join(' or ')}</dd>
    </dl>
  );
}

function QuestionReview({
  question,
  answer,
  index,
  moments,
  onFeedback,
}: {
  question: Question;
  answer: GivenAnswer | undefined;
  index: number;
  moments: TestViewData['timeline'];
  onFeedback?: () => void;
}) {
  const attended = isAttended(question, answer);
  const points = earnedPoints(question, answer);
  const verdict = verdictOf(attended, points);
  const type = effectiveType(question.questionType);
  const explanation = question.explanation.map((e) => e.value.trim()).filter(Boolean);
  return (
    <li className="card wm-qa-question">
      <div className="wm-qa-question-head">
        <h2>Question {index + 1}</h2>
        <span className="badge badge-primary">{typeLabel(type)}</span>
        <span className="badge">
          {points} / {POINTS_PER_QUESTION} points
        </span>
        <span className={`badge ${verdict.badge}`}>{verdict.label}</span>
      </div>
      <p className="wm-qa-question-text">{question.question}</p>
      {isMultiAnswer(type) ? <p className="muted">More than one answer can be correct.</p> : null}
      {question.code ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block must be reachable by keyboard
        <pre className="wm-qa-code" tabIndex={0}>
          <code>{question.code}</code>
        </pre>
      ) : null}
      {question.questionImagePath ? (
        <img
          className="wm-qa-question-image"
          src={question.questionImagePath}
          alt={`Illustration of question ${index + 1}`}
        />
      ) : null}
      {isTextAnswer(type) ? (
        <FillInBlank question={question} answer={answer} />
      ) : (
        <Options question={question} answer={answer} />
      )}
      {explanation.length ? (
        <div className="wm-qa-explanation">
          <strong>Explanation</strong>
          {explanation.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      ) : null}
      <QuestionMoments entries={moments} />
      {onFeedback ? (
        <div className="wm-qa-question-actions">
          <button type="button" className="btn btn-secondary btn-small" onClick={onFeedback}>
            Feedback<span className="visually-hidden"> on question {index + 1}</span>
          </button>
        </div>
      ) : null}
    </li>
  );
}

const AWARD_NAMES = { feather: 'Feather', badge: 'Badge', certificate: 'Certificate' } as const;

/** The outcome in words: 'No Enough Marks', 'Feather earned', … */
function resultLabel(view: Pick<TestViewData, 'type' | 'status'>): string {
  if (view.status === 'VIEW_CERTIFICATE' || view.status === 'GENERATE_CERTIFICATE') {
    const kind = awardKindOf(view.type);
    return kind ? `${AWARD_NAMES[kind]} earned` : 'Passed';
  }
  return STATUS_LABELS[view.status];
}

export function TestReview({
  view,
  onFeedback,
  viewer = onFeedback ? 'learner' : 'mentor',
}: TestReviewProps) {
  const [asking, setAsking] = useState<{ id: string; number: number } | null>(null);
  const answers = new Map(view.answers.map((a) => [a.questionId, a]));
  const attended = view.questions.filter((q) => isAttended(q, answers.get(q._id))).length;
  const score = scoreDisplay(view);
  return (
    <div className="wm-review">
      <section className="card" aria-label="Summary">
        <p className="muted">{assessedContext({ ...view, attempt: null })}</p>
        <p>
          <strong>{assessedName(view)}</strong>
        </p>
        <dl className="wm-review-summary">
          <div>
            <dt>Score</dt>
            <dd>{score ?? '-'}</dd>
          </div>
          <div>
            <dt>Answered</dt>
            <dd>
              {attended} of {view.questions.length}
            </dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>{resultLabel(view)}</dd>
          </div>
          <div>
            <dt>Completed in</dt>
            <dd>
              <DurationCell seconds={view.completedIn} />
            </dd>
          </div>
          <div>
            <dt>Created At</dt>
            <dd>{formatDateTime(view.createdAt)}</dd>
          </div>
          <div>
            <dt>Attempt</dt>
            <dd>{view.attempt ?? '-'}</dd>
          </div>
        </dl>
      </section>
      <FocusRecord
        summary={view.integrity}
        timeline={view.timeline}
        who={viewer === 'learner' ? 'you' : 'learner'}
      />
      <ol className="wm-review-list">
        {view.questions.map((q, i) => (
          <QuestionReview
            key={q._id}
            question={q}
            answer={answers.get(q._id)}
            index={i}
            moments={view.timeline.filter((t) => t.question === i + 1)}
            onFeedback={onFeedback ? () => setAsking({ id: q._id, number: i + 1 }) : undefined}
          />
        ))}
      </ol>
      {onFeedback ? (
        <FeedbackDialog
          open={asking !== null}
          about={`question ${asking?.number ?? ''}`}
          onClose={() => setAsking(null)}
          onSend={(feedback) => onFeedback({ questionId: asking!.id, feedback })}
        />
      ) : null}
    </div>
  );
}
