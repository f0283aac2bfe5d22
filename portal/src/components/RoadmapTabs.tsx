import type { Task } from '@shared/schemas/catalogue';
import { useI18n } from '@widgets/core/i18n';
import { Tabs } from '@widgets/ui/Tabs';
import { type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { TaskList } from './TaskList';

type TaskT = z.infer<typeof Task>;

/**
 * An assigned roadmap's content in tabs, as the learner and a mentor see it (learner §2, mentor §2.6):
 * Roadmap (`children`: its sections and resources) and Task, only when the roadmap has tasks.
 */
export function RoadmapTabs({
  children,
  tasks,
  readOnly,
  onSubmitTask,
}: {
  children: ReactNode;
  tasks: TaskT[];
  readOnly?: boolean;
  onSubmitTask?: (task: TaskT) => void;
}) {
  const { t } = useI18n();
  const [tab, setTab] = useState('roadmap');
  return (
    <Tabs
      label={t('roadmap.content')}
      selected={tab}
      onSelect={setTab}
      items={[
        { id: 'roadmap', label: t('course.roadmapTab'), content: children },
        ...(tasks.length
          ? [
              {
                id: 'task',
                label: t('course.taskTab'),
                content: <TaskList tasks={tasks} readOnly={readOnly} onSubmit={onSubmitTask} />,
              },
            ]
          : []),
      ]}
    />
  );
}
