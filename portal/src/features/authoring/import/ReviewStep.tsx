/**
 * The review step of "Import questions": what will become of each question — created, unchanged, changed,
 * the same as another of the file — or the problems to fix first (each with its line and field), what
 * Waymark cannot hold and why, and the questions no subject and topic were found for, said once.
 */
import type { PlannedQuestion } from '@shared/client/question-import';
import { describeUnplaced } from '@shared/formats/placement';
import { problemCount } from '@shared/formats/prepare';
import { describePlace, shorten } from '@shared/formats/record';
import type { ReactNode } from 'react';
import { duplicateWord, Group, plural, QuestionRows, type Report, shown } from './parts';

/** The report's first line: what the file holds, or why nothing can be imported yet. */
function summaryOf(report: Report, byStatus: Record<PlannedQuestion['known'], number>): string {
  const { errors, unsupported, unplaced } = report;
  if (errors.length || unplaced.length) {
    const counted = [...errors, ...unsupported.map((u) => ({ ...u, field: u.kind, message: u.reason }))];
    const said = [
      ...(unplaced.length
        ? [
            `${describeUnplaced(unplaced, report.total)}. Choose the subject and topic above (they are then every question's), or name them in the file's categories`,
          ]
        : []),
      ...(errors.length ? [problemCount(counted, report.total)] : []),
    ];
    return `${report.fileName} (${report.formatName}): ${said.join('; and ')}. Nothing can be imported until ${errors.length ? 'the problems are fixed' : 'they have a subject and topic'}.`;
  }
  const parts = [
    byStatus.new ? `${byStatus.new} will be created` : '',
    byStatus.unchanged ? `${byStatus.unchanged} unchanged` : '',
    byStatus.changed ? `${byStatus.changed} changed since imported` : '',
    byStatus.duplicate ? `${byStatus.duplicate} the same as another question of the file` : '',
    unsupported.length ? `${unsupported.length} cannot be held` : '',
  ].filter(Boolean);
  return `${report.fileName} (${report.formatName}), ${plural(report.total, 'question')}: ${parts.join(', ') || 'none'}.`;
}

export function ReviewStep({
  report,
  update,
  onUpdate,
  assessmentId,
}: {
  report: Report;
  update: boolean;
  onUpdate: (update: boolean) => void;
  assessmentId: string | undefined;
}) {
  const { planned, errors, unsupported, unplaced } = report;
  const created = planned.filter((p) => p.known === 'new');
  const unchanged = planned.filter((p) => p.known === 'unchanged');
  const changed = planned.filter((p) => p.known === 'changed');
  const duplicates = planned.filter((p) => p.known === 'duplicate');
  const blocked = errors.length > 0 || unplaced.length > 0;
  const summary = summaryOf(report, {
    new: created.length,
    unchanged: unchanged.length,
    changed: changed.length,
    duplicate: duplicates.length,
  });
  return (
    <div className="import-report">
      <p role="status" className={blocked ? 'alert alert-error' : 'alert alert-info'}>
        {summary}
      </p>
      {report.notes.length ? (
        <ul className="import-notes">
          {report.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <Group title="Problems to fix in the file" count={errors.length} open>
        <ul className="import-list">
          {shown(errors).map((e) => (
            <li key={`${describePlace(e)}-${e.field}-${e.message}`}>
              <span className="import-place">{describePlace(e)}</span> · {e.field}:{' '}
              <span className="import-text">{e.message}</span>
            </li>
          ))}
        </ul>
      </Group>
      <Group title="Cannot be held by Waymark (not imported)" count={unsupported.length} open>
        <ul className="import-list">
          {shown(unsupported).map((u) => (
            <li key={`${describePlace(u)}-${u.kind}`}>
              <span className="import-place">{describePlace(u)}</span> · {u.kind}
              {u.title ? (
                <>
                  {' '}
                  · <span className="import-text">“{shorten(u.title, 60)}”</span>
                </>
              ) : null}
              <span className="import-word">{u.reason}</span>
            </li>
          ))}
        </ul>
      </Group>
      {blocked ? null : (
        <>
          <Group title="Will be created" count={created.length} open={created.length <= 20}>
            <QuestionRows rows={created} word={() => 'will be created'} />
          </Group>
          <Group title="Unchanged (already imported)" count={unchanged.length}>
            <QuestionRows
              rows={unchanged}
              word={() => (assessmentId ? 'unchanged; added to the assessment' : 'unchanged')}
            />
          </Group>
          <Group title="Changed since it was imported" count={changed.length} open>
            <QuestionRows
              rows={changed}
              word={() => (update ? 'will be updated' : 'changed in the file; left as it is unless updated')}
            />
          </Group>
          <Group
            title="The same as another question of the file (imported once)"
            count={duplicates.length}
            open
          >
            <QuestionRows rows={duplicates} word={duplicateWord} />
          </Group>
          <UpdateChoice changed={changed.length} update={update} onUpdate={onUpdate} />
        </>
      )}
      {!blocked && unsupported.length ? (
        <p className="muted">“Import the others” leaves out what cannot be held and imports the rest.</p>
      ) : null}
    </div>
  );
}

function UpdateChoice({
  changed,
  update,
  onUpdate,
}: {
  changed: number;
  update: boolean;
  onUpdate: (update: boolean) => void;
}): ReactNode {
  if (!changed) return null;
  return (
    <label className="import-check">
      <input type="checkbox" checked={update} onChange={(e) => onUpdate(e.target.checked)} /> Update the{' '}
      {plural(changed, 'question')} changed since {changed === 1 ? 'it was' : 'they were'} imported
    </label>
  );
}
