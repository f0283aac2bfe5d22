/** 'Ready to Take Test?': the test's name, its length and time, the warnings, and Start. */

import { Slot } from '../embed/host';
import { spokenRemaining } from './clock';
import type { HeadingTag } from './EndScreen';
import type { TakerTest } from './screen';
import { TEST_TEXT, TYPE_LABELS } from './text';

export function ReadyScreen({
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
      <Title id={titleId}>
        <Slot name="ready-heading">{TEST_TEXT.ready}</Slot>
      </Title>
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
