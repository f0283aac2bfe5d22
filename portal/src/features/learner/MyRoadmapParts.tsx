/** The parts of a learner's roadmap page: its counters, each section's and resource's actions, its dialogs. */
import type { CreateTestLinkInput } from '@shared/contract/assessments';
import { retakeOpensFor } from '@shared/rules/retakes';
import { type AwardCounts, awardPath, hasEarnedAward, viewAnswersPath } from '@shared/rules/test-status';
import type { TestLink } from '@shared/schemas/assessment';
import type { AssignedRoadmap, Resource } from '@shared/schemas/catalogue';
import { RetakeNote } from '@widgets/assessments/retake';
import { TestLinksTable } from '@widgets/assessments/TestLinksTable';
import { Rich, useI18n } from '@widgets/core/i18n';
import type { CallState } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ResourceProgress, ResourceRow } from '../../components/ResourceList';
import { routerLink } from '../../components/routerLink';

type NewLink = z.input<typeof CreateTestLinkInput>;
type TestLinkT = z.infer<typeof TestLink>;
type AssignedSection = z.infer<typeof AssignedRoadmap>['sections'][number];

/** An assessment the learner asked to start, waiting for the confirmation. */
export interface Asking {
  title: string;
  question: string;
  body: NewLink;
}

/** The CERTIFICATE, BADGE and FEATHER counters, the resources passed and the tasks submitted. */
export function RoadmapCounters({
  counts,
  passed,
  resources,
  submittedTasks,
  tasks,
}: {
  counts: AwardCounts;
  passed: number;
  resources: number;
  submittedTasks: number;
  tasks: number;
}) {
  const { t } = useI18n();
  return (
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
          values={{ passed, total: resources }}
          components={{ 0: <strong dir="ltr" /> }}
        />
      </li>
      <li className="counter">
        <Rich
          k="myRoadmap.tasksSubmitted"
          values={{ submitted: submittedTasks, total: tasks }}
          components={{ 0: <strong dir="ltr" /> }}
        />
      </li>
    </ul>
  );
}

/** 'View assessment' once the final test was taken; until the roadmap is done, 'Take Final Assessment'. */
export function FinalAction({
  roadmap,
  mine,
  onAsk,
}: {
  roadmap: z.infer<typeof AssignedRoadmap>;
  mine: TestLinkT[];
  onAsk: (asking: Asking) => void;
}) {
  const { t } = useI18n();
  const completed = roadmap.status === 'COMPLETED';
  const finalRetake = retakeOpensFor(mine, { type: 'ROADMAP', assignedRoadmapId: roadmap._id });
  return (
    <>
      {roadmap.finalAssesmentId ? (
        <Link className="btn" to={viewAnswersPath(roadmap.finalAssesmentId)}>
          {t('myRoadmap.viewAssessment')}
        </Link>
      ) : !completed && finalRetake ? (
        <RetakeNote opensAt={finalRetake} name={t('myRoadmap.finalOf', { name: roadmap.name })} />
      ) : !completed ? (
        <button
          type="button"
          className="btn"
          onClick={() =>
            onAsk({
              title: t('myRoadmap.finalTitle'),
              question: t('myRoadmap.finalQuestion', { name: roadmap.name }),
              body: { type: 'ROADMAP', assignedRoadmapId: roadmap._id },
            })
          }
        >
          {t('myRoadmap.takeFinal')}
        </button>
      ) : null}
    </>
  );
}

/** A section's badge once earned, and its assessment (or when a retake opens) until the roadmap is done. */
export function SectionActions({
  section,
  roadmapId,
  mine,
  completed,
  onAsk,
}: {
  section: AssignedSection;
  roadmapId: string;
  mine: TestLinkT[];
  completed: boolean;
  onAsk: (asking: Asking) => void;
}) {
  const { t } = useI18n();
  const badge = mine.find((l) => l.type === 'SECTION' && l.sectionId === section._id && hasEarnedAward(l));
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
        <RetakeNote opensAt={sectionRetake} name={t('myRoadmap.sectionOf', { name: section.name })} />
      ) : (
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() =>
            onAsk({
              title: t('myRoadmap.sectionTitle'),
              question: t('myRoadmap.sectionQuestion', { name: section.name }),
              body: { type: 'SECTION', assignedRoadmapId: roadmapId, sectionId: section._id },
            })
          }
        >
          {t('myRoadmap.sectionTitle')}
          <span className="visually-hidden">{t('common.about', { name: section.name })}</span>
        </button>
      )}
    </>
  );
}

/** A resource with its best score and 'Take Assessment' (or when a retake opens) until the roadmap is done. */
export function MyResourceRow({
  resource: res,
  section,
  roadmapId,
  mine,
  completed,
  onAsk,
}: {
  resource: z.infer<typeof Resource>;
  section: AssignedSection;
  roadmapId: string;
  mine: TestLinkT[];
  completed: boolean;
  onAsk: (asking: Asking) => void;
}) {
  const { t } = useI18n();
  const score = section.resourceScores[res._id];
  const title = res.userTitle || res.actualTitle;
  const resourceRetake = retakeOpensFor(mine, { type: 'RESOURCE', resourceId: res._id });
  return (
    <ResourceRow
      resource={res}
      plain={completed}
      extra={
        <>
          <ResourceProgress score={score} />
          {completed ? null : resourceRetake ? (
            <RetakeNote opensAt={resourceRetake} name={t('myRoadmap.resourceOf', { name: title })} />
          ) : (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() =>
                onAsk({
                  title: t('myRoadmap.takeAssessment'),
                  question: t('dashboard.attemptQuestion', { resource: title }),
                  body: {
                    type: 'RESOURCE',
                    assignedRoadmapId: roadmapId,
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
}

/** 'Would you like to attempt …?': Yes starts the assessment in a new tab, No (or closing) leaves it. */
export function StartTestDialog({
  asking,
  starting,
  onCancel,
  onStart,
}: {
  asking: Asking | null;
  starting: boolean;
  onCancel: () => void;
  onStart: () => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog
      open={asking !== null}
      title={asking?.title ?? ''}
      onClose={() => (starting ? undefined : onCancel())}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={starting}>
            {t('common.no')}
          </button>
          <button type="button" className="btn" onClick={onStart} disabled={starting}>
            {starting ? <Spinner /> : null} {t('common.yes')}
          </button>
        </>
      }
    >
      <p>{asking?.question}</p>
      <p className="muted">{t('myRoadmap.opensInTab')}</p>
    </Dialog>
  );
}

/** The assessments of this roadmap, in a table of five a page. */
export function RoadmapLinksDialog({
  open,
  name,
  links,
  onClose,
}: {
  open: boolean;
  name: string;
  links: CallState<TestLinkT[]>;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const mine = links.data ?? [];
  return (
    <Dialog
      open={open}
      title={t('myRoadmap.assessmentsOf', { name })}
      onClose={onClose}
      actions={
        <button type="button" className="btn btn-secondary" onClick={onClose}>
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
          caption={t('myRoadmap.assessmentsOf', { name })}
          renderLink={routerLink}
          pageSize={5}
        />
      )}
    </Dialog>
  );
}
