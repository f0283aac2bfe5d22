/**
 * /assesments (learner §2): 'Your Assessment Links' — every test link of the learner with its score,
 * dates, status and actions — the empty state, and the subject test creator.
 */
import { testLinkList } from '@shared/contract/assessments';
import type { MessageKey } from '@shared/i18n/keys';
import { TestLinksTable } from '@widgets/assessments/TestLinksTable';
import { useReloadOnReturn } from '@widgets/assessments/useReloadOnReturn';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useState } from 'react';
import { Link } from 'react-router';
import { routerLink } from '../../components/routerLink';
import { SubjectTestDialog } from './SubjectTestDialog';

export const EMPTY_TEXT = 'assessments.empty' satisfies MessageKey;

export default function AssessmentsPage() {
  const links = useCall((signal) => client.call(testLinkList, { query: {}, signal }).then((r) => r.data), []);
  const { t } = useI18n();
  const [creating, setCreating] = useState(false);
  useReloadOnReturn(links.reload);

  return (
    <div className="page">
      <div className="row wm-page-head">
        <h1>{t('assessments.title')}</h1>
        <div className="spacer" />
        <button type="button" className="btn" onClick={() => setCreating(true)}>
          {t('subjectTest.title')}
        </button>
      </div>
      {links.error ? <LoadFailed error={links.error} fallback={t('assessments.loadFailed')} /> : null}
      {links.loading && !links.data ? <Loader /> : null}
      {links.data?.length === 0 ? (
        <div className="card empty">
          <p>{t(EMPTY_TEXT)}</p>
          <Link className="btn" to="/all-roadmaps">
            {t('myRoadmaps.select')}
          </Link>
        </div>
      ) : null}
      {links.data?.length ? (
        <div className="card">
          <TestLinksTable links={links.data} caption={t('links.caption')} renderLink={routerLink} />
        </div>
      ) : null}
      <SubjectTestDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={links.reload}
        links={links.data ?? []}
      />
    </div>
  );
}
