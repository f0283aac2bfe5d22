/** 'Ready to Take Test?': the test's name, its length and time, the warnings, and Start. */

import { Rich, useI18n } from '../core/i18n';
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
  const { t, locale } = useI18n();
  const total = test.questions.questions.length;
  return (
    <section className="wm-test wm-ready" part="test" aria-labelledby={titleId}>
      <Title id={titleId}>
        <Slot name="ready-heading">{t(TEST_TEXT.ready)}</Slot>
      </Title>
      <p className="wm-test-name">
        {test.title}
        <span className="badge">{t(TYPE_LABELS[test.type])}</span>
      </p>
      <ul className="wm-facts">
        <li>
          <Rich k="test.questionCount" values={{ count: total }} components={{ 0: <strong /> }} />
        </li>
        <li>
          <Rich
            k="test.timeOnceStarted"
            values={{ time: spokenRemaining(test.timeLimitMinutes * 60_000, locale) }}
            components={{ 0: <strong /> }}
          />
        </li>
      </ul>
      <div className="alert alert-warning wm-warnings">
        <p>
          <strong>{t('test.beforeYouStart')}</strong>
        </p>
        <ul>
          {TEST_TEXT.warnings.map((w) => (
            <li key={w}>{t(w)}</li>
          ))}
        </ul>
        <p>{t('test.savedAsYouGo')}</p>
        <p className="wm-recorded">{t(TEST_TEXT.recorded)}</p>
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
        {starting ? t('test.starting') : t('test.start')}
      </button>
    </section>
  );
}
