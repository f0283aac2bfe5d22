import { assignRoadmap, checkRoadmapAssigned, roadmapView } from '@shared/contract/catalogue';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { Tabs } from '@widgets/ui/Tabs';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { SectionList } from './ResourceList';
import { TaskList } from './TaskList';

/** How long 'Assigned' shows before the learner is taken to their roadmaps (learner §4). */
export const ASSIGNED_REDIRECT_MS = 1200;

/**
 * /roadmap/{id}: a catalogue roadmap, with 'Assign this to me...', which becomes 'Assigned' once
 * assigned; then the learner is taken to /my-roadmaps.
 */
export default function RoadmapPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [tab, setTab] = useState('roadmap');
  const [assigning, setAssigning] = useState(false);
  const [error, setError] = useState('');
  const [justAssigned, setJustAssigned] = useState(false);
  useEffect(() => {
    if (!justAssigned) return;
    const timer = setTimeout(() => navigate('/my-roadmaps'), ASSIGNED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [justAssigned, navigate]);
  const roadmap = useCall(
    (signal) => client.call(roadmapView, { params: { id }, signal }).then((r) => r.data),
    [id],
  );
  const assigned = useCall(
    (signal) => client.call(checkRoadmapAssigned, { params: { id }, signal }).then((r) => r.data),
    [id],
  );

  if (roadmap.error)
    return (
      <p className="alert alert-error" role="alert">
        {messageOf(roadmap.error, "Couldn't load the roadmap, please try later")}
      </p>
    );
  if (!roadmap.data) return <Loader />;
  const r = roadmap.data;

  const assign = async () => {
    setAssigning(true);
    setError('');
    try {
      await client.call(assignRoadmap, { body: { roadmapId: r._id } });
      setJustAssigned(true);
      toast(`${r.name} is now one of your roadmaps.`, { kind: 'success' });
    } catch (err) {
      setError(messageOf(err, "Couldn't assign the roadmap now"));
    } finally {
      setAssigning(false);
    }
  };

  return (
    <div className="page">
      <div className="row">
        <h1>{r.name}</h1>
        <div className="spacer" />
        {justAssigned || assigned.data?.assigned ? (
          <span className="badge badge-success">Assigned</span>
        ) : (
          <button
            type="button"
            className="btn"
            onClick={() => void assign()}
            disabled={assigning || assigned.loading}
          >
            {assigning ? <Spinner /> : null} Assign this to me...
          </button>
        )}
      </div>
      <p className="muted">
        {r.subject.name}
        {r.topic ? ` · ${r.topic.name}` : ''} · {r.language.name}
      </p>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
      <p>{r.description}</p>
      <Tabs
        label="Roadmap content"
        selected={tab}
        onSelect={setTab}
        items={[
          { id: 'roadmap', label: 'Roadmap', content: <SectionList sections={r.sections} /> },
          ...(r.tasks.length ? [{ id: 'task', label: 'Task', content: <TaskList tasks={r.tasks} /> }] : []),
        ]}
      />
    </div>
  );
}
