/**
 * The test itself (Started): questions with Prev, Next and Finish, the numbered navigation, the countdown
 * on the server's clock, every answer saved as it is given, the focus record, and Finish's confirmation —
 * each write with the attempt token this browser holds (attempt.ts).
 */
import type { ApiError } from '@shared/client/client';
import type { MessageKey } from '@shared/i18n/keys';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../core/i18n';
import { useWidgetHost } from '../embed/host';
import { Dialog } from '../ui/Dialog';
import { type AnswerPayload, type AnswerSheet, answeredCount, payloads, UNANSWERED_WARNING } from './answers';
import { formatRemaining, spokenRemaining } from './clock';
import type { FocusReporter } from './focus-record';
import { QuestionActions, QuestionNav, QuestionView } from './Question';
import type { AnswerSaver, SaveStatus } from './saver';
import type { Reason, TakerTest } from './screen';
import { TEST_TEXT, TYPE_LABELS } from './text';
import { useAnswerSheet, useAutosave } from './useAutosave';
import { useCountdown } from './useCountdown';
import { useFocusRecord } from './useFocusRecord';
import { useQuestionNavigation } from './useQuestionNavigation';

const SAVE_TEXT: Record<Exclude<SaveStatus['state'], 'idle'>, MessageKey> = {
  saving: 'test.saving',
  saved: 'test.saved',
  failed: 'test.notSaved',
};
/** Whole class names: the embed build keeps only the CSS rules whose class names its code spells out. */
const SAVE_CLASS: Record<SaveStatus['state'], string> = {
  idle: '',
  saving: 'is-saving',
  saved: 'is-saved',
  failed: 'is-failed',
};

