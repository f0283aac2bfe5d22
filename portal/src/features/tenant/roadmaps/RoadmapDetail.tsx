/**
 * A catalogue roadmap as the mentor sees it (mentor §2.6): name, subject, language, description, Created
 * At, then its sections with their resources (tab Roadmap) and its tasks (tab Task, only when there are
 * tasks). `actions` sits beside the name (the learner page's 'Assigned' badge or Assign button).
 */
import { formatDateTime } from '@shared/rules/format-date';
import type { Roadmap } from '@shared/schemas/catalogue';
import { useI18n } from '@widgets/core/i18n';
import type { ReactNode } from 'react';
import { SectionList } from '../../../components/ResourceList';
import { RoadmapTabs } from '../../../components/RoadmapTabs';

export function RoadmapDetail({
  roadmap: r,
  actions,
  intro,
}: {
  roadmap: Roadmap;
  actions?: ReactNode;
  intro?: ReactNode;
}) {
  const { t, locale } = useI18n();
  return (
    <div>
      <div className="page-head">
        <h1>{r.name}</h1>
        {actions}
      </div>
      <p className="muted">
        {r.subject.name}
        {r.topic ? ` · ${r.topic.name}` : ''} · {r.language.name}
      </p>
      {intro}
      <p>{r.description}</p>
      <p className="muted">
        {t('roadmap.createdAt', { date: formatDateTime(r.createdAt, undefined, locale) })}
      </p>
      <RoadmapTabs tasks={r.tasks}>
        <SectionList sections={r.sections} />
      </RoadmapTabs>
    </div>
  );
}
