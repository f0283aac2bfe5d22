/**
 * /initial-assessment/{linkId} (mentor §2.11): the prerequisite assessment of a selected roadmap.
 * Numbered question tabs (answered ones highlighted), Prev/Next and 'Question n / total' on narrow
 * screens, Finish with a confirmation (warning when questions are unanswered), a confirmation before
 * leaving through the logo and a page-leave warning. Submitting creates the learner's roadmap, which
 * continues as a selection does. Answers are kept in the tab's session storage, so a reload loses nothing.
 */
import './public.css';
import { evaluateAndCreateRoadmap, initialAssessment } from '@shared/contract/catalogue';
import type { TakerQuestion } from '@shared/schemas/assessment';
import { assignedRoadmapPath, rememberAssigned } from '@widgets/catalogue/selection';
import { client } from '@widgets/core/api';
import { session } from '@widgets/core/session';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  type AnswerSheet,
  answer,
  answeredCount,
  answerKind,
  hasImageOptions,
  isAnswered,
  submission,
  UNANSWERED_WARNING,
} from './answers';
import { SkipLink, useDocumentTitle } from './PublicChrome';

export const LEAVE_QUESTION = 'Do you want to leave the assessment?';
export const ASSESS_FAILED = "Couldn't assess the roadmap";

const storageKey = (linkId: string) => `waymark.initial-assessment.${linkId}`;

function restore(linkId: string): AnswerSheet | null {
  try {
    const raw = sessionStorage.getItem(storageKey(linkId));
    return raw ? (JSON.parse(raw) as AnswerSheet) : null;
  } catch {
    return null;
  }
}

function keep(linkId: string, sheet: AnswerSheet | null) {
  try {
    if (sheet) sessionStorage.setItem(storageKey(linkId), JSON.stringify(sheet));
    else sessionStorage.removeItem(storageKey(linkId));
  } catch {
    // storage unavailable: answers live in memory only
  }
}

export default function InitialAssessmentPage() {
  const { linkId = '' } = useParams();
  const navigate = useNavigate();
  const [index, setIndex] = useState(0);
  const [sheet, setSheet] = useState<AnswerSheet>(() => restore(linkId) ?? {});
  const [finishing, setFinishing] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const test = useCall(
    (signal) => client.call(initialAssessment, { params: { linkId }, signal }).then((r) => r.data),
    [linkId],
  );
  const data = test.data;
  useDocumentTitle(data ? `Pre-requisite Topic: ${data.roadmapName}` : 'Prerequisite assessment');

  // load failure: the server's message, then home
  useEffect(() => {
    if (!test.error) return;
    toast(messageOf(test.error, "Couldn't load the assessment"), { kind: 'error' });
    navigate('/', { replace: true });
  }, [test.error, navigate]);

  // answers the server holds already count, unless this tab has newer ones
  useEffect(() => {
    if (!data) return;
    if (data.isCompleted) {
      setDone(true);
      toast('This assessment has been submitted already.', { kind: 'info' });
      navigate('/', { replace: true });
      return;
    }
    if (!restore(linkId) && data.answers.length) {
      const fromServer: AnswerSheet = {};
      for (const a of data.answers) {
        fromServer[a.questionId] =
          a.answer !== undefined ? { answer: String(a.answer) } : { answerId: a.answerId };
      }
      setSheet(fromServer);
    }
  }, [data, linkId, navigate]);

  useEffect(() => {
    if (!done) keep(linkId, sheet);
  }, [linkId, sheet, done]);

  // a page-leave warning while the assessment is unfinished
  useEffect(() => {
    if (!data || done) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [data, done]);

  if (!data || data.isCompleted) return <Loader text="Loading the assessment…" />;
  const questions = data.questions;
  const total = questions.length;
  const current = questions[Math.min(index, total - 1)];
  const answered = answeredCount(sheet, questions);
  const topic = current?.roadmapName ?? data.roadmapName;

  async function submit() {
    if (!data) return;
    setSubmitting(true);
    try {
      const res = await client.call(evaluateAndCreateRoadmap, {
        body: { linkId, answers: submission(sheet, questions, data.roadmapId) },
      });
      if (!res.data?._id) throw new Error('no roadmap');
      setDone(true);
      keep(linkId, null);
      const role = session.peek()?.user.role ?? null;
      rememberAssigned(role, res.data._id);
      navigate(assignedRoadmapPath(role, res.data._id), { replace: true });
    } catch (err) {
      setDone(true);
      keep(linkId, null);
      toast(messageOf(err, ASSESS_FAILED), { kind: 'error' });
      navigate('/', { replace: true });
    }
  }

  return (
    <div className="assessment-page">
      <SkipLink />
      <header className="assessment-bar">
        <button type="button" className="brand brand-button" onClick={() => setLeaving(true)}>
          <img src="/favicon.svg" alt="" width="32" height="32" />
          <span>Waymark</span>
          <span className="visually-hidden"> (leave the assessment)</span>
        </button>
        <p className="assessment-topic">Pre-requisite Topic: {topic}</p>
      </header>
      <main id="main" className="assessment-main" tabIndex={-1}>
        <h1 className="assessment-title">Prerequisite assessment for {data.roadmapName}</h1>
        <p className="muted">
          Answer what you can: the sections of any prerequisite you are not yet sure of come first in your
          roadmap.
        </p>
        {total === 0 || !current ? (
          <p className="empty">This assessment has no questions.</p>
        ) : (
          <>
            <nav className="question-tabs" aria-label="Questions">
              <ol>
                {questions.map((q, i) => {
                  const isDone = isAnswered(sheet[q._id]);
                  return (
                    <li key={q._id}>
                      <button
                        type="button"
                        className={`question-tab${isDone ? ' answered' : ''}${i === index ? ' current' : ''}`}
                        aria-current={i === index ? 'step' : undefined}
                        onClick={() => setIndex(i)}
                      >
                        {i + 1}
                        <span className="visually-hidden">{isDone ? ', answered' : ', not answered'}</span>
                      </button>
                    </li>
                  );
                })}
              </ol>
            </nav>
            <div className="question-stepper">
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => setIndex((i) => Math.max(0, i - 1))}
                disabled={index === 0}
                aria-label="Previous question"
              >
                ‹
              </button>
              <span>
                Question {index + 1} / {total}
              </span>
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => setIndex((i) => Math.min(total - 1, i + 1))}
                disabled={index === total - 1}
                aria-label="Next question"
              >
                ›
              </button>
            </div>
            <p className="visually-hidden" aria-live="polite">
              Question {index + 1} of {total}
            </p>
            <QuestionView
              key={current._id}
              number={index + 1}
              question={current}
              sheet={sheet}
              onAnswer={(value) => setSheet((s) => answer(s, current, value))}
            />
            <div className="question-actions">
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => setIndex((i) => Math.max(0, i - 1))}
                disabled={index === 0}
              >
                Prev
              </button>
              {index < total - 1 ? (
                <button type="button" className="btn btn-secondary" onClick={() => setIndex((i) => i + 1)}>
                  Next
                </button>
              ) : null}
              <div className="spacer" />
              <span className="muted">
                {answered} of {total} answered
              </span>
              <button
                type="button"
                className={index === total - 1 ? 'btn' : 'btn btn-secondary'}
                onClick={() => setFinishing(true)}
              >
                Finish
              </button>
            </div>
          </>
        )}
      </main>

      <Dialog
        open={finishing}
        title="Finish the assessment"
        onClose={() => setFinishing(false)}
        modalOnly={submitting}
        role={answered < total ? 'alertdialog' : 'dialog'}
        actions={
          submitting ? null : (
            <>
              <button type="button" className="btn btn-secondary" onClick={() => setFinishing(false)}>
                Cancel
              </button>
              <button type="button" className="btn" onClick={() => void submit()}>
                Submit
              </button>
            </>
          )
        }
      >
        {submitting ? (
          <Loader text="Evaluating your answers…" />
        ) : answered < total ? (
          <p className="alert alert-warning">{UNANSWERED_WARNING}</p>
        ) : (
          <p>You have answered all {total} questions. Do you want to submit?</p>
        )}
      </Dialog>

      <Dialog
        open={leaving}
        title="Leave the assessment"
        role="alertdialog"
        onClose={() => setLeaving(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setLeaving(false)}>
              No, stay
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => {
                setDone(true);
                navigate('/my-roadmaps');
              }}
            >
              Yes, leave
            </button>
          </>
        }
      >
        <p>{LEAVE_QUESTION}</p>
      </Dialog>
    </div>
  );
}

