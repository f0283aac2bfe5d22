import { assignedRoadmap, submitTask } from '@shared/contract/catalogue';
import { RESOURCE_TICK_THRESHOLD } from '@shared/rules/progress';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { Tabs } from '@widgets/ui/Tabs';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ResourceRow, SectionList } from './ResourceList';
import { TaskList } from './TaskList';

/**
 * /my-roadmap/{id}: the learner's copy of a roadmap — sections, resources with their tick or mark, tasks.
 * Once COMPLETED, resource links become plain text and actions disappear.
 */
export default function MyRoadmapPage() {
  const { id = '' } = useParams();
  const [tab, setTab] = useState('roadmap');
  const roadmap = useCall(
    (signal) => client.call(assignedRoadmap, { params: { id }, signal }).then((r) => r.data),
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
  const completed = r.status === 'COMPLETED';
  const resources = r.sections.flatMap((s) =>
    s.resources.map((res) => ({ res, score: s.resourceScores[res._id] })),
  );
  const passed = resources.filter((x) => (x.score ?? 0) >= RESOURCE_TICK_THRESHOLD).length;
  const submittedTasks = r.tasks.filter((t) => t.isSubmited).length;

  const markSubmitted = async (taskId: string) => {
    try {
      await client.call(submitTask, { params: { id: r._id, taskId }, body: {} });
      roadmap.reload();
    } catch (err) {
      toast(messageOf(err, 'The task could not be marked as submitted.'), { kind: 'error' });
    }
  };

  return (
    <div className="page">
      <div className="row">
        <h1>{r.name}</h1>
        <span className={`badge ${completed ? 'badge-success' : 'badge-primary'}`}>{r.status}</span>
      </div>
      <p className="muted">
        {r.subject.name} · {r.language.name}
      </p>
      <p>{r.description}</p>
      <ul className="counters" aria-label="Progress">
        <li className="counter">
          <strong>{r.sections.length}</strong> sections
        </li>
        <li className="counter">
          <strong>
            {passed} / {resources.length}
          </strong>{' '}
          resources passed
        </li>
        <li className="counter">
          <strong>
            {submittedTasks} / {r.tasks.length}
          </strong>{' '}
          tasks submitted
        </li>
      </ul>
      <Tabs
        label="Roadmap content"
        selected={tab}
        onSelect={setTab}
        items={[
          {
            id: 'roadmap',
            label: 'Roadmap',
            content: (
              <SectionList
                sections={r.sections}
                renderResource={(res, section) => {
                  const score = r.sections.find((s) => s._id === section._id)?.resourceScores[res._id];
                  const ok = (score ?? 0) >= RESOURCE_TICK_THRESHOLD;
                  return (
                    <ResourceRow
                      key={res._id}
                      resource={res}
                      plain={completed}
                      extra={
                        <span
                          className={`tick ${ok ? 'tick-ok' : 'tick-bad'}`}
                          role="img"
                          aria-label={ok ? `Passed with ${Math.ceil(score ?? 0)} %` : 'Not passed yet'}
                        >
                          {ok ? '✓' : '✗'}
                        </span>
                      }
                    />
                  );
                }}
              />
            ),
          },
          ...(r.tasks.length
            ? [
                {
                  id: 'task',
                  label: 'Task',
                  content: (
                    <TaskList
                      tasks={r.tasks}
                      readOnly={completed}
                      onSubmit={(t) => void markSubmitted(t._id)}
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}
