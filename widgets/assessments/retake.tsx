/**
 * Telling a learner when a failed test can be taken again (decision 010): where a take-test action would
 * be, the time it opens; after a refused request, the server's refusal in the reader's time zone and
 * language.
 */
import type { Speaker } from '@shared/i18n/message';
import { retakeLabel, retakeNotice, retakeOpensAtOf } from '@shared/rules/retakes';
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';

/** 'Retake from 25th Nov 2026 10:30 am', named for what it is about, in place of a take-test button. */
export function RetakeNote({ opensAt, name }: { opensAt: string; name: string }) {
  const i18n = useI18n();
  return (
    <span className="wm-retake">
      {retakeLabel(opensAt, i18n)}
      <span className="visually-hidden">{i18n.t('common.about', { name })}</span>
    </span>
  );
}

/** What to tell after a new link was refused: when the retake opens, else the server's message. */
export function startFailureMessage(err: unknown, fallback: string, speaker: Speaker): string {
  const opensAt = retakeOpensAtOf(err);
  return opensAt ? retakeNotice(opensAt, speaker) : messageOf(err, fallback);
}
