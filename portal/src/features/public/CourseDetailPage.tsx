/** /course-detail/{roadmapId}: a roadmap's public course page, visible without signing in (mentor §2.10). */
import '@widgets/catalogue/catalogue.css';
import '@widgets/course-detail/course-detail.css';
import '../../layout/public.css';
import { useI18n } from '@widgets/core/i18n';
import { CourseDetail } from '@widgets/course-detail/CourseDetail';
import { useState } from 'react';
import { useParams } from 'react-router';
import { PortalWidgets } from '../../components/PortalWidgets';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';

export default function CourseDetailPage() {
  const { roadmapId = '' } = useParams();
  const { t } = useI18n();
  const [name, setName] = useState<string | null>(null);
  useDocumentTitle(name ?? t('course.tabs'));
  return (
    <PublicPage>
      <div className="page-wide">
        <PortalWidgets
          onEvent={(type, detail) => {
            if (type === 'wm-load' && 'name' in detail && detail.name) setName(detail.name);
            return true;
          }}
        >
          <CourseDetail key={roadmapId} roadmapId={roadmapId} headingLevel="1" />
        </PortalWidgets>
      </div>
    </PublicPage>
  );
}
