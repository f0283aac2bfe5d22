/** Evaluating (or 'Time is up'): the answers are being scored; Try again when the evaluation failed. */

import { useI18n } from '../core/i18n';
import { Loader } from '../ui/Loader';
import type { HeadingTag } from './EndScreen';
import type { Reason } from './screen';

export function EvaluatingScreen({
  reason,
  error,
  onRetry,
  Title,
  titleId,
}: {
  reason: Reason;
  error?: string;
  onRetry: () => void;
  Title: HeadingTag;
  titleId: string;
}) {
  const { t } = useI18n();
  return (
    <section className="wm-test wm-test-center" part="test" aria-labelledby={titleId}>
      <Title id={titleId}>{reason === 'time-up' ? t('test.timeUp') : t('test.evaluating')}</Title>
      {error ? (
        <>
          <p className="alert alert-error" role="alert">
            {t('test.evaluationFailed', { error })}
          </p>
          <button type="button" className="btn" onClick={onRetry}>
            {t('common.tryAgain')}
          </button>
        </>
      ) : (
        <Loader text={t('test.evaluatingAnswers')} />
      )}
    </section>
  );
}
