/**
 * /my-roadmap/{id} (learner §2, §4): the learner's copy of a roadmap — needs the extension. Sections and
 * resources with their tick or mark and best score, 'Take Assessment' per resource (confirmed: 'Would you
 * like to attempt an {resource} assessment?'), a section assessment per section, 'Take Final Assessment'
 * or 'View assessment' for the roadmap, the CERTIFICATE, BADGE and FEATHER counters, the assessments of
 * this roadmap in a modal, and the tasks. A new link opens /test/{testLinkId} in a new tab. Once
 * COMPLETED, resource links become plain text and the take-assessment actions disappear.
 */

import { createTestLink, testLinkList } from '@shared/contract/assessments';
import { assignedRoadmap, submitTask } from '@shared/contract/catalogue';
import { earnsResourceTick } from '@shared/rules/scoring';
import { awardCounts } from '@shared/rules/test-status';
import { ExtensionRequired } from '@widgets/activity/ExtensionGate';
import { openTestInNewTab } from '@widgets/assessments/open-test';
import { startFailureMessage } from '@widgets/assessments/retake';
import { useReloadOnReturn } from '@widgets/assessments/useReloadOnReturn';
import { RoadmapStatus } from '@widgets/catalogue/columns';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useCallback, useState } from 'react';
import { useParams } from 'react-router';
import { SectionList } from '../../components/ResourceList';
import { RoadmapTabs } from '../../components/RoadmapTabs';
import { appConfig } from '../../lib/config';
import {
  type Asking,
  FinalAction,
  MyResourceRow,
  RoadmapCounters,
  RoadmapLinksDialog,
  SectionActions,
  StartTestDialog,
} from './MyRoadmapParts';

export default function MyRoadmapPage() {
  let storeUrls: ReturnType<typeof appConfig>['extension'] | undefined;
  try {
    storeUrls = appConfig().extension;
  } catch {
    // the configuration loads before any page; without it the prompt reads the store links itself
  }
  return (
    <ExtensionRequired storeUrls={storeUrls} heading={<RoadmapHeading />}>
      <MyRoadmap />
    </ExtensionRequired>
  );
}

/** Without the extension the page still says which roadmap it is (its name as the page's heading). */
function RoadmapHeading() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const roadmap = useCall(
    (signal) => client.call(assignedRoadmap, { params: { id }, signal }).then((r) => r.data),
    [id],
  );
  return (
    <div className="page">
      <h1>{roadmap.data?.name ?? t('myRoadmap.yours')}</h1>
    </div>
  );
}

/** The learner's roadmap and its test links, both read again when the learner comes back to the page. */
function useRoadmapAndLinks(id: string) {
  const roadmap = useCall(
    (signal) => client.call(assignedRoadmap, { params: { id }, signal }).then((r) => r.data),
    [id],
  );
  const links = useCall(
    (signal) => client.call(testLinkList, { query: { assignedRoadmapId: id }, signal }).then((r) => r.data),
    [id],
  );
  const reloadRoadmap = roadmap.reload;
  const reloadLinks = links.reload;
  const reloadAll = useCallback(() => {
    reloadRoadmap();
    reloadLinks();
  }, [reloadRoadmap, reloadLinks]);
  useReloadOnReturn(reloadAll);
  return { roadmap, links, reloadAll };
}

function MyRoadmap() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = '' } = useParams();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [starting, setStarting] = useState(false);
  const [showLinks, setShowLinks] = useState(false);
  const { roadmap, links, reloadAll } = useRoadmapAndLinks(id);
  const reloadLinks = links.reload;

  if (roadmap.error) return <LoadFailed error={roadmap.error} fallback={t('catalogue.detailFailed')} />;
  if (!roadmap.data) return <Loader />;
  const r = roadmap.data;
  const completed = r.status === 'COMPLETED';
  const mine = links.data ?? [];
  const counts = awardCounts(mine);
  const resources = r.sections.flatMap((s) => s.resources.map((res) => s.resourceScores[res._id]));
  const passed = resources.filter((score) => earnsResourceTick(score)).length;
  const submittedTasks = r.tasks.filter((t) => t.isSubmited).length;

  // opened inside the click on Yes (pop-up blockers), pointed at /test/{id} once the link exists
  const start = () => {
    if (!asking) return;
    setStarting(true);
    openTestInNewTab(
      () => client.call(createTestLink, { body: asking.body }).then((res) => res.data.testLinkId),
      '',
      t('test.preparing'),
    )
      .then(() => reloadAll())
      .catch((err) => {
        // a retake not open yet says when it opens; the page then shows it in place of the action
        toast(startFailureMessage(err, t('myRoadmap.startFailed'), i18n), {
          kind: 'error',
          title: asking.title,
        });
        reloadLinks();
      })
      .finally(() => {
        setStarting(false);
        setAsking(null);
      });
  };

  const markSubmitted = async (taskId: string) => {
    try {
      await client.call(submitTask, { params: { id: r._id, taskId }, body: {} });
      roadmap.reload();
    } catch (err) {
      toast(messageOf(err, t('myRoadmap.taskFailed')), { kind: 'error' });
    }
  };

  return (
    <div className="page">
      <div className="row wm-page-head">
        <h1>{r.name}</h1>
        <RoadmapStatus status={r.status} />
        <div className="spacer" />
        <button type="button" className="btn btn-secondary" onClick={() => setShowLinks(true)}>
          {t('myRoadmap.assessments')}
        </button>
        <FinalAction roadmap={r} mine={mine} onAsk={setAsking} />
      </div>
      <p className="muted">
        {r.subject.name} · {r.language.name}
      </p>
      <p>{r.description}</p>
      <RoadmapCounters
        counts={counts}
        passed={passed}
        resources={resources.length}
        submittedTasks={submittedTasks}
        tasks={r.tasks.length}
      />
      <RoadmapTabs tasks={r.tasks} readOnly={completed} onSubmitTask={(t) => void markSubmitted(t._id)}>
        <SectionList
          sections={r.sections}
          renderSectionActions={(section) => (
            <SectionActions
              section={section}
              roadmapId={r._id}
              mine={mine}
              completed={completed}
              onAsk={setAsking}
            />
          )}
          renderResource={(res, section) => (
            <MyResourceRow
              key={res._id}
              resource={res}
              section={section}
              roadmapId={r._id}
              mine={mine}
              completed={completed}
              onAsk={setAsking}
            />
          )}
        />
      </RoadmapTabs>
      <StartTestDialog asking={asking} starting={starting} onCancel={() => setAsking(null)} onStart={start} />
      <RoadmapLinksDialog open={showLinks} name={r.name} links={links} onClose={() => setShowLinks(false)} />
    </div>
  );
}
