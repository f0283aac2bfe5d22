/**
 * The test page (mentor §2.14, §4 "Test page flow"; learner §2): loads a test by its link id and takes the
 * learner through Loading, Ready ('Ready to Take Test?' and its warnings; Start → Starting), Started
 * (question by question with Prev, Next and Finish, numbered navigation, the server's countdown, every
 * answer saved as it is given), Evaluating, the score gauge and the award step — or the screens of a link
 * that cannot be taken: Link Expired, Test Completed, Assessment Not Yet Started, Something Went Wrong.
 * A reload or a dropped connection resumes where the learner was, with every answer kept.
 */
import { ApiError } from '@shared/client/client';
import type { CallSuccess } from '@shared/contract/define';
import { displayPercentage, POINTS_PER_QUESTION, percentageOf } from '@shared/rules/scoring';
import { AWARD_LINK_LABELS, awardKindOf, awardPath } from '@shared/rules/test-status';
import type { TestType } from '@shared/schemas/assessment';
import { type CSSProperties, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { isPlainClick, useWidgetHost, type WidgetHost } from '../embed/host';
import { Dialog } from '../ui/Dialog';
import { Loader } from '../ui/Loader';
import {
  type AnswerPayload,
  type AnswerSheet,
  answer,
  answeredCount,
  answerKind,
  payloads,
  sheetFrom,
  toPayload,
  UNANSWERED_WARNING,
} from './answers';
import { takerCalls } from './calls';
import { clockOffset, crossedAnnouncement, formatRemaining, remainingMs, spokenRemaining } from './clock';
import { FocusReporter, isPresent } from './focus-record';
import { readMemory, writeMemory } from './memory';
import type { TestTakerProps } from './props';
import { QuestionActions, QuestionNav, QuestionView } from './Question';
import { AnswerSaver, type SaveStatus, TYPING_DEBOUNCE_MS } from './saver';
import { type ChargeState, TabCharge } from './tab-charge';

export type TakerTest = CallSuccess<typeof takerCalls.testLinkQuestions>['data'];
export type EvaluationResult = CallSuccess<typeof takerCalls.evaluateTest>['data'];
type Reason = 'finish' | 'time-up';

const GONE = {
  LINK_EXPIRED: { title: 'Link Expired', state: 'expired', newLink: true },
  TEST_COMPLETED: { title: 'Test Completed', state: 'completed', newLink: true },
  ASSESSMENT_NOT_YET_STARTED: {
    title: 'Assessment Not Yet Started',
    state: 'not-yet-started',
    newLink: false,
  },
} as const;
type GoneCode = keyof typeof GONE;

type Screen =
  | { kind: 'loading' }
  | { kind: 'ready'; test: TakerTest; starting?: boolean; error?: string }
  | { kind: 'started'; test: TakerTest; resumed: boolean }
  | { kind: 'evaluating'; reason: Reason; answers: AnswerPayload[]; error?: string }
  | { kind: 'score'; result: EvaluationResult }
  | { kind: 'gone'; code: GoneCode; message: string }
  | { kind: 'error'; message: string; retry: boolean };

/** The name of a screen in `wm-state` events. */
function stateOf(screen: Screen, charge: ChargeState['role']): string {
  if (screen.kind === 'ready' && screen.starting) return 'starting';
  if (screen.kind === 'started' && charge === 'elsewhere') return 'open-elsewhere';
  if (screen.kind === 'gone') return GONE[screen.code].state;
  return screen.kind;
}

export const TEST_TEXT = {
  ready: 'Ready to Take Test?',
  warnings: [
    'Keep a stable internet connection.',
    'Do not refresh, reload or press back.',
    'Do not switch tab.',
  ],
  finish: 'Do you want to finish?',
  notEnough: 'Not enough score to generate certificate',
  newLinkBefore: 'If you like to take a test, ',
  newLink: 'generate a new link',
  error: 'Something Went Wrong',
  resumed: 'Welcome back: your answers are kept, and the clock kept running.',
  recorded:
    'While the test runs, leaving its tab or window, pasting into an answer, opening it in a second tab and going offline are recorded with their times. You and your mentor see them beside your answers, as context.',
  elsewhere: 'This test is open in another tab',
  elsewhereText:
    'Your answers are saved from the other tab only, so nothing you answered there is overwritten from here. Go back to that tab, or continue in this one: the other tab then stops saving.',
  takeOver: 'Continue in this tab',
  alsoOpen:
    'This test is also open in another tab. Only this tab saves your answers; the other one shows a notice.',
} as const;

const TYPE_LABELS: Partial<Record<TestType, string>> = {
  RESOURCE: 'Resource assessment',
  'RESOURCE-FROM-WHATSAPP': 'Resource assessment',
  SECTION: 'Section assessment',
  ROADMAP: 'Final assessment',
  SUBJECT: 'Subject assessment',
  'CUSTOM-TEST': 'Assessment',
};

const messageOf = (err: unknown) =>
  err instanceof Error && err.message ? err.message : 'The request failed. Please try again.';

export function TestTaker({ linkId, headingLevel }: TestTakerProps) {
  const host = useWidgetHost();
  const level = headingLevel === '2' ? 2 : 1;
  const [screen, setScreen] = useState<Screen>({ kind: 'loading' });
  const [offset, setOffset] = useState(0);
  const [attempt, setAttempt] = useState(0);
  const titleId = useId();
  /** The test last shown, for the score screen's subtitle. */
  const shown = useRef<TakerTest | null>(null);
  if ((screen.kind === 'ready' || screen.kind === 'started') && shown.current !== screen.test) {
    shown.current = screen.test;
  }

  const evaluate = useCallback(
    async (answers: AnswerPayload[], reason: Reason, before?: Promise<unknown>) => {
      setScreen({ kind: 'evaluating', reason, answers });
      try {
        // what must reach the server first (the focus record's last events)
        await before;
        const res = await host.client.call(takerCalls.evaluateTest, { body: { linkId, answers } });
        const result = res.data;
        writeMemory(linkId, { unsaved: [], index: 0 });
        setScreen({ kind: 'score', result });
        // the documented detail, field by field: what the server adds to its answer is not the event's
        host.emit('wm-evaluated', {
          linkId,
          testType: result.testType,
          score: result.score,
          percentage: result.percentage,
          questionCount: result.questionCount,
          status: result.status,
          certificateEligible: result.certificateEligible,
          awardHref: result.certificateEligible ? siteHref(host, awardPath(result.testType, linkId)) : null,
        });
      } catch (err) {
        if (err instanceof ApiError && err.errorCode && err.errorCode in GONE) {
          setScreen({ kind: 'gone', code: err.errorCode as GoneCode, message: err.message });
        } else setScreen({ kind: 'evaluating', reason, answers, error: messageOf(err) });
      }
    },
    [host, linkId],
  );

  /** A refusal of the server: the screen of its error code, or the result of a test this tab took. */
  const fail = useCallback(
    (err: unknown) => {
      const code = err instanceof ApiError ? err.errorCode : undefined;
      if (code === 'TEST_COMPLETED' && readMemory(linkId).taken) {
        // this tab took the test: it ended (finished, or evaluated by the server when the time was up)
        void evaluate([], 'finish');
        return;
      }
      if (code && code in GONE) setScreen({ kind: 'gone', code: code as GoneCode, message: messageOf(err) });
      else {
        // a refusal (4xx) stays a refusal; a network failure or a server error may pass
        const retry = !(err instanceof ApiError && err.status < 500);
        setScreen({ kind: 'error', message: messageOf(err), retry });
      }
      host.emit('wm-error', {
        message: messageOf(err),
        status: err instanceof ApiError ? err.status : undefined,
      });
    },
    [evaluate, host, linkId],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reloads on Try again
  useEffect(() => {
    const controller = new AbortController();
    setScreen({ kind: 'loading' });
    const sentAt = Date.now();
    host.client
      .call(takerCalls.testLinkQuestions, {
        params: { id: linkId },
        query: { device: 'WEB' },
        signal: controller.signal,
      })
      .then((res) => {
        if (controller.signal.aborted) return;
        setOffset(clockOffset(res.data.serverTime, Date.now(), sentAt));
        if (res.data.startedAt) {
          writeMemory(linkId, { taken: true });
          setScreen({ kind: 'started', test: res.data, resumed: true });
        } else setScreen({ kind: 'ready', test: res.data });
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted && (err as Error)?.name !== 'AbortError') fail(err);
      });
    return () => controller.abort();
  }, [host.client, linkId, attempt]);

  // one tab in charge of a started test: the others save nothing
  const [charging, setCharging] = useState(false);
  useEffect(() => {
    if (screen.kind === 'started') setCharging(true);
    else if (screen.kind !== 'loading') setCharging(false);
  }, [screen.kind]);
  const handOver = useRef<(() => Promise<unknown>) | null>(null);
  const charge = useTabCharge(linkId, charging, handOver);
  const wasElsewhere = useRef(false);
  useEffect(() => {
    if (charge.role === 'elsewhere') wasElsewhere.current = true;
    else if (charge.role === 'in-charge' && wasElsewhere.current) {
      // this tab takes over: what the other tab saved is read again from the server
      wasElsewhere.current = false;
      setAttempt((n) => n + 1);
    }
  }, [charge.role]);

  const state = stateOf(screen, charge.role);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported once per screen
  useEffect(() => {
    host.emit('wm-state', { linkId, state });
  }, [state]);

  // a new screen after the learner acted (not the first one, nor the test itself): its heading gets the
  // focus, so keyboard and screen-reader users land on what changed
  const box = useRef<HTMLDivElement>(null);
  const settled = useRef(false);
  useEffect(() => {
    if (state === 'loading' || state === 'starting' || state === 'started') return;
    if (!settled.current) {
      settled.current = true;
      return;
    }
    const heading = box.current?.querySelector<HTMLElement>('h1, h2');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    }
  }, [state]);

  async function start(test: TakerTest) {
    setScreen({ kind: 'ready', test, starting: true });
    const sentAt = Date.now();
    try {
      const res = await host.client.call(takerCalls.verifyTestLink, { params: { id: linkId } });
      setOffset(clockOffset(res.data.serverTime, Date.now(), sentAt));
      writeMemory(linkId, { taken: true, index: 0, unsaved: [] });
      setScreen({ kind: 'started', test: res.data, resumed: false });
    } catch (err) {
      if (err instanceof ApiError) fail(err);
      else setScreen({ kind: 'ready', test, error: messageOf(err) });
    }
  }

  return (
    <div ref={box} className="wm-taker">
      {render()}
    </div>
  );

  function render() {
    const Title = level === 1 ? 'h1' : 'h2';
    switch (screen.kind) {
      case 'loading':
        return <Loader text="Loading the test…" />;
      case 'ready':
        return (
          <ReadyScreen
            test={screen.test}
            starting={Boolean(screen.starting)}
            error={screen.error}
            Title={Title}
            titleId={titleId}
            onStart={() => void start(screen.test)}
          />
        );
      case 'started':
        if (charge.role === 'deciding') return <Loader text="Opening the test…" />;
        if (charge.role === 'elsewhere') {
          return (
            <section className="wm-test wm-test-center wm-end" part="test" aria-labelledby={titleId}>
              <Title id={titleId}>{TEST_TEXT.elsewhere}</Title>
              <p className="wm-end-message">{TEST_TEXT.elsewhereText}</p>
              <p className="wm-actions wm-actions-center">
                <button type="button" className="btn" part="take-over-button" onClick={charge.takeOver}>
                  {TEST_TEXT.takeOver}
                </button>
              </p>
            </section>
          );
        }
        return (
          <Runner
            key={linkId}
            linkId={linkId}
            test={screen.test}
            offset={offset}
            resumed={screen.resumed}
            level={level}
            otherTabs={charge.others}
            handOver={handOver}
            onSubmit={(answers, reason, before) => void evaluate(answers, reason, before)}
            onFatal={(err) => {
              if (err.errorCode === 'TEST_COMPLETED') void evaluate([], 'time-up');
              else fail(err);
            }}
          />
        );
      case 'evaluating':
        return (
          <section className="wm-test wm-test-center" part="test" aria-labelledby={titleId}>
            <Title id={titleId}>{screen.reason === 'time-up' ? 'Time is up' : 'Evaluating'}</Title>
            {screen.error ? (
              <>
                <p className="alert alert-error" role="alert">
                  Your answers could not be evaluated yet: {screen.error}
                </p>
                <button
                  type="button"
                  className="btn"
                  onClick={() => void evaluate(screen.answers, screen.reason)}
                >
                  Try again
                </button>
              </>
            ) : (
              <Loader text="Evaluating your answers…" />
            )}
          </section>
        );
      case 'score':
        return (
          <ScoreScreen
            result={screen.result}
            linkId={linkId}
            testTitle={shown.current?.title ?? null}
            Title={Title}
            titleId={titleId}
          />
        );
      case 'gone': {
        const gone = GONE[screen.code];
        // the server's message may end with the same advice: it is said once, with its link
        const message = gone.newLink
          ? screen.message.replace(/\s*If you like to take a test, generate a new link\.?\s*$/i, '')
          : screen.message;
        return (
          <EndScreen title={gone.title} Title={Title} titleId={titleId} message={message}>
            {gone.newLink ? (
              <p>
                {TEST_TEXT.newLinkBefore}
                <SiteLink path="/assesments">{TEST_TEXT.newLink}</SiteLink>.
              </p>
            ) : null}
          </EndScreen>
        );
      }
      default:
        return (
          <EndScreen
            title={TEST_TEXT.error}
            Title={Title}
            titleId={titleId}
            message={screen.message}
            isError
            action={
              screen.retry ? (
                <button type="button" className="btn btn-secondary" onClick={() => setAttempt((n) => n + 1)}>
                  Try again
                </button>
              ) : null
            }
          />
        );
    }
  }
}

