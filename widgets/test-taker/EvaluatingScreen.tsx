/** Evaluating (or 'Time is up'): the answers are being scored; Try again when the evaluation failed. */
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
  return (
    <section className="wm-test wm-test-center" part="test" aria-labelledby={titleId}>
      <Title id={titleId}>{reason === 'time-up' ? 'Time is up' : 'Evaluating'}</Title>
      {error ? (
        <>
          <p className="alert alert-error" role="alert">
            Your answers could not be evaluated yet: {error}
          </p>
          <button type="button" className="btn" onClick={onRetry}>
            Try again
          </button>
        </>
      ) : (
        <Loader text="Evaluating your answers…" />
      )}
    </section>
  );
}
