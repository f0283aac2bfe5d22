/**
 * /portal/users/{userId}/assigned-roadmaps/{id} (mentor §2.6, §4): the learner's progress in one roadmap —
 * the counters CERTIFICATE, BADGE and FEATHER (assessments whose status is VIEW_CERTIFICATE or
 * GENERATE_CERTIFICATE), tabs Roadmap (sections and resources, a green tick when an assessment of the
 * resource scored 60 or more, else a red mark) and Task (only when there are tasks), and the assessments
 * of this roadmap.
 */
import { tenantAssignedRoadmap, tenantTestlinkList } from '@shared/contract/tenant';
import { awardCounts } from '@shared/rules/test-status';
import { RoadmapStatus } from '@widgets/catalogue/columns';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Arrow } from '@widgets/ui/Arrow';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useId } from 'react';
import { Link, useParams } from 'react-router';
import { ResourceProgress, ResourceRow, SectionList } from '../../../components/ResourceList';
import { RoadmapTabs } from '../../../components/RoadmapTabs';
import { TableFailure } from '../../../components/TableFailure';
import { ROADMAP_LOAD_FAILED } from '../roadmaps/useTenantRoadmap';
import { Counter } from '../ui';
import { LearnerTestLinks } from './AnalyticsPage';
import { useUserId } from './LearnerLayout';

export default function AssignedRoadmapPage() {
  const userId = useUserId();
  const { t } = useI18n();
  const { id = '' } = useParams();
  const ids = useId();
  const roadmap = useCall(
    (signal) => client.call(tenantAssignedRoadmap, { params: { userId, id }, signal }).then((r) => r.data),
    [userId, id],
  );
  const links = useCall(
    (signal) =>
      client
        .call(tenantTestlinkList, { params: { userId }, query: { assignedRoadmapId: id }, signal })
        .then((r) => r.data),
    [userId, id],
  );

  if (roadmap.error) return <LoadFailed error={roadmap.error} fallback={ROADMAP_LOAD_FAILED} />;
  if (!roadmap.data) return <Loader />;
  const r = roadmap.data;
  const counts = awardCounts(links.data ?? []);
  const counting = links.data ? undefined : '…';

  return (
    <div>
      <p>
        <Link to={`/portal/users/${userId}/assigned-roadmaps`}>
          <Arrow to="back" /> {t('tenant.assignedRoadmaps')}
        </Link>
      </p>
      <div className="page-head">
        <h1>{r.name}</h1>
        <RoadmapStatus status={r.status} />
      </div>
      <p className="muted">
        {r.subject.name} · {r.language.name}
      </p>
      <p>{r.description}</p>
      <ul className="counters" aria-label={t('tenant.awards')}>
        <Counter label={t('tenant.counter.certificate')} value={counting ?? counts.certificates} />
        <Counter label={t('tenant.counter.badge')} value={counting ?? counts.badges} />
        <Counter label={t('tenant.counter.feather')} value={counting ?? counts.feathers} />
      </ul>
      <RoadmapTabs tasks={r.tasks} readOnly>
        <SectionList
          sections={r.sections}
          renderResource={(res, section) => (
            <ResourceRow
              key={res._id}
              resource={res}
              extra={<ResourceProgress score={section.resourceScores[res._id]} />}
            />
          )}
        />
      </RoadmapTabs>
      <section className="card" aria-labelledby={`${ids}-tests`}>
        <h2 id={`${ids}-tests`}>{t('myRoadmap.assessments')}</h2>
        {links.error ? (
          <TableFailure />
        ) : !links.data ? (
          <Loader />
        ) : (
          <LearnerTestLinks
            links={links.data}
            userId={userId}
            caption={t('myRoadmap.assessmentsOf', { name: r.name })}
          />
        )}
      </section>
    </div>
  );
}
