import { Loader } from '@widgets/ui/Loader';
import { Link, useParams } from 'react-router';
import '../tenant.css';
import { useI18n } from '@widgets/core/i18n';
import { Arrow } from '@widgets/ui/Arrow';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { RoadmapDetail } from './RoadmapDetail';
import { ROADMAP_LOAD_FAILED, useTenantRoadmap } from './useTenantRoadmap';

export default function RoadmapInfoPage() {
  const { roadmapId = '', id = '' } = useParams();
  const roadmap = useTenantRoadmap(roadmapId || id);
  const { t } = useI18n();
  return (
    <div className="page">
      <p>
        <Link to="/portal/roadmaps">
          <Arrow to="back" /> {t('tenant.roadmapList')}
        </Link>
      </p>
      {roadmap.error ? (
        <LoadFailed error={roadmap.error} fallback={ROADMAP_LOAD_FAILED} />
      ) : !roadmap.data ? (
        <Loader />
      ) : (
        <RoadmapDetail roadmap={roadmap.data} />
      )}
    </div>
  );
}