/** The test itself: questions, navigation, countdown, autosave, focus reports and Finish. */
export function RunningScreen({
  linkId,
  test,
  offset,
  resumed,
  level,
  otherTabs,
  handOver,
  onSubmit,
  onFatal,
}: {
  linkId: string;
  test: TakerTest;
  offset: number;
  resumed: boolean;
  level: 1 | 2;
  /** Other tabs with this test open (this one is in charge). */
  otherTabs: number;
  /** Set to what this tab does before another takes over: save what it holds. */
  handOver: { current: (() => Promise<unknown>) | null };
  onSubmit: (answers: AnswerPayload[], reason: Reason, before: Promise<unknown>) => void;
  onFatal: (err: ApiError) => void;
}) {
  const host = useWidgetHost();
  const { t } = useI18n();
  const titleId = useId();
  const questions = test.questions.questions;
  const total = questions.length;
  const submitted = useRef(false);
  const { saver, status } = useAutosave(linkId, (err) => {
    if (!submitted.current) onFatal(err);
  });
  const { sheet, sheetRef, give } = useAnswerSheet(linkId, test, saver);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reported once when the test opens
  useEffect(() => {
    host.emit('wm-start', { linkId, deadlineAt: test.deadlineAt, questionCount: total, resumed });
  }, []);

  const { reporter, questionShown } = useFocusRecord(linkId, otherTabs > 0);
  useHandOver(handOver, saver, reporter);
  const { confirming, setConfirming, finish } = useFinish({
    submitted,
    saver,
    reporter,
    sheetRef,
    questions,
    onSubmit,
  });
  const { left, announcement } = useCountdown(test.deadlineAt, offset, finish);
  const { index, go, heading } = useQuestionNavigation(linkId, total, resumed, questionShown);

  const current = questions[index];
  const answered = answeredCount(sheet, questions);
  return (
    <section className="wm-test wm-running" part="test" aria-labelledby={titleId}>
      <TestHead
        test={test}
        titleId={titleId}
        level={level}
        left={left}
        status={status}
        onRetry={() => saver.current?.retryNow()}
      />
      {resumed ? (
        <p className="alert alert-info" role="status">
          {t(TEST_TEXT.resumed)}
        </p>
      ) : null}
      {otherTabs > 0 ? (
        <p className="alert alert-warning" role="status" part="other-tab">
          {t(TEST_TEXT.alsoOpen)}
        </p>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {total === 0 || !current ? (
        <p className="wm-empty">{t('test.noQuestions')}</p>
      ) : (
        <>
          <QuestionNav questions={questions} answers={sheet} index={index} onGo={go} />
          <QuestionView
            key={current._id}
            number={index + 1}
            total={total}
            question={current}
            given={sheet[current._id]}
            onAnswer={(value) => give(current, value)}
            onCommit={() => void saver.current?.flush()}
            onPaste={(chars) => reporter.current?.record('PASTE', index + 1, chars)}
            siteBase={host.siteBase}
            level={level === 1 ? 2 : 3}
            headingRef={heading}
          />
        </>
      )}
      <QuestionActions
        index={index}
        total={total}
        answered={answered}
        onGo={go}
        onFinish={() => {
          void saver.current?.flush();
          setConfirming(true);
        }}
      />
      <FinishDialog
        open={confirming}
        answered={answered}
        total={total}
        onCancel={() => setConfirming(false)}
        onFinish={() => finish('finish')}
      />
    </section>
  );
}

type Held<T> = { readonly current: T | null };

/** Before another tab takes over, this one saves what it holds. */
function useHandOver(
  handOver: { current: (() => Promise<unknown>) | null },
  saver: Held<AnswerSaver>,
  reporter: Held<FocusReporter>,
) {
  useEffect(() => {
    handOver.current = () =>
      Promise.all([saver.current?.flush(2_000), reporter.current?.flush(1_000)]).then(() => {
        saver.current?.stop();
      });
    return () => {
      handOver.current = null;
    };
  }, [handOver, saver, reporter]);
}

/** The submit flow: Finish's confirmation, then the test submitted once (by Finish or when time is up). */
function useFinish({
  submitted,
  saver,
  reporter,
  sheetRef,
  questions,
  onSubmit,
}: {
  submitted: { current: boolean };
  saver: Held<AnswerSaver>;
  reporter: Held<FocusReporter>;
  sheetRef: { readonly current: AnswerSheet };
  questions: TakerTest['questions']['questions'];
  onSubmit: (answers: AnswerPayload[], reason: Reason, before: Promise<unknown>) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const finish = useCallback(
    (reason: Reason) => {
      if (submitted.current) return;
      submitted.current = true;
      setConfirming(false);
      // the evaluation carries every answer: nothing waits for the saves in flight; the focus record's
      // last events go first (once evaluated, the test takes no more)
      saver.current?.stop();
      const record = reporter.current;
      const sent = (record ? record.flush(1_500) : Promise.resolve()).finally(() => record?.stop());
      onSubmit(payloads(sheetRef.current, questions), reason, sent);
    },
    [onSubmit, questions, submitted, saver, reporter, sheetRef],
  );
  return { confirming, setConfirming, finish };
}

/** The test's title and type, the time left and whether the answers are saved. */
function TestHead({
  test,
  titleId,
  level,
  left,
  status,
  onRetry,
}: {
  test: TakerTest;
  titleId: string;
  level: 1 | 2;
  left: number | null;
  status: SaveStatus;
  onRetry: () => void;
}) {
  const { t } = useI18n();
  const Title = level === 1 ? 'h1' : 'h2';
  return (
    <header className="wm-test-head">
      <div>
        <Title id={titleId} className="wm-test-title">
          {test.title}
        </Title>
        <p className="wm-muted">
          {t(TYPE_LABELS[test.type])} · {t('test.questions', { count: test.questions.questions.length })}
        </p>
      </div>
      <div className="wm-test-status">
        {left !== null ? <TimeLeft left={left} /> : null}
        <SaveIndicator status={status} onRetry={onRetry} />
      </div>
    </header>
  );
}

/** The timer: the time left, spoken in full to screen readers; marked low in the last minute. */
function TimeLeft({ left }: { left: number }) {
  const { t, locale } = useI18n();
  const low = left <= 60_000;
  return (
    <p className={`wm-timer${low ? ' is-low' : ''}`} part="timer">
      <span className="wm-timer-label">{t('test.timeLeft')}</span>{' '}
      <span
        role="timer"
        dir="ltr"
        aria-label={t('test.timeLeftLabel', { time: spokenRemaining(left, locale) })}
      >
        {formatRemaining(left)}
      </span>
    </p>
  );
}

/** Finish's confirmation: a warning (an alert dialog) while some questions are not answered. */
function FinishDialog({
  open,
  answered,
  total,
  onCancel,
  onFinish,
}: {
  open: boolean;
  answered: number;
  total: number;
  onCancel: () => void;
  onFinish: () => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog
      open={open}
      title={t(TEST_TEXT.finish)}
      role={answered < total ? 'alertdialog' : 'dialog'}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn" onClick={onFinish}>
            {t('test.finish')}
          </button>
        </>
      }
    >
      {answered < total ? (
        <p className="alert alert-warning">{t(UNANSWERED_WARNING)}</p>
      ) : (
        <p>{t('test.allAnswered', { count: total })}</p>
      )}
      <p className="wm-muted">{t('test.answeredOf', { answered, total })}</p>
    </Dialog>
  );
}

function SaveIndicator({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  const { t } = useI18n();
  if (status.state === 'idle') return null;
  return (
    <p className={`wm-save ${SAVE_CLASS[status.state]}`} part="save-status">
      <span aria-hidden="true" className="wm-save-dot" />
      {status.state === 'failed' ? (
        <>
          <span role="alert">{t('test.retrying', { count: status.unsaved })}</span>{' '}
          <button type="button" className="wm-link-button" onClick={onRetry}>
            {t('test.retryNow')}
          </button>
        </>
      ) : (
        t(SAVE_TEXT[status.state])
      )}
    </p>
  );
}
