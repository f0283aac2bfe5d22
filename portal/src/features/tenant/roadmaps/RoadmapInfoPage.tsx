/** /portal/roadmaps/{roadmapId}/roadmap (mentor §2.6): a catalogue roadmap's name, description and Created At. */
import { messageOf } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { Link, useParams } from 'react-router';
import '../tenant.css';
import { RoadmapDetail } from './RoadmapDetail';
import { ROADMAP_LOAD_FAILED, useTenantRoadmap } from './useTenantRoadmap';

export default function RoadmapInfoPage() {
  const { roadmapId = '', id = '' } = useParams();
  const roadmap = useTenantRoadmap(roadmapId || id);
  return (
    <div className="page">
      <p>
        <Link to="/portal/roadmaps">← Roadmap List</Link>
      </p>
      {roadmap.error ? (
        <p className="alert alert-error" role="alert">
          {messageOf(roadmap.error, ROADMAP_LOAD_FAILED)}
        </p>
      ) : !roadmap.data ? (
        <Loader />
      ) : (
        <RoadmapDetail roadmap={roadmap.data} />
      )}
    </div>
  );
}
