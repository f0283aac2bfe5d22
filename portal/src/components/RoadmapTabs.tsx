import type { Task } from '@shared/schemas/catalogue';
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
  const [tab, setTab] = useState('roadmap');
  return (
    <Tabs
      label="Roadmap content"
      selected={tab}
      onSelect={setTab}
      items={[
        { id: 'roadmap', label: 'Roadmap', content: children },
        ...(tasks.length
          ? [
              {
                id: 'task',
                label: 'Task',
                content: <TaskList tasks={tasks} readOnly={readOnly} onSubmit={onSubmitTask} />,
              },
            ]
          : []),
      ]}
    />
  );
}
