/**
 * A catalogue roadmap as the mentor sees it (mentor §2.6): name, subject, language, description, Created
 * At, then its sections with their resources (tab Roadmap) and its tasks (tab Task, only when there are
 * tasks). `actions` sits beside the name (the learner page's 'Assigned' badge or Assign button).
 */
import { formatDateTime } from '@shared/rules/format-date';
import type { Roadmap } from '@shared/schemas/catalogue';
import { Tabs } from '@widgets/ui/Tabs';
import { type ReactNode, useState } from 'react';
import { SectionList } from '../../../components/ResourceList';
import { TaskList } from '../../../components/TaskList';

export function RoadmapDetail({
  roadmap: r,
  actions,
  intro,
}: {
  roadmap: Roadmap;
  actions?: ReactNode;
  intro?: ReactNode;
}) {
  const [tab, setTab] = useState('roadmap');
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
      <p className="muted">Created At: {formatDateTime(r.createdAt)}</p>
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
