/**
 * The review step of "Import questions": what will become of each question — created, unchanged, changed,
 * the same as another of the file — or the problems to fix first (each with its line and field), what
 * Waymark cannot hold and why, and the questions no subject and topic were found for, said once.
 */
import { shorten } from '@shared/formats/record';
import { useI18n } from '@widgets/core/i18n';
import type { ReactNode } from 'react';
import { Group, QuestionRows, type Report, shown } from './parts';
import { duplicateText, fieldText, placeText, problemText, summaryText } from './words';

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
  const i18n = useI18n();
  const { t } = i18n;
  const { planned, errors, unsupported, unplaced } = report;
  const created = planned.filter((p) => p.known === 'new');
  const unchanged = planned.filter((p) => p.known === 'unchanged');
  const changed = planned.filter((p) => p.known === 'changed');
  const duplicates = planned.filter((p) => p.known === 'duplicate');
  const blocked = errors.length > 0 || unplaced.length > 0;
  const summary = summaryText(i18n, report, {
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
            <li key={n.message}>{problemText(i18n, n)}</li>
          ))}
        </ul>
      ) : null}
      <Group title={t('import.problems')} count={errors.length} open>
        <ul className="import-list">
          {shown(errors).map((e) => (
            <li key={`${placeText(i18n, e)}-${e.field}-${e.message}`}>
              <span className="import-place">{placeText(i18n, e)}</span> · {fieldText(i18n, e)}:{' '}
              <span className="import-text">{problemText(i18n, e)}</span>
            </li>
          ))}
        </ul>
      </Group>
      <Group title={t('import.cannotHold')} count={unsupported.length} open>
        <ul className="import-list">
          {shown(unsupported).map((u) => (
            <li key={`${placeText(i18n, u)}-${u.kind}`}>
              <span className="import-place">{placeText(i18n, u)}</span> ·{' '}
              {u.kindCode ? t(u.kindCode) : u.kind}
              {u.title ? (
                <>
                  {' '}
                  · <span className="import-text">{t('import.quoted', { text: shorten(u.title, 60) })}</span>
                </>
              ) : null}
              <span className="import-word">{problemText(i18n, u)}</span>
            </li>
          ))}
        </ul>
      </Group>
      {blocked ? null : (
        <>
          <Group title={t('import.willCreate')} count={created.length} open={created.length <= 20}>
            <QuestionRows rows={created} word={() => t('import.word.willCreate')} />
          </Group>
          <Group title={t('import.unchanged')} count={unchanged.length}>
            <QuestionRows
              rows={unchanged}
              word={() => (assessmentId ? t('import.word.unchangedAdded') : t('import.word.unchanged'))}
            />
          </Group>
          <Group title={t('import.changed')} count={changed.length} open>
            <QuestionRows
              rows={changed}
              word={() => (update ? t('import.word.willUpdate') : t('import.word.changed'))}
            />
          </Group>
          <Group title={t('import.duplicates')} count={duplicates.length} open>
            <QuestionRows rows={duplicates} word={(p) => duplicateText(i18n, p)} />
          </Group>
          <UpdateChoice changed={changed.length} update={update} onUpdate={onUpdate} />
        </>
      )}
      {!blocked && unsupported.length ? <p className="muted">{t('import.othersHint')}</p> : null}
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
  const { t } = useI18n();
  if (!changed) return null;
  return (
    <label className="import-check">
      <input type="checkbox" checked={update} onChange={(e) => onUpdate(e.target.checked)} />{' '}
      {t('import.updateChanged', { count: changed })}
    </label>
  );
}
