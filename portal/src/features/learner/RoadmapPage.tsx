import { assignRoadmap, checkRoadmapAssigned, roadmapView } from '@shared/contract/catalogue';
import { useRoadmapSelection } from '@widgets/catalogue/selection';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PortalWidgets } from '../../components/PortalWidgets';
import { SectionList } from '../../components/ResourceList';
import { RoadmapTabs } from '../../components/RoadmapTabs';

/** How long 'Assigned' shows before the learner is taken to their roadmaps (learner §4). */
export const ASSIGNED_REDIRECT_MS = 1200;

/**
 * /roadmap/{id}: a catalogue roadmap, with 'Assign this to me...', which becomes 'Assigned' once
 * assigned; then the learner is taken to /my-roadmaps. A roadmap with prerequisites is taken as from the
 * catalogue (mentor §2.9, §4): the button opens the selection dialog, whose prerequisite assessment comes
 * first and ends on the roadmap's preview.
 */
export default function RoadmapPage() {
  return (
    <PortalWidgets>
      <Roadmap />
    </PortalWidgets>
  );
}

function Roadmap() {
  const { id = '' } = useParams();
  const { t, list } = useI18n();
  const navigate = useNavigate();
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
  const selection = useRoadmapSelection();

  if (roadmap.error) return <LoadFailed error={roadmap.error} fallback={t('catalogue.detailFailed')} />;
  if (!roadmap.data) return <Loader />;
  const r = roadmap.data;

  const prerequisites = r.prerequisites.map((p) => p.name);
  const assign = async () => {
    // with prerequisites, their assessment first: the same dialog as the catalogue's Select
    if (prerequisites.length > 0) {
      selection.select(r._id, r.name);
      return;
    }
    setAssigning(true);
    setError('');
    try {
      await client.call(assignRoadmap, { body: { roadmapId: r._id } });
      setJustAssigned(true);
      toast(t('roadmap.nowYours', { name: r.name }), { kind: 'success' });
    } catch (err) {
      setError(messageOf(err, t('catalogue.assignFailed')));
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
          <span className="badge badge-success">{t('roadmap.assigned')}</span>
        ) : (
          <button
            type="button"
            className="btn"
            onClick={() => void assign()}
            disabled={assigning || assigned.loading}
          >
            {assigning ? <Spinner /> : null} {t('roadmap.assignToMe')}
          </button>
        )}
      </div>
      <p className="muted">
        {r.subject.name}
        {r.topic ? ` · ${r.topic.name}` : ''} · {r.language.name}
      </p>
      {prerequisites.length > 0 && !(justAssigned || assigned.data?.assigned) ? (
        <p className="alert alert-info" role="note">
          {t('roadmap.buildsOn', { names: list(prerequisites), count: prerequisites.length })}
        </p>
      ) : null}
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
      <p>{r.description}</p>
      <RoadmapTabs tasks={r.tasks}>
        <SectionList sections={r.sections} />
      </RoadmapTabs>
      {selection.dialog}
    </div>
  );
}
