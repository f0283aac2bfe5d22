/**
 * The test itself (Started): questions with Prev, Next and Finish, the numbered navigation, the countdown
 * on the server's clock, every answer saved as it is given, the focus record, and Finish's confirmation —
 * each write with the attempt token this browser holds (attempt.ts).
 */
import type { ApiError } from '@shared/client/client';
import * as takerCalls from '@shared/contract/assessments';
import type { MessageKey } from '@shared/i18n/keys';
import { attemptHeaders } from '@shared/rules/attempt-token';
import { isTextAnswer } from '@shared/rules/question-types';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../core/i18n';
import { useWidgetHost } from '../embed/host';
import { Dialog } from '../ui/Dialog';
import {
  type AnswerPayload,
  type AnswerSheet,
  answer,
  answeredCount,
  payloads,
  sheetFrom,
  toPayload,
  UNANSWERED_WARNING,
} from './answers';
import { attemptTokenOf } from './attempt';
import { crossedAnnouncement, formatRemaining, remainingMs, spokenRemaining } from './clock';
import { FocusReporter, isPresent } from './focus-record';
import { readMemory, writeMemory } from './memory';
import { QuestionActions, QuestionNav, QuestionView } from './Question';
import { AnswerSaver, type SaveStatus, TYPING_DEBOUNCE_MS } from './saver';
import type { Reason, TakerTest } from './screen';
import { TEST_TEXT, TYPE_LABELS } from './text';

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
  const { t, locale } = useI18n();
  const titleId = useId();
  const questions = test.questions.questions;
  const total = questions.length;
  const [sheet, setSheet] = useState<AnswerSheet>(() => {
    const restored = { ...sheetFrom(test.answers) };
    // answers given in this tab that the server had not confirmed: they win, and are sent again
    Object.assign(restored, sheetFrom(readMemory(linkId).unsaved ?? []));
    return restored;
  });
  const sheetRef = useRef(sheet);
  const [index, setIndex] = useState(() =>
    Math.min(Math.max(0, readMemory(linkId).index ?? 0), Math.max(0, total - 1)),
  );
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle', unsaved: 0, retryAt: null });
  const [confirming, setConfirming] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [announcement, setAnnouncement] = useState('');
  const saver = useRef<AnswerSaver | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // after Start the first question gets the focus (the Start button is gone)
  const focusQuestion = useRef(!resumed);
  const submitted = useRef(false);
  const fatal = useRef(onFatal);
  fatal.current = onFatal;

  useEffect(() => {
    const s = new AnswerSaver({
      send: (a) =>
        host.client.call(takerCalls.saveAnswer, {
          params: { id: linkId },
          body: a,
          headers: attemptHeaders(attemptTokenOf(linkId)),
        }),
      onStatus: (st) => {
        setStatus(st);
        writeMemory(linkId, { unsaved: s.unsaved() });
      },
      onFatal: (err) => {
        if (!submitted.current) fatal.current(err);
      },
    });
    saver.current = s;
    for (const a of readMemory(linkId).unsaved ?? []) s.put(a);
    const online = () => s.retryNow();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      s.stop();
    };
  }, [host.client, linkId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reported once when the test opens
  useEffect(() => {
    host.emit('wm-start', { linkId, deadlineAt: test.deadlineAt, questionCount: total, resumed });
  }, []);

  // the focus record while the test runs: the page left and back, the connection lost and back
  const reporter = useRef<FocusReporter | null>(null);
  const questionShown = useRef(1);
  useEffect(() => {
    const r = new FocusReporter({
      send: (e) =>
        host.client.call(takerCalls.testActivity, {
          body: { linkId, ...e },
          headers: attemptHeaders(attemptTokenOf(linkId)),
        }),
    });
    reporter.current = r;
    let present = isPresent();
    // where the learner is when the test opens here: an absence begun in a tab that had the test before
    // (reloaded, or handed over to this one) ends now, or one begins if this tab opens unseen
    r.record(present ? 'FOCUS' : 'BLUR', questionShown.current);
    const check = (e: Event) => {
      // the event says what happened (a window blur leaves, a hidden tab is left); a focus or a shown tab
      // is back only if the other is true too
      const visible = document.visibilityState !== 'hidden';
      const now = e.type === 'blur' ? false : e.type === 'focus' ? visible : visible && document.hasFocus();
      if (now === present) return;
      present = now;
      r.record(now ? 'FOCUS' : 'BLUR', questionShown.current);
    };
    const offline = () => r.record('OFFLINE', questionShown.current);
    const online = () => {
      r.record('ONLINE', questionShown.current);
      r.retryNow();
    };
    window.addEventListener('focus', check);
    window.addEventListener('blur', check);
    document.addEventListener('visibilitychange', check);
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    if (typeof navigator !== 'undefined' && navigator.onLine === false) offline();
    return () => {
      window.removeEventListener('focus', check);
      window.removeEventListener('blur', check);
      document.removeEventListener('visibilitychange', check);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      r.stop();
    };
  }, [host.client, linkId]);

  // a second tab of this test: recorded while it is open
  const secondTab = otherTabs > 0;
  useEffect(() => {
    if (!secondTab) return;
    reporter.current?.record('SECOND_TAB', questionShown.current);
    return () => reporter.current?.record('SECOND_TAB_CLOSED', questionShown.current);
  }, [secondTab]);

  // before another tab takes over, this one saves what it holds
  useEffect(() => {
    handOver.current = () =>
      Promise.all([saver.current?.flush(2_000), reporter.current?.flush(1_000)]).then(() => {
        saver.current?.stop();
      });
    return () => {
      handOver.current = null;
    };
  }, [handOver]);

  // the countdown, on the server's clock
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);
  const left = remainingMs(test.deadlineAt, offset, now);
  const previousLeft = useRef(left);

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
    [onSubmit, questions],
  );

  useEffect(() => {
    if (left === null) return;
    const mark = previousLeft.current === null ? null : crossedAnnouncement(previousLeft.current, left);
    previousLeft.current = left;
    if (mark !== null)
      setAnnouncement(t('test.timeLeftAnnouncement', { time: spokenRemaining(mark, locale) }));
    if (left === 0) finish('time-up');
  }, [left, finish, t, locale]);

  useEffect(() => {
    questionShown.current = index + 1;
    writeMemory(linkId, { index });
    if (focusQuestion.current) {
      focusQuestion.current = false;
      heading.current?.focus();
    }
  }, [index, linkId]);

  const go = (i: number) => {
    if (i < 0 || i >= total) return;
    focusQuestion.current = true;
    setIndex(i);
  };

  const give = (q: (typeof questions)[number], value: string) => {
    const next = answer(sheetRef.current, q, value);
    sheetRef.current = next;
    setSheet(next);
    const payload = toPayload(q, next[q._id]);
    if (!payload || !saver.current) return;
    saver.current.put(payload, isTextAnswer(q.questionType) ? TYPING_DEBOUNCE_MS : 0);
    writeMemory(linkId, { unsaved: saver.current.unsaved() });
  };

  const current = questions[index];
  const answered = answeredCount(sheet, questions);
  const Title = level === 1 ? 'h1' : 'h2';
  const low = left !== null && left <= 60_000;
  return (
    <section className="wm-test wm-running" part="test" aria-labelledby={titleId}>
      <header className="wm-test-head">
        <div>
          <Title id={titleId} className="wm-test-title">
            {test.title}
          </Title>
          <p className="wm-muted">
            {t(TYPE_LABELS[test.type])} · {t('test.questions', { count: total })}
          </p>
        </div>
        <div className="wm-test-status">
          {left !== null ? (
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
          ) : null}
          <SaveIndicator status={status} onRetry={() => saver.current?.retryNow()} />
        </div>
      </header>
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
      <Dialog
        open={confirming}
        title={t(TEST_TEXT.finish)}
        role={answered < total ? 'alertdialog' : 'dialog'}
        onClose={() => setConfirming(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </button>
            <button type="button" className="btn" onClick={() => finish('finish')}>
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
    </section>
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
