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
import { TENANT_MESSAGES } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { TENANT_COPY } from '../copy';
import { RoadmapDetail } from '../roadmaps/RoadmapDetail';
import { ROADMAP_LOAD_FAILED, useTenantRoadmap } from '../roadmaps/useTenantRoadmap';
import { useLearner, useUserId } from './LearnerLayout';

/** The message an assignment failure shows (mentor §8). */
export function assignFailure(err: unknown): string {
  if (err instanceof ApiError && err.message.startsWith(TENANT_MESSAGES.roadmapLimit)) {
    return TENANT_COPY.roadmapLimit;
  }
  return messageOf(err, "Couldn't assign the roadmap now");
}

type Choice = (typeof PREREQUISITE_CHOICES)[number];

const inProse = (names: readonly string[]) =>
  new Intl.ListFormat('en-GB', { type: 'conjunction' }).format(names);

export default function UserRoadmapPage() {
  const userId = useUserId();
  const learner = useLearner();
  const { roadmapId = '' } = useParams();
  const navigate = useNavigate();
  const [assigning, setAssigning] = useState(false);
  const [error, setError] = useState('');
  const [choosing, setChoosing] = useState(false);
  const [choice, setChoice] = useState<Choice | null>(null);
  const choiceId = useId();
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
      toast(`${r.name} is now assigned to ${who}.`, { kind: 'success', ms: 4000 });
      navigate(`/portal/users/${userId}/assigned-roadmaps`);
    } catch (err) {
      setChoosing(false);
      setError(assignFailure(err));
    } finally {
      setAssigning(false);
    }
  };

  return (
    <RoadmapDetail
      roadmap={r}
      actions={
        assigned.data?.assigned ? (
          <span className="badge badge-success">Assigned</span>
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
            {assigning ? <Spinner /> : null} Assign this roadmap for him...
          </button>
        )
      }
      intro={
        <>
          <p className="muted">
            A roadmap is a path through a subject, made of sections; each section groups resources (videos and
            articles) that the learner studies while the extension counts the time. Each resource, section and
            the whole roadmap has an assessment that earns a feather, a badge or a certificate.
          </p>
          {prerequisites.length > 0 && !assigned.data?.assigned ? (
            <p className="alert alert-info" role="note">
              This roadmap builds on {inProse(prerequisites)}. A learner who selects it takes an assessment on{' '}
              {prerequisites.length === 1 ? 'it' : 'them'} first; when you assign it, you decide in its place.
            </p>
          ) : null}
          {error ? (
            <p className="alert alert-error" role="alert">
              {error}
            </p>
          ) : null}
          <Dialog
            open={choosing}
            title="Prerequisites"
            onClose={() => setChoosing(false)}
            modalOnly={assigning}
            actions={
              <>
                <button type="button" className="btn btn-secondary" onClick={() => setChoosing(false)}>
                  Cancel
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={!choice || assigning}
                  onClick={() => choice && void assign(choice)}
                >
                  {assigning ? <Spinner /> : null} Assign
                </button>
              </>
            }
          >
            <p>
              {r.name} builds on {inProse(prerequisites)}. A learner who selects it themselves takes an
              assessment first, and whatever they are not yet sure of opens their roadmap. Assigning it for{' '}
              {who}, you decide instead:
            </p>
            <fieldset className="choice-group">
              <legend className="visually-hidden">How {who} starts</legend>
              <label className="check" htmlFor={`${choiceId}-include`}>
                <input
                  id={`${choiceId}-include`}
                  type="radio"
                  name={`${choiceId}-choice`}
                  checked={choice === 'INCLUDE'}
                  onChange={() => setChoice('INCLUDE')}
                />
                <span>
                  <strong>Start with the prerequisites</strong> — every section of {inProse(prerequisites)}{' '}
                  comes first, then the roadmap's own.
                </span>
              </label>
              <label className="check" htmlFor={`${choiceId}-waive`}>
                <input
                  id={`${choiceId}-waive`}
                  type="radio"
                  name={`${choiceId}-choice`}
                  checked={choice === 'WAIVE'}
                  onChange={() => setChoice('WAIVE')}
                />
                <span>
                  <strong>Waive the prerequisites</strong> — you vouch that {who} knows them; the roadmap
                  starts with its own sections.
                </span>
              </label>
            </fieldset>
          </Dialog>
        </>
      }
    />
  );
}
