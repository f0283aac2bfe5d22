import type { Task } from '@shared/schemas/catalogue';
import { useI18n } from '@widgets/core/i18n';
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
  const { t: tr } = useI18n();
  if (tasks.length === 0) return <p className="empty">{tr('course.noTasks')}</p>;
  return (
    <ul className="card resource-list task-list">
      {tasks.map((t) => (
        <li key={t._id} className="resource-row">
          {t.isSubmited ? (
            <span className="tick tick-ok" role="img" aria-label={tr('task.submitted')}>
              ✓
            </span>
          ) : (
            <span className="tick tick-none" aria-hidden="true" />
          )}
          <TypeBadge type={t.type} />
          <a className="resource-title" href={t.url} target="_blank" rel="noopener noreferrer">
            {t.userTitle || t.actualTitle}
            <span className="visually-hidden"> {tr('common.opensInNewTab')}</span>
          </a>
          {onSubmit && !readOnly && !t.isSubmited ? (
            <button type="button" className="btn btn-secondary" onClick={() => onSubmit(t)}>
              {tr('task.markSubmitted')}
            </button>
          ) : null}
          {t.isSubmited ? <span className="badge badge-success">{tr('task.submitted')}</span> : null}
        </li>
      ))}
    </ul>
  );
}
