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
import { awardKindOf, STATUS_LABEL_KEYS, scoreDisplay } from '@shared/rules/test-status';
import type { Answer, Question, TestView } from '@shared/schemas/assessment';
import { useState } from 'react';
import type { z } from 'zod';
import { DurationCell } from './cells';
import { FeedbackDialog } from './FeedbackDialog';
import { FocusRecord, QuestionMoments } from './FocusRecord';
import { assessedContext, assessedName } from './labels';
import './assessments.css';
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { useI18n } from '../core/i18n';

export type TestViewData = z.infer<typeof TestView>;
type GivenAnswer = Answer & { points?: number };

/** An answer that was never given (a message key). */
export const NOT_ATTENDED = 'review.notAttended' satisfies MessageKey;

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

type Verdict = { label: MessageKey; badge: string };
function verdictOf(attended: boolean, points: number): Verdict {
  if (!attended) return { label: NOT_ATTENDED, badge: 'badge-warning' };
  if (points >= POINTS_PER_QUESTION) return { label: 'review.correct', badge: 'badge-success' };
  if (points > 0) return { label: 'review.partlyCorrect', badge: 'badge-warning' };
  return { label: 'review.wrong', badge: 'badge-danger' };
}

function Options({ question, answer }: { question: Question; answer: GivenAnswer | undefined }) {
  const { t } = useI18n();
  const chosen = new Set(chosenIds(answer));
  const images = hasImageOptions(question.questionType);
  return (
    <ul className="wm-qa-options" aria-label={t('review.options')}>
      {question.options.map((o, i) => {
        const picked = chosen.has(o._id);
        const state = o.isCorrect ? 'is-correct' : picked ? 'is-wrong' : '';
        return (
          <li key={o._id} className={`wm-qa-option ${state}`}>
            <span className="wm-qa-option-mark" aria-hidden="true">
              {o.isCorrect ? '✓' : picked ? '✗' : optionLetter(i)}
            </span>
            <span className="wm-qa-option-value">
              {images ? <img src={o.value} alt={t('test.option', { letter: optionLetter(i) })} /> : o.value}
            </span>
            {picked ? (
              <span className={`badge ${o.isCorrect ? 'badge-success' : 'badge-danger'}`}>
                {o.isCorrect ? t('test.yourAnswer') : t('review.yourAnswerWrong')}
              </span>
            ) : null}
            {o.isCorrect ? <span className="badge badge-success">{t('review.correctAnswer')}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

function FillInBlank({ question, answer }: { question: Question; answer: GivenAnswer | undefined }) {
  const { t, list } = useI18n();
  const given = typedAnswer(answer);
  const expected = acceptedValues(scoringOf(question));
  const right = given !== null && expected.some((v) => matchesAccepted(v, given));
  return (
    <dl className="wm-qa-fib">
      <dt>{t('test.yourAnswer')}</dt>
      <dd>
        {given === null ? (
          <span className="muted">{t(NOT_ATTENDED)}</span>
        ) : (
          <>
            <span>{given}</span>
            <span className={`badge ${right ? 'badge-success' : 'badge-danger'}`}>
              {right ? t('review.correct') : t('review.wrong')}
            </span>
          </>
        )}
      </dd>
      <dt>{t('review.expected')}</dt>
      <dd>{list(expected, { type: 'disjunction' })}</dd>
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
  const { t } = useI18n();
  const attended = isAttended(question, answer);
  const points = earnedPoints(question, answer);
  const verdict = verdictOf(attended, points);
  const type = effectiveType(question.questionType);
  const explanation = question.explanation.map((e) => e.value.trim()).filter(Boolean);
  return (
    <li className="card wm-qa-question">
      <div className="wm-qa-question-head">
        <h2>{t('review.question', { number: index + 1 })}</h2>
        <span className="badge badge-primary">{t(typeLabel(type))}</span>
        <span className="badge">{t('review.points', { points, max: POINTS_PER_QUESTION })}</span>
        <span className={`badge ${verdict.badge}`}>{t(verdict.label)}</span>
      </div>
      <p className="wm-qa-question-text">{question.question}</p>
      {isMultiAnswer(type) ? <p className="muted">{t('review.moreThanOne')}</p> : null}
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
          alt={t('review.illustration', { number: index + 1 })}
        />
      ) : null}
      {isTextAnswer(type) ? (
        <FillInBlank question={question} answer={answer} />
      ) : (
        <Options question={question} answer={answer} />
      )}
      {explanation.length ? (
        <div className="wm-qa-explanation">
          <strong>{t('review.explanation')}</strong>
          {explanation.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      ) : null}
      <QuestionMoments entries={moments} />
      {onFeedback ? (
        <div className="wm-qa-question-actions">
          <button type="button" className="btn btn-secondary btn-small" onClick={onFeedback}>
            {t('review.feedback')}
            <span className="visually-hidden"> {t('review.onQuestion', { number: index + 1 })}</span>
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** The outcome in words: 'No Enough Marks', 'Feather earned', … */
function resultLabel(view: Pick<TestViewData, 'type' | 'status'>, t: Translator['t']): string {
  if (view.status === 'VIEW_CERTIFICATE' || view.status === 'GENERATE_CERTIFICATE') {
    const kind = awardKindOf(view.type);
    return kind ? t('review.awardEarned', { kind }) : t('review.passed');
  }
  return t(STATUS_LABEL_KEYS[view.status]);
}

export function TestReview({
  view,
  onFeedback,
  viewer = onFeedback ? 'learner' : 'mentor',
}: TestReviewProps) {
  const { t, locale } = useI18n();
  const [asking, setAsking] = useState<{ id: string; number: number } | null>(null);
  const answers = new Map(view.answers.map((a) => [a.questionId, a]));
  const attended = view.questions.filter((q) => isAttended(q, answers.get(q._id))).length;
  const score = scoreDisplay(view);
  return (
    <div className="wm-review">
      <section className="card" aria-label={t('review.summary')}>
        <p className="muted">{assessedContext({ ...view, attempt: null }, t)}</p>
        <p>
          <strong>{assessedName(view, t)}</strong>
        </p>
        <dl className="wm-review-summary">
          <div>
            <dt>{t('column.score')}</dt>
            <dd>{score ?? '-'}</dd>
          </div>
          <div>
            <dt>{t('review.answered')}</dt>
            <dd>{t('review.answeredOf', { attended, total: view.questions.length })}</dd>
          </div>
          <div>
            <dt>{t('column.status')}</dt>
            <dd>{resultLabel(view, t)}</dd>
          </div>
          <div>
            <dt>{t('review.completedIn')}</dt>
            <dd>
              <DurationCell seconds={view.completedIn} />
            </dd>
          </div>
          <div>
            <dt>{t('column.createdAt')}</dt>
            <dd>{formatDateTime(view.createdAt, undefined, locale)}</dd>
          </div>
          <div>
            <dt>{t('review.attempt')}</dt>
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
          about={t('review.questionLower', { number: asking?.number ?? 0 })}
          onClose={() => setAsking(null)}
          onSend={(feedback) => onFeedback({ questionId: asking!.id, feedback })}
        />
      ) : null}
    </div>
  );
}