/** The tab-charge state of a started test (see tab-charge.ts); 'in-charge' at once when not active. */
function useTabCharge(
  linkId: string,
  active: boolean,
  handOver: { current: (() => Promise<unknown>) | null },
): ChargeState & { takeOver: () => void } {
  const [state, setState] = useState<ChargeState>({ role: 'deciding', others: 0 });
  const charge = useRef<TabCharge | null>(null);
  useEffect(() => {
    if (!active) return;
    const c = new TabCharge({
      linkId,
      onChange: setState,
      beforeHandOver: () => handOver.current?.() ?? Promise.resolve(),
    });
    charge.current = c;
    c.start();
    return () => {
      c.close();
      charge.current = null;
      setState({ role: 'deciding', others: 0 });
    };
  }, [linkId, active, handOver]);
  return { ...state, takeOver: () => charge.current?.takeOver() };
}

type HeadingTag = 'h1' | 'h2';

/** A path of Waymark's site as the page can open it ('' prefix in the portal). */
const siteHref = (host: Pick<WidgetHost, 'siteBase'>, path: string | null) =>
  path === null ? null : `${host.siteBase}${path}`;

/** A link to one of Waymark's pages (Home, new link): the host may take it over through `wm-home`. */
function SiteLink({ path, children, className }: { path: string; children: ReactNode; className?: string }) {
  const host = useWidgetHost();
  const href = `${host.siteBase}${path}`;
  return (
    <a
      href={href}
      className={className}
      onClick={(e) => {
        if (!isPlainClick(e)) return;
        e.preventDefault();
        if (host.emit('wm-home', { href })) host.navigate(path);
      }}
    >
      {children}
    </a>
  );
}

