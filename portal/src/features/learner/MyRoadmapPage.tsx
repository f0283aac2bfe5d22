/**
 * /my-roadmap/{id} (learner §2, §4): the learner's copy of a roadmap — needs the extension. Sections and
 * resources with their tick or mark and best score, 'Take Assessment' per resource (confirmed: 'Would you
 * like to attempt an {resource} assessment?'), a section assessment per section, 'Take Final Assessment'
 * or 'View assessment' for the roadmap, the CERTIFICATE, BADGE and FEATHER counters, the assessments of
 * this roadmap in a modal, and the tasks. A new link opens /test/{testLinkId} in a new tab. Once
 * COMPLETED, resource links become plain text and the take-assessment actions disappear.
 */

import type { CreateTestLinkInput } from '@shared/contract/assessments';
import { createTestLink, testLinkList } from '@shared/contract/assessments';
import { assignedRoadmap, submitTask } from '@shared/contract/catalogue';
import { retakeOpensFor } from '@shared/rules/retakes';
import { earnsResourceTick } from '@shared/rules/scoring';
import { awardCounts, awardPath, hasEarnedAward, viewAnswersPath } from '@shared/rules/test-status';
import { ExtensionRequired } from '@widgets/activity/ExtensionGate';
import { openTestInNewTab } from '@widgets/assessments/open-test';
import { RetakeNote, startFailureMessage } from '@widgets/assessments/retake';
import { TestLinksTable } from '@widgets/assessments/TestLinksTable';
import { useReloadOnReturn } from '@widgets/assessments/useReloadOnReturn';
import { RoadmapStatus } from '@widgets/catalogue/columns';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useCallback, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { ResourceProgress, ResourceRow, SectionList } from '../../components/ResourceList';
import { RoadmapTabs } from '../../components/RoadmapTabs';
import { routerLink } from '../../components/routerLink';
import { appConfig } from '../../lib/config';

type NewLink = z.input<typeof CreateTestLinkInput>;

/** An assessment the learner asked to start, waiting for the confirmation. */
interface Asking {
  title: string;
  question: string;
  body: NewLink;
}

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

