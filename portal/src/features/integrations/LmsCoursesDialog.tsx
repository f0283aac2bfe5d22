/**
 * The LMS page's dialog of a platform's courses (issue 27; decision 044), each with Check members (a dry
 * run) and Sync members.
 */
import { ltiContextList, syncLtiMembers } from '@shared/contract/lti';
import type { LtiSyncResult } from '@shared/schemas/lti';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { INTEGRATIONS_COPY as COPY } from './copy';
import type { Registration } from './LmsPage';

const OUTCOME = { ADDED: 'Added', PRESENT: 'Already has a seat', NOT_ADDED: 'Not added' } as const;

/** A platform's courses, each with Sync members: who would be added (a dry run), then adding them. */
export function CoursesDialog({
  registration,
  onClose,
}: {
  registration: Registration | null;
  onClose: () => void;
}) {
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
      toast(messageOf(err, COPY.lmsSyncFailed), { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={registration !== null}
      title={`Courses of “${registration?.label ?? ''}”`}
      onClose={onClose}
      actions={
        <button type="button" className="btn" onClick={onClose}>
          Done
        </button>
      }
    >
      {list.error ? <LoadFailed error={list.error} /> : null}
      {list.data && !list.data.length ? <p>{COPY.noCourses}</p> : null}
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
                  Check members<span className="visually-hidden"> of {c.title ?? c.contextId}</span>
                </button>{' '}
                <button type="button" className="btn" disabled={busy} onClick={() => sync(c._id, false)}>
                  Sync members<span className="visually-hidden"> of {c.title ?? c.contextId}</span>
                </button>
              </>
            ) : (
              <span className="muted">{COPY.noMemberList}</span>
            )}
            {result?.course === c._id ? (
              <div role="status">
                <p>{COPY.lmsSyncCounts(result.data)}</p>
                <ul>
                  {result.data.members
                    .filter((m) => m.outcome !== 'PRESENT')
                    .map((m) => (
                      <li key={m.subject}>
                        {m.name ?? m.email ?? m.subject}: {OUTCOME[m.outcome]}
                        {m.reason ? ` — ${m.reason}` : ''}
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
