/**
 * The LMS page's list of score posts (issue 27; decision 044) that did not reach a platform's gradebook,
 * each with Send again.
 */
import { ltiDeliveryList, retryLtiDelivery } from '@shared/contract/lti';
import type { LtiDelivery } from '@shared/schemas/lti';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import type { z } from 'zod';
import { INTEGRATIONS_COPY as COPY } from './copy';

type Delivery = z.infer<typeof LtiDelivery>;

const POST_STATUS = {
  PENDING: 'Waiting',
  SENDING: 'Sending',
  DELIVERED: 'Delivered',
  FAILED: 'Failed, retrying',
  GAVE_UP: 'Failed',
} as const;

/** The score posts to the gradebooks that did not go through, with Send again. */
export function ScorePosts() {
  const posts = useCall(
    (signal) =>
      client.call(ltiDeliveryList, { query: { status: 'FAILED', limit: 50 }, signal }).then((r) => r.data),
    [],
  );
  const [busy, setBusy] = useState<string | null>(null);
  const retry = async (d: Delivery) => {
    setBusy(d._id);
    try {
      await client.call(retryLtiDelivery, { params: { id: d._id } });
      toast(COPY.lmsRetried, { kind: 'success', ms: 4000 });
      posts.reload();
    } catch (err) {
      toast(messageOf(err, COPY.lmsRetryFailed), { kind: 'error' });
    } finally {
      setBusy(null);
    }
  };
  const columns: Column<Delivery>[] = [
    { header: 'Learner', cell: (d) => d.learner.name ?? d.learner.email },
    { header: 'Score', cell: (d) => (d.scoreGiven === null ? '—' : `${d.scoreGiven} / ${d.scoreMaximum}`) },
    { header: 'Status', cell: (d) => `${POST_STATUS[d.status]} (${d.attempts} attempts)` },
    {
      header: 'Last answer',
      cell: (d) => (d.lastStatus ? `${d.lastStatus}: ${d.lastError ?? ''}` : (d.lastError ?? '—')),
    },
    {
      header: 'Action',
      cell: (d) => (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy === d._id}
          onClick={() => retry(d)}
        >
          Send again<span className="visually-hidden"> the score of {d.learner.name ?? d.learner.email}</span>
        </button>
      ),
    },
  ];
  return (
    <section aria-labelledby="lms-posts-title">
      <h3 id="lms-posts-title">Scores that did not reach the gradebook</h3>
      {posts.error ? <LoadFailed error={posts.error} /> : null}
      {posts.data ? (
        <DataTable
          caption="Scores that did not reach the gradebook"
          columns={columns}
          rows={posts.data}
          rowKey={(d) => d._id}
          empty={COPY.noFailedPosts}
        />
      ) : null}
    </section>
  );
}
