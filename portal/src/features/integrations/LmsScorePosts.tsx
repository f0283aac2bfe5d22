/**
 * The LMS page's list of score posts (issue 27; decision 044) that did not reach a platform's gradebook,
 * each with Send again.
 */
import { ltiDeliveryList, retryLtiDelivery } from '@shared/contract/lti';
import type { MessageKey } from '@shared/i18n/keys';
import type { LtiDelivery } from '@shared/schemas/lti';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import type { z } from 'zod';

type Delivery = z.infer<typeof LtiDelivery>;

const POST_ERROR: Record<NonNullable<Delivery['lastErrorCode']>, MessageKey> = {
  TARGET_GONE: 'lms.postError.targetGone',
  EVALUATION_GONE: 'lms.postError.evaluationGone',
};

/** The score posts to the gradebooks that did not go through, with Send again. */
export function ScorePosts() {
  const { t, number } = useI18n();
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
      toast(t('lms.retried'), { kind: 'success', ms: 4000 });
      posts.reload();
    } catch (err) {
      toast(messageOf(err, t('lms.retryFailed')), { kind: 'error' });
    } finally {
      setBusy(null);
    }
  };
  const columns: Column<Delivery>[] = [
    { header: t('lms.learner'), cell: (d) => d.learner.name ?? d.learner.email },
    {
      header: t('lms.score'),
      cell: (d) =>
        d.scoreGiven === null
          ? '—'
          : t('lms.scoreOf', {
              given: number(d.scoreGiven),
              maximum: d.scoreMaximum === null ? '—' : number(d.scoreMaximum),
            }),
    },
    {
      header: t('integrations.status'),
      cell: (d) => t('lms.postStatus', { status: d.status, attempts: d.attempts }),
    },
    {
      header: t('lms.lastAnswer'),
      cell: (d) => {
        // Waymark's own reasons in the reader's language; the platform's answer in its own words
        const error = d.lastErrorCode ? t(POST_ERROR[d.lastErrorCode]) : d.lastError;
        return d.lastStatus ? `${d.lastStatus}: ${error ?? ''}` : (error ?? '—');
      },
    },
    {
      header: t('integrations.action'),
      cell: (d) => (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy === d._id}
          onClick={() => retry(d)}
        >
          <Rich
            k="lms.sendAgain"
            values={{ name: d.learner.name ?? d.learner.email }}
            components={{ 0: <span className="visually-hidden" /> }}
          />
        </button>
      ),
    },
  ];
  return (
    <section aria-labelledby="lms-posts-title">
      <h3 id="lms-posts-title">{t('lms.postsTitle')}</h3>
      {posts.error ? <LoadFailed error={posts.error} /> : null}
      {posts.data ? (
        <DataTable
          caption={t('lms.postsTitle')}
          columns={columns}
          rows={posts.data}
          rowKey={(d) => d._id}
          empty={t('lms.noFailedPosts')}
        />
      ) : null}
    </section>
  );
}