function MyRoadmap() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = '' } = useParams();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [starting, setStarting] = useState(false);
  const [showLinks, setShowLinks] = useState(false);
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

  if (roadmap.error) return <LoadFailed error={roadmap.error} fallback={t('catalogue.detailFailed')} />;
  if (!roadmap.data) return <Loader />;
  const r = roadmap.data;
  const completed = r.status === 'COMPLETED';
  const mine = links.data ?? [];
  const counts = awardCounts(mine);
  const resources = r.sections.flatMap((s) => s.resources.map((res) => s.resourceScores[res._id]));
  const passed = resources.filter((score) => earnsResourceTick(score)).length;
  const submittedTasks = r.tasks.filter((t) => t.isSubmited).length;
  const finalRetake = retakeOpensFor(mine, { type: 'ROADMAP', assignedRoadmapId: r._id });

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
        {r.finalAssesmentId ? (
          <Link className="btn" to={viewAnswersPath(r.finalAssesmentId)}>
            {t('myRoadmap.viewAssessment')}
          </Link>
        ) : !completed && finalRetake ? (
          <RetakeNote opensAt={finalRetake} name={t('myRoadmap.finalOf', { name: r.name })} />
        ) : !completed ? (
          <button
            type="button"
            className="btn"
            onClick={() =>
              setAsking({
                title: t('myRoadmap.finalTitle'),
                question: t('myRoadmap.finalQuestion', { name: r.name }),
                body: { type: 'ROADMAP', assignedRoadmapId: r._id },
              })
            }
          >
            {t('myRoadmap.takeFinal')}
          </button>
        ) : null}
      </div>
      <p className="muted">
        {r.subject.name} · {r.language.name}
      </p>
      <p>{r.description}</p>
      <ul className="counters" aria-label={t('myRoadmap.progress')}>
        <li className="counter">
          <Rich
            k="myRoadmap.certificates"
            values={{ count: counts.certificates }}
            components={{ 0: <strong /> }}
          />
        </li>
        <li className="counter">
          <Rich k="myRoadmap.badges" values={{ count: counts.badges }} components={{ 0: <strong /> }} />
        </li>
        <li className="counter">
          <Rich k="myRoadmap.feathers" values={{ count: counts.feathers }} components={{ 0: <strong /> }} />
        </li>
        <li className="counter">
          <Rich
            k="myRoadmap.resourcesPassed"
            values={{ passed, total: resources.length }}
            components={{ 0: <strong dir="ltr" /> }}
          />
        </li>
        <li className="counter">
          <Rich
            k="myRoadmap.tasksSubmitted"
            values={{ submitted: submittedTasks, total: r.tasks.length }}
            components={{ 0: <strong dir="ltr" /> }}
          />
        </li>
      </ul>
      <RoadmapTabs tasks={r.tasks} readOnly={completed} onSubmitTask={(t) => void markSubmitted(t._id)}>
        <SectionList
          sections={r.sections}
          renderSectionActions={(section) => {
            const badge = mine.find(
              (l) => l.type === 'SECTION' && l.sectionId === section._id && hasEarnedAward(l),
            );
            const badgeHref = badge ? awardPath(badge.type, badge.linkId) : null;
            const sectionRetake = retakeOpensFor(mine, { type: 'SECTION', sectionId: section._id });
            return (
              <>
                {badgeHref ? (
                  <Link className="btn btn-link" to={badgeHref}>
                    {t('award.viewBadge')}
                    <span className="visually-hidden">{t('common.about', { name: section.name })}</span>
                  </Link>
                ) : null}
                {completed ? null : sectionRetake ? (
                  <RetakeNote
                    opensAt={sectionRetake}
                    name={t('myRoadmap.sectionOf', { name: section.name })}
                  />
                ) : (
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    onClick={() =>
                      setAsking({
                        title: t('myRoadmap.sectionTitle'),
                        question: t('myRoadmap.sectionQuestion', { name: section.name }),
                        body: { type: 'SECTION', assignedRoadmapId: r._id, sectionId: section._id },
                      })
                    }
                  >
                    {t('myRoadmap.sectionTitle')}
                    <span className="visually-hidden">{t('common.about', { name: section.name })}</span>
                  </button>
                )}
              </>
            );
          }}
          renderResource={(res, section) => {
            const score = section.resourceScores[res._id];
            const title = res.userTitle || res.actualTitle;
            const resourceRetake = retakeOpensFor(mine, { type: 'RESOURCE', resourceId: res._id });
            return (
              <ResourceRow
                key={res._id}
                resource={res}
                plain={completed}
                extra={
                  <>
                    <ResourceProgress score={score} />
                    {completed ? null : resourceRetake ? (
                      <RetakeNote
                        opensAt={resourceRetake}
                        name={t('myRoadmap.resourceOf', { name: title })}
                      />
                    ) : (
                      <button
                        type="button"
                        className="btn btn-secondary btn-small"
                        onClick={() =>
                          setAsking({
                            title: t('myRoadmap.takeAssessment'),
                            question: t('dashboard.attemptQuestion', { resource: title }),
                            body: {
                              type: 'RESOURCE',
                              assignedRoadmapId: r._id,
                              sectionId: section._id,
                              resourceId: res._id,
                            },
                          })
                        }
                      >
                        {t('myRoadmap.takeAssessment')}
                        <span className="visually-hidden">{t('common.about', { name: title })}</span>
                      </button>
                    )}
                  </>
                }
              />
            );
          }}
        />
      </RoadmapTabs>
      <Dialog
        open={asking !== null}
        title={asking?.title ?? ''}
        onClose={() => (starting ? undefined : setAsking(null))}
        actions={
          <>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setAsking(null)}
              disabled={starting}
            >
              {t('common.no')}
            </button>
            <button type="button" className="btn" onClick={start} disabled={starting}>
              {starting ? <Spinner /> : null} {t('common.yes')}
            </button>
          </>
        }
      >
        <p>{asking?.question}</p>
        <p className="muted">{t('myRoadmap.opensInTab')}</p>
      </Dialog>
      <Dialog
        open={showLinks}
        title={t('myRoadmap.assessmentsOf', { name: r.name })}
        onClose={() => setShowLinks(false)}
        actions={
          <button type="button" className="btn btn-secondary" onClick={() => setShowLinks(false)}>
            {t('common.close')}
          </button>
        }
      >
        {links.error ? (
          <LoadFailed error={links.error} fallback={t('myRoadmap.linksFailed')} />
        ) : !links.data ? (
          <Loader />
        ) : mine.length === 0 ? (
          <p className="empty">{t('myRoadmap.noLinks')}</p>
        ) : (
          <TestLinksTable
            links={mine}
            caption={t('myRoadmap.assessmentsOf', { name: r.name })}
            renderLink={routerLink}
            pageSize={5}
          />
        )}
      </Dialog>
    </div>
  );
}
