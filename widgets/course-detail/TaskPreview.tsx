import type { Task } from '@shared/schemas/catalogue';
import { useState } from 'react';
import { Slot } from '../embed/host';

export const TASKS_SHOWN = 5;
/** How many of the hidden tasks show, faded, under the first five. */
const FADED_SHOWN = 2;

type TaskLike = Pick<Task, '_id' | 'actualTitle' | 'userTitle' | 'type'>;

/** A roadmap's tasks on the course page: the first 5, later ones faded, 'Show More (N more)', 'No Task Found'. */
export function TaskPreview({ tasks }: { tasks: readonly TaskLike[] }) {
  const [expanded, setExpanded] = useState(false);
  if (tasks.length === 0)
    return (
      <div className="empty" part="empty">
        <Slot name="no-tasks">No Task Found</Slot>
      </div>
    );
  const hidden = tasks.length - TASKS_SHOWN;
  const visible = expanded ? tasks : tasks.slice(0, TASKS_SHOWN);
  const faded = expanded ? [] : tasks.slice(TASKS_SHOWN, TASKS_SHOWN + FADED_SHOWN);
  return (
    <div className="wm-tasks">
      <ol className="wm-task-list" aria-label="Tasks">
        {visible.map((t) => (
          <TaskRow key={t._id} task={t} />
        ))}
      </ol>
      {faded.length ? (
        <ol className="wm-task-list wm-faded" aria-hidden="true" start={TASKS_SHOWN + 1}>
          {faded.map((t) => (
            <TaskRow key={t._id} task={t} />
          ))}
        </ol>
      ) : null}
      {hidden > 0 ? (
        <button
          type="button"
          className="btn btn-secondary wm-show-more"
          aria-expanded={expanded}
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? 'Show Less' : `Show More (${hidden} more)`}
        </button>
      ) : null}
    </div>
  );
}

function TaskRow({ task }: { task: TaskLike }) {
  return (
    <li className="wm-task">
      <span className={`badge ${task.type === 'WATCH' ? 'badge-primary' : 'badge-warning'}`}>
        {task.type}
      </span>
      <span>{task.userTitle || task.actualTitle}</span>
    </li>
  );
}
