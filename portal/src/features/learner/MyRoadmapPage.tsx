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
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { assessmentQuestion } from '@widgets/dashboard/ResourceCards';
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

export const START_FAILED = "Sorry, we couldn't start the assessment. Please try again in a moment.";

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
  const { id = '' } = useParams();
  const roadmap = useCall(
    (signal) => client.call(assignedRoadmap, { params: { id }, signal }).then((r) => r.data),
    [id],
  );
  return (
    <div className="page">
      <h1>{roadmap.data?.name ?? 'Your roadmap'}</h1>
    </div>
  );
}

function MyRoadmap() {
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

  if (roadmap.error)
    return <LoadFailed error={roadmap.error} fallback="Couldn't load the roadmap, please try later" />;
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
    openTestInNewTab(() =>
      client.call(createTestLink, { body: asking.body }).then((res) => res.data.testLinkId),
    )
      .then(() => reloadAll())
      .catch((err) => {
        // a retake not open yet says when it opens; the page then shows it in place of the action
        toast(startFailureMessage(err, START_FAILED), { kind: 'error', title: asking.title });
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
      toast(messageOf(err, 'The task could not be marked as submitted.'), { kind: 'error' });
    }
  };

  return (
    <div className="page">
      <div className="row wm-page-head">
        <h1>{r.name}</h1>
        <span className={`badge ${completed ? 'badge-success' : 'badge-primary'}`}>{r.status}</span>
        <div className="spacer" />
        <button type="button" className="btn btn-secondary" onClick={() => setShowLinks(true)}>
          Assessments
        </button>
        {r.finalAssesmentId ? (
          <Link className="btn" to={viewAnswersPath(r.finalAssesmentId)}>
            View assessment
          </Link>
        ) : !completed && finalRetake ? (
          <RetakeNote opensAt={finalRetake} name={`the final assessment of ${r.name}`} />
        ) : !completed ? (
          <button
            type="button"
            className="btn"
            onClick={() =>
              setAsking({
                title: 'Final Assessment',
                question: `Would you like to attempt the final assessment of ${r.name}?`,
                body: { type: 'ROADMAP', assignedRoadmapId: r._id },
              })
            }
          >
            Take Final Assessment
          </button>
        ) : null}
      </div>
      <p className="muted">
        {r.subject.name} · {r.language.name}
      </p>
      <p>{r.description}</p>
      <ul className="counters" aria-label="Progress">
        <li className="counter">
          <strong>{counts.certificates}</strong> CERTIFICATE
        </li>
        <li className="counter">
          <strong>{counts.badges}</strong> BADGE
        </li>
        <li className="counter">
          <strong>{counts.feathers}</strong> FEATHER
        </li>
        <li className="counter">
          <strong>
            {passed} / {resources.length}
          </strong>{' '}
          resources passed
        </li>
        <li className="counter">
          <strong>
            {submittedTasks} / {r.tasks.length}
          </strong>{' '}
          tasks submitted
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
                    View Badge<span className="visually-hidden">: {section.name}</span>
                  </Link>
                ) : null}
                {completed ? null : sectionRetake ? (
                  <RetakeNote opensAt={sectionRetake} name={`the ${section.name} section assessment`} />
                ) : (
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    onClick={() =>
                      setAsking({
                        title: 'Section Assessment',
                        question: `Would you like to attempt the ${section.name} section assessment?`,
                        body: { type: 'SECTION', assignedRoadmapId: r._id, sectionId: section._id },
                      })
                    }
                  >
                    Section Assessment<span className="visually-hidden">: {section.name}</span>
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
                      <RetakeNote opensAt={resourceRetake} name={`the assessment of ${title}`} />
                    ) : (
                      <button
                        type="button"
                        className="btn btn-secondary btn-small"
                        onClick={() =>
                          setAsking({
                            title: 'Take Assessment',
                            question: assessmentQuestion(title),
                            body: {
                              type: 'RESOURCE',
                              assignedRoadmapId: r._id,
                              sectionId: section._id,
                              resourceId: res._id,
                            },
                          })
                        }
                      >
                        Take Assessment<span className="visually-hidden">: {title}</span>
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
              No
            </button>
            <button type="button" className="btn" onClick={start} disabled={starting}>
              {starting ? <Spinner /> : null} Yes
            </button>
          </>
        }
      >
        <p>{asking?.question}</p>
        <p className="muted">The test opens in a new tab. The timer starts when you press Start there.</p>
      </Dialog>
      <Dialog
        open={showLinks}
        title={`Assessments of ${r.name}`}
        onClose={() => setShowLinks(false)}
        actions={
          <button type="button" className="btn btn-secondary" onClick={() => setShowLinks(false)}>
            Close
          </button>
        }
      >
        {links.error ? (
          <LoadFailed error={links.error} fallback="Couldn't load the assessments. Please try again later." />
        ) : !links.data ? (
          <Loader />
        ) : mine.length === 0 ? (
          <p className="empty">No assessments taken for this roadmap yet.</p>
        ) : (
          <TestLinksTable
            links={mine}
            caption={`Assessments of ${r.name}`}
            renderLink={routerLink}
            pageSize={5}
          />
        )}
      </Dialog>
    </div>
  );
}