function EndScreen({
  title,
  message,
  Title,
  titleId,
  isError,
  action,
  children,
}: {
  title: string;
  message: string;
  Title: HeadingTag;
  titleId: string;
  isError?: boolean;
  /** Beside Home. */
  action?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="wm-test wm-test-center wm-end" part="test" aria-labelledby={titleId}>
      <Title id={titleId}>{title}</Title>
      <p className={isError ? 'alert alert-error' : 'wm-end-message'} part={isError ? 'error' : undefined}>
        {message}
      </p>
      {children}
      <p className="wm-actions wm-actions-center">
        {action}
        <SiteLink path="/" className="btn">
          Home
        </SiteLink>
      </p>
    </section>
  );
}

function ReadyScreen({
  test,
  starting,
  error,
  Title,
  titleId,
  onStart,
}: {
  test: TakerTest;
  starting: boolean;
  error?: string;
  Title: HeadingTag;
  titleId: string;
  onStart: () => void;
}) {
  const total = test.questions.questions.length;
  return (
    <section className="wm-test wm-ready" part="test" aria-labelledby={titleId}>
      <Title id={titleId}>{TEST_TEXT.ready}</Title>
      <p className="wm-test-name">
        {test.title}
        <span className="badge">{TYPE_LABELS[test.type] ?? 'Assessment'}</span>
      </p>
      <ul className="wm-facts">
        <li>
          <strong>{total}</strong> {total === 1 ? 'question' : 'questions'}
        </li>
        <li>
          <strong>{spokenRemaining(test.timeLimitMinutes * 60_000)}</strong> once you start
        </li>
      </ul>
      <div className="alert alert-warning wm-warnings">
        <p>
          <strong>Before you start</strong>
        </p>
        <ul>
          {TEST_TEXT.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
        <p>Every answer is saved as you give it; if the page is reloaded, you continue where you were.</p>
        <p className="wm-recorded">{TEST_TEXT.recorded}</p>
      </div>
      {error ? (
        <p className="alert alert-error" role="alert" part="error">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        className="btn wm-start"
        part="start-button"
        aria-disabled={starting || total === 0}
        aria-busy={starting}
        onClick={() => {
          if (!starting && total > 0) onStart();
        }}
      >
        {starting ? 'Starting' : 'Start'}
      </button>
    </section>
  );
}

/** The score gauge: percent = score × 100 / (10 × questions), rounded up. */
export function ScoreGauge({ percent }: { percent: number }) {
  const r = 52;
  const circumference = 2 * Math.PI * r;
  const shown = Math.max(0, Math.min(100, percent));
  return (
    <div
      className={`wm-gauge${percent >= 60 ? ' is-pass' : ''}`}
      part="gauge"
      role="img"
      aria-label={`Score: ${percent}%`}
    >
      <svg viewBox="0 0 120 120" aria-hidden="true" focusable="false">
        <circle className="wm-gauge-track" cx="60" cy="60" r={r} />
        {/* the dash as a custom property: SVG attribute names differ between React and Preact */}
        <circle
          className="wm-gauge-value"
          cx="60"
          cy="60"
          r={r}
          style={{ '--wm-gauge-dash': `${(circumference * shown) / 100} ${circumference}` } as CSSProperties}
          transform="rotate(-90 60 60)"
        />
      </svg>
      <span className="wm-gauge-text" aria-hidden="true">
        {percent}%
      </span>
    </div>
  );
}

function ScoreScreen({
  result,
  linkId,
  testTitle,
  Title,
  titleId,
}: {
  result: EvaluationResult;
  linkId: string;
  testTitle: string | null;
  Title: HeadingTag;
  titleId: string;
}) {
  const host = useWidgetHost();
  if (result.testType === 'CUSTOM-TEST') {
    return (
      <EndScreen
        title="Test Submitted"
        Title={Title}
        titleId={titleId}
        message="Your answers have been submitted. Thank you for taking the assessment."
      />
    );
  }
  const percent = displayPercentage(percentageOf(result.score, result.questionCount));
  const kind = awardKindOf(result.testType);
  const path = awardPath(result.testType, linkId);
  const href = siteHref(host, path);
  return (
    <section className="wm-test wm-test-center wm-score" part="test" aria-labelledby={titleId}>
      <Title id={titleId}>Your Score</Title>
      <p className="wm-muted">
        {testTitle ? `${testTitle} · ` : ''}
        {TYPE_LABELS[result.testType] ?? 'Assessment'}
      </p>
      <ScoreGauge percent={percent} />
      <p className="wm-points">
        {result.score} of {result.questionCount * POINTS_PER_QUESTION} points
      </p>
      {kind && path && href ? (
        result.certificateEligible ? (
          <div className="wm-award-step" part="award">
            <p className="wm-award-step-title">Congratulations! You earned a {kind}.</p>
            <a
              className="btn"
              part="award-link"
              href={href}
              onClick={(e) => {
                if (!isPlainClick(e)) return;
                e.preventDefault();
                if (host.emit('wm-open-award', { linkId, award: kind, href })) host.navigate(path);
              }}
            >
              {AWARD_LINK_LABELS[kind]}
            </a>
          </div>
        ) : (
          <p className="alert alert-warning wm-not-enough">{TEST_TEXT.notEnough}</p>
        )
      ) : null}
      <p className="wm-actions wm-actions-center">
        <SiteLink path="/" className="btn btn-secondary">
          Home
        </SiteLink>
      </p>
    </section>
  );
}

const SAVE_TEXT: Record<SaveStatus['state'], string> = {
  idle: '',
  saving: 'Saving…',
  saved: 'All answers saved',
  failed: 'Not saved yet',
};
/** Whole class names: the embed build keeps only the CSS rules whose class names its code spells out. */
const SAVE_CLASS: Record<SaveStatus['state'], string> = {
  idle: '',
  saving: 'is-saving',
  saved: 'is-saved',
  failed: 'is-failed',
};

/** The test itself: questions, navigation, countdown, autosave, focus reports and Finish. */
function Runner({
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
      send: (a) => host.client.call(takerCalls.saveAnswer, { params: { id: linkId }, body: a }),
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
      send: (e) => host.client.call(takerCalls.testActivity, { body: { linkId, ...e } }),
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
    if (mark !== null) setAnnouncement(`${spokenRemaining(mark)} left.`);
    if (left === 0) finish('time-up');
  }, [left, finish]);

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
    saver.current.put(payload, answerKind(q.questionType) === 'text' ? TYPING_DEBOUNCE_MS : 0);
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
            {TYPE_LABELS[test.type] ?? 'Assessment'} · {total} {total === 1 ? 'question' : 'questions'}
          </p>
        </div>
        <div className="wm-test-status">
          {left !== null ? (
            <p className={`wm-timer${low ? ' is-low' : ''}`} part="timer">
              <span className="wm-timer-label">Time left</span>{' '}
              <span role="timer" aria-label={`Time left: ${spokenRemaining(left)}`}>
                {formatRemaining(left)}
              </span>
            </p>
          ) : null}
          <SaveIndicator status={status} onRetry={() => saver.current?.retryNow()} />
        </div>
      </header>
      {resumed ? (
        <p className="alert alert-info" role="status">
          {TEST_TEXT.resumed}
        </p>
      ) : null}
      {otherTabs > 0 ? (
        <p className="alert alert-warning" role="status" part="other-tab">
          {TEST_TEXT.alsoOpen}
        </p>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {total === 0 || !current ? (
        <p className="wm-empty">This test has no questions.</p>
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
        title={TEST_TEXT.finish}
        role={answered < total ? 'alertdialog' : 'dialog'}
        onClose={() => setConfirming(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="button" className="btn" onClick={() => finish('finish')}>
              Finish
            </button>
          </>
        }
      >
        {answered < total ? (
          <p className="alert alert-warning">{UNANSWERED_WARNING}</p>
        ) : (
          <p>You have answered all {total} questions.</p>
        )}
        <p className="wm-muted">
          {answered} of {total} answered
        </p>
      </Dialog>
    </section>
  );
}

function SaveIndicator({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  if (status.state === 'idle') return null;
  return (
    <p className={`wm-save ${SAVE_CLASS[status.state]}`} part="save-status">
      <span aria-hidden="true" className="wm-save-dot" />
      {status.state === 'failed' ? (
        <>
          <span role="alert">
            {SAVE_TEXT.failed}: retrying{status.unsaved > 1 ? ` ${status.unsaved} answers` : ''}.
          </span>{' '}
          <button type="button" className="wm-link-button" onClick={onRetry}>
            Retry now
          </button>
        </>
      ) : (
        SAVE_TEXT[status.state]
      )}
    </p>
  );
}
