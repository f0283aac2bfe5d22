/**
 * The test page (mentor §2.14, §4 "Test page flow"; learner §2): loads a test by its link id and takes the
 * learner through Loading, Ready ('Ready to Take Test?' and its warnings; Start → Starting), Started
 * (question by question with Prev, Next and Finish, numbered navigation, the server's countdown, every
 * answer saved as it is given), Evaluating, the score gauge and the award step — or the screens of a link
 * that cannot be taken: Link Expired, Test Completed, Assessment Not Yet Started, Something Went Wrong.
 * A reload or a dropped connection resumes where the learner was, with every answer kept. The browser that
 * starts the test holds its attempt token (attempt.ts, decision 031) and alone writes it; another browser
 * shows that the test is open there, and the learner, signed in, may continue it here.
 *
 * The states and their transitions are screen.ts (a reducer over the Screen union); this file holds the
 * state, the tab in charge and the events and focus that follow a change of screen; the calls to the
 * server, which dispatch, are useTakerCalls.ts; TakerScreen.tsx draws the screen of the state, and each
 * screen is its own file.
 */
import { SANDBOX_WORDS } from '@shared/rules/sandbox';
import { useEffect, useId, useReducer, useRef, useState } from 'react';
import { useI18n } from '../core/i18n';
import { useWidgetHost } from '../embed/host';
import { lazyModule, useLazyPart } from './lazy';
import type { TestTakerProps } from './props';
import { INITIAL_SCREEN, type Screen, screenReducer, stateOf, type TakerTest } from './screen';
import { TakerScreen } from './TakerScreen';
import { useTabCharge } from './useTabCharge';
import { useEvaluation, useStartFlow, useTestLoad } from './useTakerCalls';

const loadRunningScreen = lazyModule(() => import('./RunningScreen'));
const loadScoreScreen = lazyModule(() => import('./ScoreScreen'));
const pickRunning = (m: typeof import('./RunningScreen')) => m.RunningScreen;
const pickScore = (m: typeof import('./ScoreScreen')) => m.ScoreScreen;

/** The screens that are the test itself (not a failure nor a closed link): the first one drawn is wm-ready. */
const READY_STATES = new Set(['ready', 'started', 'open-elsewhere', 'open-in-another-browser', 'score']);

export function TestTaker({ linkId, headingLevel }: TestTakerProps) {
  const level = headingLevel === '2' ? 2 : 1;
  const [screen, dispatch] = useReducer(screenReducer, INITIAL_SCREEN);
  // the running test is fetched while Ready shows, the score once the test starts: each is there in time
  const running = useLazyPart(
    loadRunningScreen,
    pickRunning,
    screen.kind === 'ready' || screen.kind === 'started',
  );
  const score = useLazyPart(
    loadScoreScreen,
    pickScore,
    screen.kind === 'started' || screen.kind === 'evaluating' || screen.kind === 'score',
  );
  const titleId = useId();
  /** The test last shown, for the score screen's subtitle. */
  const shown = useRef<TakerTest | null>(null);
  if ((screen.kind === 'ready' || screen.kind === 'started') && shown.current !== screen.test) {
    shown.current = screen.test;
  }

  const { evaluate, fail } = useEvaluation(linkId, dispatch);
  /** `sandbox`: a link of a tenant's sandbox (decision 041): every screen says so. */
  const { offset, setOffset, sandbox, reload } = useTestLoad(linkId, dispatch, fail);
  const { charge, handOver } = useTabInCharge(linkId, screen.kind, reload);
  const state = stateOf(screen, charge.role);
  useStateEvents(linkId, state);
  const box = useFocusOnNewScreen(state);
  const { start, moveHere } = useStartFlow(linkId, dispatch, fail, setOffset);

  return (
    <div ref={box} className="wm-taker">
      {sandbox ? <SandboxNote /> : null}
      <TakerScreen
        screen={screen}
        linkId={linkId}
        level={level}
        titleId={titleId}
        offset={offset}
        charge={charge}
        handOver={handOver}
        running={running}
        score={score}
        testTitle={shown.current?.title ?? null}
        evaluate={evaluate}
        fail={fail}
        start={start}
        moveHere={moveHere}
        reload={reload}
      />
    </div>
  );
}

/**
 * One tab in charge of a started test: the others save nothing. `handOver` is what the running test does
 * before another tab takes over; when this tab takes over, what the other saved is read again (`reload`).
 */
function useTabInCharge(linkId: string, kind: Screen['kind'], reload: () => void) {
  const [charging, setCharging] = useState(false);
  useEffect(() => {
    if (kind === 'started') setCharging(true);
    else if (kind !== 'loading') setCharging(false);
  }, [kind]);
  const handOver = useRef<(() => Promise<unknown>) | null>(null);
  const charge = useTabCharge(linkId, charging, handOver);
  const wasElsewhere = useRef(false);
  useEffect(() => {
    if (charge.role === 'elsewhere') wasElsewhere.current = true;
    else if (charge.role === 'in-charge' && wasElsewhere.current) {
      // this tab takes over: what the other tab saved is read again from the server
      wasElsewhere.current = false;
      reload();
    }
  }, [charge.role, reload]);
  return { charge, handOver };
}

/** wm-state for each screen; wm-ready once per load, when its first screen that is not a failure is drawn. */
function useStateEvents(linkId: string, state: string) {
  const host = useWidgetHost();
  const ready = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported once per screen
  useEffect(() => {
    host.emit('wm-state', { linkId, state });
    if (state === 'loading') ready.current = false;
    else if (!ready.current && READY_STATES.has(state)) {
      ready.current = true;
      host.emit('wm-ready', { linkId, state });
    }
  }, [state]);
}

/**
 * A new screen after the learner acted (not the first one, nor the test itself): its heading gets the
 * focus, so keyboard and screen-reader users land on what changed. Returns the ref of the screens' box.
 */
function useFocusOnNewScreen(state: string) {
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
  return box;
}

/** Above every screen of a sandbox's test: the mark and what it means, in the reader's language. */
function SandboxNote() {
  const { t } = useI18n();
  return (
    <p className="wm-sandbox" part="sandbox">
      <strong className="badge badge-warning">{t(SANDBOX_WORDS.mark)}</strong> {t(SANDBOX_WORDS.test)}
    </p>
  );
}
