/**
 * /portal/users/{userId}/roadmap/{roadmapId} (mentor §2.6, §4): a catalogue roadmap for one learner — what
 * a roadmap, a section and a resource are, its name and description, and an 'Assigned' badge or 'Assign
 * this roadmap for him...'. Once assigned, the learner's roadmaps list opens. A learner holds at most two:
 * 'Already two Roadmaps are assigned for this user.' A roadmap with prerequisites is normally taken after
 * their assessment; the mentor decides in its place, explicitly (decision 011): the prerequisites' sections
 * first, or waived.
 */
import { ApiError } from '@shared/client/client';
import {
  type PREREQUISITE_CHOICES,
  tenantAssignRoadmap,
  tenantCheckRoadmapAssigned,
} from '@shared/contract/tenant';
import type { Translator } from '@shared/i18n/translator';
import { TENANT_ERROR_CODES } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { RoadmapDetail } from '../roadmaps/RoadmapDetail';
import { ROADMAP_LOAD_FAILED, useTenantRoadmap } from '../roadmaps/useTenantRoadmap';
import { useLearner, useUserId } from './LearnerLayout';

/** The message an assignment failure shows (mentor §8). */
export function assignFailure(err: unknown, { t }: Pick<Translator, 't'>): string {
  if (err instanceof ApiError && err.errorCode === TENANT_ERROR_CODES.roadmapLimit) {
    return t('userRoadmap.limit');
  }
  return messageOf(err, t('userRoadmap.assignFailed'));
}

type Choice = (typeof PREREQUISITE_CHOICES)[number];

export default function UserRoadmapPage() {
  const translator = useI18n();
  const { t } = translator;
  const inProse = (names: readonly string[]) => translator.list(names);
  const userId = useUserId();
  const learner = useLearner();
  const { roadmapId = '' } = useParams();
  const navigate = useNavigate();
  const [assigning, setAssigning] = useState(false);
  const [error, setError] = useState('');
  const [choosing, setChoosing] = useState(false);
  const [choice, setChoice] = useState<Choice | null>(null);
  const roadmap = useTenantRoadmap(roadmapId);
  const assigned = useCall(
    (signal) =>
      client.call(tenantCheckRoadmapAssigned, { params: { roadmapId, userId }, signal }).then((r) => r.data),
    [roadmapId, userId],
  );
  const who = learner.name || learner.email;

  if (roadmap.error) return <LoadFailed error={roadmap.error} fallback={ROADMAP_LOAD_FAILED} />;
  if (!roadmap.data) return <Loader />;
  const r = roadmap.data;

  const prerequisites = r.prerequisites.map((p) => p.name);
  const assign = async (prerequisiteChoice?: Choice) => {
    setAssigning(true);
    setError('');
    try {
      await client.call(tenantAssignRoadmap, {
        body: { roadmapId: r._id, userId, prerequisites: prerequisiteChoice },
      });
      setChoosing(false);
      assigned.reload();
      toast(t('userRoadmap.assigned', { roadmap: r.name, name: who }), { kind: 'success', ms: 4000 });
      navigate(`/portal/users/${userId}/assigned-roadmaps`);
    } catch (err) {
      setChoosing(false);
      setError(assignFailure(err, translator));
    } finally {
      setAssigning(false);
    }
  };

  return (
    <RoadmapDetail
      roadmap={r}
      actions={
        assigned.data?.assigned ? (
          <span className="badge badge-success">{t('roadmap.assigned')}</span>
        ) : learner.isDisabled ? null : (
          <button
            type="button"
            className="btn"
            onClick={() => {
              if (prerequisites.length === 0) void assign();
              else {
                setChoice(null);
                setChoosing(true);
              }
            }}
            disabled={assigning || assigned.loading}
          >
            {assigning ? <Spinner /> : null} {t('userRoadmap.assignForLearner')}
          </button>
        )
      }
      intro={
        <>
          <p className="muted">{t('userRoadmap.intro')}</p>
          {prerequisites.length > 0 && !assigned.data?.assigned ? (
            <p className="alert alert-info" role="note">
              {t('userRoadmap.buildsOn', { names: inProse(prerequisites), count: prerequisites.length })}
            </p>
          ) : null}
          {error ? (
            <p className="alert alert-error" role="alert">
              {error}
            </p>
          ) : null}
          <PrerequisiteDialog
            open={choosing}
            assigning={assigning}
            roadmap={r.name}
            prerequisites={inProse(prerequisites)}
            who={who}
            choice={choice}
            onChoice={setChoice}
            onCancel={() => setChoosing(false)}
            onAssign={(chosen) => void assign(chosen)}
          />
        </>
      }
    />
  );
}

/**
 * How a roadmap with prerequisites starts for this learner (decision 011): their sections first, or
 * waived; Assign once one is chosen.
 */
function PrerequisiteDialog({
  open,
  assigning,
  roadmap,
  prerequisites,
  who,
  choice,
  onChoice,
  onCancel,
  onAssign,
}: {
  open: boolean;
  assigning: boolean;
  roadmap: string;
  /** The prerequisites' names, as prose. */
  prerequisites: string;
  who: string;
  choice: Choice | null;
  onChoice: (choice: Choice) => void;
  onCancel: () => void;
  onAssign: (choice: Choice) => void;
}) {
  const { t } = useI18n();
  const choiceId = useId();
  return (
    <Dialog
      open={open}
      title={t('userRoadmap.prerequisites')}
      onClose={onCancel}
      modalOnly={assigning}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="btn"
            disabled={!choice || assigning}
            onClick={() => choice && onAssign(choice)}
          >
            {assigning ? <Spinner /> : null} {t('userRoadmap.assign')}
          </button>
        </>
      }
    >
      <p>{t('userRoadmap.choose', { roadmap, names: prerequisites, name: who })}</p>
      <fieldset className="choice-group">
        <legend className="visually-hidden">{t('userRoadmap.howStarts', { name: who })}</legend>
        <label className="check" htmlFor={`${choiceId}-include`}>
          <input
            id={`${choiceId}-include`}
            type="radio"
            name={`${choiceId}-choice`}
            checked={choice === 'INCLUDE'}
            onChange={() => onChoice('INCLUDE')}
          />
          <span>
            <Rich k="userRoadmap.include" values={{ names: prerequisites }} components={{ 0: <strong /> }} />
          </span>
        </label>
        <label className="check" htmlFor={`${choiceId}-waive`}>
          <input
            id={`${choiceId}-waive`}
            type="radio"
            name={`${choiceId}-choice`}
            checked={choice === 'WAIVE'}
            onChange={() => onChoice('WAIVE')}
          />
          <span>
            <Rich k="userRoadmap.waive" values={{ name: who }} components={{ 0: <strong /> }} />
          </span>
        </label>
      </fieldset>
    </Dialog>
  );
}
