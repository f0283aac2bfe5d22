/**
 * The screen of the taker's state (screen.ts's Screen union, the tab in charge of a started test from
 * useTabCharge.ts): Loading, Ready, the running test (fetched when needed, lazy.ts), the test held by
 * another tab or browser, Evaluating, the score (fetched when needed), and the screens of a link that
 * cannot be taken or a failure. TestTaker.tsx holds the state and the calls; this file draws it.
 */
import type { MessageKey } from '@shared/i18n/keys';
import { useI18n } from '../core/i18n';
import { useWidgetHost } from '../embed/host';
import { Loader } from '../ui/Loader';
import type { AnswerPayload } from './answers';
import { ElsewhereScreen, ErrorScreen, GoneScreen, HeldElsewhereScreen } from './EndScreen';
import { EvaluatingScreen } from './EvaluatingScreen';
import type { LazyPart } from './lazy';
import { ReadyScreen } from './ReadyScreen';
import type { RunningScreen } from './RunningScreen';
import type { ScoreScreen } from './ScoreScreen';
import type { Reason, Screen, TakerTest } from './screen';
import type { ChargeState } from './tab-charge';

interface TakerScreenProps {
  screen: Screen;
  linkId: string;
  level: 1 | 2;
  titleId: string;
  /** The server's clock minus this page's (clock.ts). */
  offset: number;
  /** Whether this tab is in charge of the started test, and how many others have it open. */
  charge: ChargeState & { takeOver: () => void };
  handOver: { current: (() => Promise<unknown>) | null };
  running: LazyPart<typeof RunningScreen>;
  score: LazyPart<typeof ScoreScreen>;
  /** The title of the test last shown, the score screen's subtitle. */
  testTitle: string | null;
  evaluate: (answers: AnswerPayload[], reason: Reason, before?: Promise<unknown>) => Promise<void>;
  fail: (err: unknown) => void;
  start: (test: TakerTest) => Promise<void>;
  moveHere: () => Promise<void>;
  reload: () => void;
}

/**
 * The screen of the taker's state. Each screen is returned here, at one place in the tree, so a screen
 * that follows one of its own kind (Loading, then Opening) updates it: its live region tells the change.
 */
export function TakerScreen(props: TakerScreenProps) {
  const { screen, linkId, titleId, charge, running, score, evaluate } = props;
  const host = useWidgetHost();
  const { t } = useI18n();
  const Title = props.level === 1 ? 'h1' : 'h2';
  /** A part still on its way: loading, or the failure with a way to fetch it again. */
  const notYet = (part: LazyPart<unknown>, failed: MessageKey, loading: MessageKey) =>
    part.failed ? (
      <ErrorScreen message={t(failed)} retry onRetry={part.retry} Title={Title} titleId={titleId} />
    ) : (
      <Loader text={t(loading)} />
    );
  switch (screen.kind) {
    case 'loading':
      return <Loader text={t('test.loading')} />;
    case 'ready':
      return (
        <ReadyScreen
          test={screen.test}
          starting={Boolean(screen.starting)}
          error={screen.error}
          Title={Title}
          titleId={titleId}
          onStart={() => void props.start(screen.test)}
        />
      );
    case 'started':
      if (charge.role === 'deciding') return <Loader text={t('test.opening')} />;
      if (charge.role === 'elsewhere')
        return <ElsewhereScreen onTakeOver={charge.takeOver} Title={Title} titleId={titleId} />;
      if (!running.part) return notYet(running, 'test.partLoadFailed', 'test.opening');
      return <RunningTest {...props} Running={running.part} test={screen.test} resumed={screen.resumed} />;
    case 'held-elsewhere':
      return (
        <HeldElsewhereScreen
          signedIn={host.role() === 'USER'}
          moving={Boolean(screen.moving)}
          error={screen.error}
          onMoveHere={() => void props.moveHere()}
          Title={Title}
          titleId={titleId}
        />
      );
    case 'evaluating':
      return (
        <EvaluatingScreen
          reason={screen.reason}
          error={screen.error}
          onRetry={() => void evaluate(screen.answers, screen.reason)}
          Title={Title}
          titleId={titleId}
        />
      );
    case 'score': {
      const ScoreScreen = score.part;
      if (!ScoreScreen) return notYet(score, 'test.scoreLoadFailed', 'test.loading');
      return (
        <ScoreScreen
          result={screen.result}
          linkId={linkId}
          testTitle={props.testTitle}
          Title={Title}
          titleId={titleId}
        />
      );
    }
    case 'gone':
      return <GoneScreen code={screen.code} message={screen.message} Title={Title} titleId={titleId} />;
    default:
      return (
        <ErrorScreen
          message={screen.message}
          retry={screen.retry}
          onRetry={props.reload}
          Title={Title}
          titleId={titleId}
        />
      );
  }
}

/** The running test in this tab, the one in charge: its answers evaluated when it is submitted or over. */
function RunningTest({
  Running,
  linkId,
  level,
  offset,
  charge,
  handOver,
  evaluate,
  fail,
  test,
  resumed,
}: TakerScreenProps & { Running: typeof RunningScreen; test: TakerTest; resumed: boolean }) {
  return (
    <Running
      key={linkId}
      linkId={linkId}
      test={test}
      offset={offset}
      resumed={resumed}
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
}
