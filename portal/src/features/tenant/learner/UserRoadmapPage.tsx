/**
 * /portal/users/{userId}/roadmap/{roadmapId} (mentor §2.6, §4): a catalogue roadmap for one learner — what
 * a roadmap, a section and a resource are, its name and description, and an 'Assigned' badge or 'Assign
 * this roadmap for him...'. Once assigned, the learner's roadmaps list opens. A learner holds at most two:
 * 'Already two Roadmaps are assigned for this user.'
 */
import { ApiError } from '@shared/client/client';
import { tenantAssignRoadmap, tenantCheckRoadmapAssigned } from '@shared/contract/tenant';
import { TENANT_MESSAGES } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
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

export default function UserRoadmapPage() {
  const userId = useUserId();
  const learner = useLearner();
  const { roadmapId = '' } = useParams();
  const navigate = useNavigate();
  const [assigning, setAssigning] = useState(false);
  const [error, setError] = useState('');
  const roadmap = useTenantRoadmap(roadmapId);
  const assigned = useCall(
    (signal) =>
      client.call(tenantCheckRoadmapAssigned, { params: { roadmapId, userId }, signal }).then((r) => r.data),
    [roadmapId, userId],
  );
  const who = learner.name || learner.email;

  if (roadmap.error)
    return (
      <p className="alert alert-error" role="alert">
        {messageOf(roadmap.error, ROADMAP_LOAD_FAILED)}
      </p>
    );
  if (!roadmap.data) return <Loader />;
  const r = roadmap.data;

  const assign = async () => {
    setAssigning(true);
    setError('');
    try {
      await client.call(tenantAssignRoadmap, { body: { roadmapId: r._id, userId } });
      assigned.reload();
      toast(`${r.name} is now assigned to ${who}.`, { kind: 'success', ms: 4000 });
      navigate(`/portal/users/${userId}/assigned-roadmaps`);
    } catch (err) {
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
            onClick={() => void assign()}
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
          {error ? (
            <p className="alert alert-error" role="alert">
              {error}
            </p>
          ) : null}
        </>
      }
    />
  );
}