/** One question: its text, code and image, and the control its type asks for. */
function QuestionView({
  number,
  question: q,
  sheet,
  onAnswer,
}: {
  number: number;
  question: TakerQuestion;
  sheet: AnswerSheet;
  onAnswer: (value: string) => void;
}) {
  const id = useId();
  const kind = answerKind(q.questionType);
  const given = sheet[q._id];
  const chosen = Array.isArray(given?.answerId) ? given.answerId : given?.answerId ? [given.answerId] : [];
  const imageOptions = hasImageOptions(q.questionType);
  return (
    <section className="card question" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="question-number">
        Question {number}
        {kind === 'multi' ? <span className="badge badge-primary">Choose all that apply</span> : null}
      </h2>
      <p id={`${id}-text`} className="question-text">
        {q.question}
      </p>
      {q.code ? (
        <pre className="code-block">
          <code>{q.code}</code>
        </pre>
      ) : null}
      {q.questionImagePath ? (
        <img
          className="question-image"
          src={q.questionImagePath}
          alt={`Illustration of question ${number}`}
        />
      ) : null}
      {kind === 'text' ? (
        <div className="field">
          <label htmlFor={`${id}-answer`}>Your answer</label>
          <input
            id={`${id}-answer`}
            type="text"
            autoComplete="off"
            value={given?.answer ?? ''}
            onChange={(e) => onAnswer(e.target.value)}
            aria-describedby={`${id}-text`}
          />
        </div>
      ) : (
        <fieldset className="options">
          <legend className="visually-hidden">Options of question {number}</legend>
          {q.options.map((o, i) => {
            const letter = String.fromCharCode(65 + i);
            const checked = chosen.includes(o._id);
            return (
              <label key={o._id} className={`option${checked ? ' chosen' : ''}`}>
                <input
                  type={kind === 'multi' ? 'checkbox' : 'radio'}
                  name={`${id}-option`}
                  value={o._id}
                  checked={checked}
                  onChange={() => onAnswer(o._id)}
                />
                <span className="option-letter" aria-hidden="true">
                  {letter}
                </span>
                {imageOptions ? (
                  <img className="option-image" src={o.value} alt={`Option ${letter}`} />
                ) : (
                  <span className="option-text">{o.value}</span>
                )}
              </label>
            );
          })}
        </fieldset>
      )}
    </section>
  );
}
