/**
 * Telling a learner when a failed test can be taken again (decision 010): where a take-test action would
 * be, the time it opens; after a refused request, the server's refusal in the reader's time zone.
 */
import { retakeLabel, retakeNotice, retakeOpensAtOf } from '@shared/rules/retakes';
import { messageOf } from '@widgets/core/useCall';

/** 'Retake from 25th Nov 2026 10:30 am', named for what it is about, in place of a take-test button. */
export function RetakeNote({ opensAt, name }: { opensAt: string; name: string }) {
  return (
    <span className="wm-retake">
      {retakeLabel(opensAt)}
      <span className="visually-hidden">: {name}</span>
    </span>
  );
}

/** What to tell after a new link was refused: when the retake opens, else the server's message. */
export function startFailureMessage(err: unknown, fallback: string): string {
  const opensAt = retakeOpensAtOf(err);
  return opensAt ? retakeNotice(opensAt) : messageOf(err, fallback);
}
