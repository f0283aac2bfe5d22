/**
 * /initial-assessment/{linkId} (mentor §2.11): the prerequisite assessment of a selected roadmap.
 * Numbered question tabs (answered ones highlighted), Prev/Next and 'Question n / total' on narrow
 * screens, Finish with a confirmation (warning when questions are unanswered), a confirmation before
 * leaving through the logo and a page-leave warning. Submitting creates the learner's roadmap, which
 * continues as a selection does. Answers are kept in the tab's session storage, so a reload loses nothing.
 * Questions are shown with the test taker's question view and answer rules (widgets/test-taker).
 */
import '@widgets/test-taker/test-taker.css';
import '../../layout/public.css';
import {
  evaluateAndCreateRoadmap,
  type InitialAssessment,
  initialAssessment,
} from '@shared/contract/catalogue';
import type { MessageKey } from '@shared/i18n/keys';
import { assignedRoadmapPath, rememberAssigned } from '@widgets/catalogue/selection';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { session } from '@widgets/core/session';
import { messageOf, useCall } from '@widgets/core/useCall';
import {
  type AnswerSheet,
  answer,
  answeredCount,
  sheetFrom,
  toPayload,
  UNANSWERED_WARNING,
} from '@widgets/test-taker/answers';
import { QuestionActions, QuestionNav, QuestionStepper, QuestionView } from '@widgets/test-taker/Question';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { SkipLink, useDocumentTitle } from '../../layout/PublicChrome';
import { currentTranslator } from '../../lib/i18n';

export const LEAVE_QUESTION = 'initial.leaveQuestion' satisfies MessageKey;
export const ASSESS_FAILED = 'initial.assessFailed' satisfies MessageKey;

type Questions = z.infer<typeof InitialAssessment>['questions'];

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

/** Every answer given, with the prerequisite roadmap its question tests (the assessment's own if none). */
function answersWithRoadmaps(questions: Questions, sheet: AnswerSheet, roadmapId: string) {
  return questions.flatMap((q) => {
    const given = toPayload(q, sheet[q._id]);
    return given ? [{ ...given, roadmapId: q.roadmapId ?? roadmapId }] : [];
  });
}

/** The assessment, its page title; on a load failure the server's message, then home. */
function useInitialAssessment(linkId: string) {
  const navigate = useNavigate();
  const { t } = useI18n();
  const test = useCall(
    (signal) => client.call(initialAssessment, { params: { linkId }, signal }).then((r) => r.data),
    [linkId],
  );
  const data = test.data;
  useDocumentTitle(data ? t('initial.topic', { topic: data.roadmapName }) : t('initial.title'));

  // load failure: the server's message, then home
  useEffect(() => {
    if (!test.error) return;
    toast(messageOf(test.error, currentTranslator().t('initial.loadFailed')), { kind: 'error' });
    navigate('/', { replace: true });
  }, [test.error, navigate]);
  return data;
}

/** The question shown; Prev, Next and the numbered buttons (`go`) move the focus to its heading. */
function useQuestionIndex(total: number) {
  const [index, setIndex] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  const focusQuestion = useRef(false);
  // Prev, Next and the numbered buttons move the focus to the question shown
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the question changes
  useEffect(() => {
    if (!focusQuestion.current) return;
    focusQuestion.current = false;
    heading.current?.focus();
  }, [index]);

  function go(i: number) {
    if (i < 0 || i >= total) return;
    focusQuestion.current = true;
    setIndex(i);
  }
  return { index, go, heading };
}

