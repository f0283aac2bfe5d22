import type { Task } from '@shared/schemas/catalogue';
import type { z } from 'zod';
import { TypeBadge } from './ResourceList';

type TaskT = z.infer<typeof Task>;

/** Tasks with their type and link; a tick for submitted ones, and an optional submit action. */
export function TaskList({
  tasks,
  onSubmit,
  readOnly,
}: {
  tasks: TaskT[];
  onSubmit?: (task: TaskT) => void;
  readOnly?: boolean;
}) {
  if (tasks.length === 0) return <p className="empty">No Task Found</p>;
  return (
    <ul className="card resource-list task-list">
      {tasks.map((t) => (
        <li key={t._id} className="resource-row">
          {t.isSubmited ? (
            <span className="tick tick-ok" role="img" aria-label="Submitted">
              ✓
            </span>
          ) : (
            <span className="tick tick-none" aria-hidden="true" />
          )}
          <TypeBadge type={t.type} />
          <a className="resource-title" href={t.url} target="_blank" rel="noopener noreferrer">
            {t.userTitle || t.actualTitle}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          {onSubmit && !readOnly && !t.isSubmited ? (
            <button type="button" className="btn btn-secondary" onClick={() => onSubmit(t)}>
              Mark as submitted
            </button>
          ) : null}
          {t.isSubmited ? <span className="badge badge-success">Submitted</span> : null}
        </li>
      ))}
    </ul>
  );
}
