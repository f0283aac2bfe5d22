/**
 * The LMS page's dialog of a platform's courses (issue 27; decision 044), each with Check members (a dry
 * run) and Sync members.
 */
import { ltiContextList, syncLtiMembers } from '@shared/contract/lti';
import type { MessageKey } from '@shared/i18n/keys';
import type { LtiMemberOutcome, LtiSyncResult, MEMBER_REASONS } from '@shared/schemas/lti';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { Registration } from './LmsPage';

const hidden = { 0: <span className="visually-hidden" /> };

/** Why a member was not (or would be) added, by the server's code; REFUSED: in the server's words. */
const REASON: Record<Exclude<(typeof MEMBER_REASONS)[number], 'REFUSED'>, MessageKey> = {
  WOULD_ADD: 'lms.reason.wouldAdd',
  NOT_YET_SUBSCRIBED: 'lms.reason.notYetSubscribed',
  PAYMENT_REQUIRED: 'lms.reason.paymentRequired',
  OFFER_LIMIT: 'lms.reason.offerLimit',
};

/** A member's reason in the reader's language, when the server gave its code (a newer server's: as sent). */
function reasonOf(
  m: Pick<z.infer<typeof LtiMemberOutcome>, 'reason' | 'reasonCode'>,
  t: (key: MessageKey) => string,
): string | null {
  const code = m.reasonCode;
  return code && code !== 'REFUSED' && Object.hasOwn(REASON, code) ? t(REASON[code]) : m.reason;
}

/** A platform's courses, each with Sync members: who would be added (a dry run), then adding them. */
export function CoursesDialog({
  registration,
  onClose,
}: {
  registration: Registration | null;
  onClose: () => void;
}) {
  const { t, number } = useI18n();
  const id = registration?._id ?? null;
  const list = useCall(
    (signal) =>
      id ? client.call(ltiContextList, { params: { id }, signal }).then((r) => r.data) : Promise.resolve([]),
    [id],
  );
  const [result, setResult] = useState<{ course: string; data: z.infer<typeof LtiSyncResult> } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (id) setResult(null);
  }, [id]);
  const sync = async (course: string, dryRun: boolean) => {
    setBusy(true);
    try {
      const res = await client.call(syncLtiMembers, { params: { id: course }, body: { dryRun } });
      setResult({ course, data: res.data });
    } catch (err) {
      toast(messageOf(err, t('lms.syncFailed')), { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={registration !== null}
      title={t('lms.coursesOf', { label: registration?.label ?? '' })}
      onClose={onClose}
      actions={
        <button type="button" className="btn" onClick={onClose}>
          {t('integrations.done')}
        </button>
      }
    >
      {list.error ? <LoadFailed error={list.error} /> : null}
      {list.data && !list.data.length ? <p>{t('lms.noCourses')}</p> : null}
      <ul className="lms-courses">
        {(list.data ?? []).map((c) => (
          <li key={c._id}>
            <strong>{c.title ?? c.contextId}</strong>{' '}
            {c.canSyncMembers ? (
              <>
                <button
                  type="button"
                  className="btn btn-secondary"
                  disabled={busy}
                  onClick={() => sync(c._id, true)}
                >
                  <Rich
                    k="lms.checkMembers"
                    values={{ course: c.title ?? c.contextId }}
                    components={hidden}
                  />
                </button>{' '}
                <button type="button" className="btn" disabled={busy} onClick={() => sync(c._id, false)}>
                  <Rich k="lms.syncMembers" values={{ course: c.title ?? c.contextId }} components={hidden} />
                </button>
              </>
            ) : (
              <span className="muted">{t('lms.noMemberList')}</span>
            )}
            {result?.course === c._id ? (
              <div role="status">
                <p>
                  {t('lms.syncCounts', {
                    dryRun: result.data.dryRun ? 'yes' : 'no',
                    added: number(result.data.counts.added),
                    present: number(result.data.counts.present),
                    notAdded: number(result.data.counts.notAdded),
                    skipped: result.data.skipped,
                  })}
                </p>
                <ul>
                  {result.data.members
                    .filter((m) => m.outcome !== 'PRESENT')
                    .map((m) => (
                      <li key={m.subject}>
                        {m.name ?? m.email ?? m.subject}: {t('lms.outcome', { outcome: m.outcome })}
                        {reasonOf(m, t) ? ` — ${reasonOf(m, t)}` : ''}
                      </li>
                    ))}
                </ul>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