export default function InitialAssessmentPage() {
  const { linkId = '' } = useParams();
  const navigate = useNavigate();
  const { t } = useI18n();
  const [sheet, setSheet] = useState<AnswerSheet>(() => restore(linkId) ?? {});
  const [finishing, setFinishing] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const data = useInitialAssessment(linkId);
  const { index, go, heading } = useQuestionIndex(data?.questions.length ?? 0);

  // answers the server holds already count, unless this tab has newer ones
  useEffect(() => {
    if (!data) return;
    if (data.isCompleted) {
      setDone(true);
      toast(currentTranslator().t('initial.already'), { kind: 'info' });
      navigate('/', { replace: true });
      return;
    }
    if (!restore(linkId) && data.answers.length) setSheet(sheetFrom(data.answers));
  }, [data, linkId, navigate]);

  useEffect(() => {
    if (!done) keep(linkId, sheet);
  }, [linkId, sheet, done]);

  // a page-leave warning while the assessment is unfinished
  useLeaveWarning(Boolean(data) && !done);

  if (!data || data.isCompleted) return <Loader text={t('initial.loading')} />;
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
        body: { linkId, answers: answersWithRoadmaps(questions, sheet, data.roadmapId) },
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
      toast(messageOf(err, t(ASSESS_FAILED)), { kind: 'error' });
      navigate('/', { replace: true });
    }
  }

  return (
    <div className="assessment-page">
      <SkipLink />
      <AssessmentBar topic={topic} onLeave={() => setLeaving(true)} />
      <main id="main" className="assessment-main" tabIndex={-1}>
        <h1 className="assessment-title">{t('initial.heading', { name: data.roadmapName })}</h1>
        <p className="muted">{t('initial.intro')}</p>
        {total === 0 || !current ? (
          <p className="empty">{t('initial.noQuestions')}</p>
        ) : (
          <>
            <QuestionNav questions={questions} answers={sheet} index={index} onGo={go} collapsible />
            <QuestionStepper index={index} total={total} onGo={go} />
            <p className="visually-hidden" aria-live="polite">
              {t('initial.questionOf', { number: index + 1, total })}
            </p>
            <QuestionView
              key={current._id}
              number={index + 1}
              total={total}
              question={current}
              given={sheet[current._id]}
              onAnswer={(value) => setSheet((s) => answer(s, current, value))}
              headingRef={heading}
            />
            <QuestionActions
              index={index}
              total={total}
              answered={answered}
              onGo={go}
              onFinish={() => setFinishing(true)}
            />
          </>
        )}
      </main>

      <FinishDialog
        open={finishing}
        submitting={submitting}
        answered={answered}
        total={total}
        onCancel={() => setFinishing(false)}
        onSubmit={() => void submit()}
      />

      <LeaveDialog
        open={leaving}
        onStay={() => setLeaving(false)}
        onLeave={() => {
          setDone(true);
          navigate('/my-roadmaps');
        }}
      />
    </div>
  );
}

/** Warns before the page is left (reload, close, another address) while `active`. */
function useLeaveWarning(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}

/** The bar above the questions: the logo (which asks before leaving) and the topic of the question shown. */
function AssessmentBar({ topic, onLeave }: { topic: string; onLeave: () => void }) {
  const { t } = useI18n();
  return (
    <header className="assessment-bar">
      <button type="button" className="brand brand-button" onClick={onLeave}>
        <img src="/favicon.svg" alt="" width="32" height="32" />
        <span>Waymark</span>
        <span className="visually-hidden"> {t('initial.leaveHint')}</span>
      </button>
      <p className="assessment-topic">{t('initial.topic', { topic })}</p>
    </header>
  );
}

/** Finish: a warning when questions are unanswered, then the evaluation under way. */
function FinishDialog({
  open,
  submitting,
  answered,
  total,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  submitting: boolean;
  answered: number;
  total: number;
  onCancel: () => void;
  onSubmit: () => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog
      open={open}
      title={t('initial.finishTitle')}
      onClose={onCancel}
      modalOnly={submitting}
      role={answered < total ? 'alertdialog' : 'dialog'}
      actions={
        submitting ? null : (
          <>
            <button type="button" className="btn btn-secondary" onClick={onCancel}>
              {t('common.cancel')}
            </button>
            <button type="button" className="btn" onClick={onSubmit}>
              {t('common.submit')}
            </button>
          </>
        )
      }
    >
      {submitting ? (
        <Loader text={t('test.evaluatingAnswers')} />
      ) : answered < total ? (
        <p className="alert alert-warning">{t(UNANSWERED_WARNING)}</p>
      ) : (
        <p>{t('initial.allAnswered', { count: total })}</p>
      )}
    </Dialog>
  );
}

/** Leaving through the logo: stay, or leave for the learner's roadmaps. */
function LeaveDialog({ open, onStay, onLeave }: { open: boolean; onStay: () => void; onLeave: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog
      open={open}
      title={t('initial.leaveTitle')}
      role="alertdialog"
      onClose={onStay}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onStay}>
            {t('initial.stay')}
          </button>
          <button type="button" className="btn btn-danger" onClick={onLeave}>
            {t('initial.leave')}
          </button>
        </>
      }
    >
      <p>{t(LEAVE_QUESTION)}</p>
    </Dialog>
  );
}
