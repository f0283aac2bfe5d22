/**
 * The result step of "Import questions": what became of each question, the failed ones with the server's
 * field and reason; when stopped, how many were not imported yet (importing the file again completes it).
 * The summary is announced and focused.
 */
import type { MessageKey } from '@shared/i18n/keys';
import { useI18n } from '@widgets/core/i18n';
import type { RefObject } from 'react';
import { Group, placeKey, QuestionRows, type Report, type Results } from './parts';
import { duplicateText } from './words';

type Done = 'created' | 'updated' | 'unchanged' | 'changed' | 'duplicate' | 'failed';
const DONE: readonly Done[] = ['created', 'updated', 'unchanged', 'changed', 'duplicate', 'failed'];

/** What became of a question, said of one… */
const DONE_WORDS: Record<Done, MessageKey> = {
  created: 'import.done.created',
  updated: 'import.done.updated',
  unchanged: 'import.done.unchanged',
  changed: 'import.done.changed',
  duplicate: 'import.done.duplicate',
  failed: 'import.done.failed',
};
/** …and counted. */
const DONE_COUNTS: Record<Done, MessageKey> = {
  created: 'import.doneCount.created',
  updated: 'import.doneCount.updated',
  unchanged: 'import.doneCount.unchanged',
  changed: 'import.doneCount.changed',
  duplicate: 'import.doneCount.duplicate',
  failed: 'import.doneCount.failed',
};
const isDone = (s: string | undefined): s is Done => DONE.includes(s as Done);

export function ResultStep({
  report,
  results,
  stopped,
  error,
  summaryRef,
}: {
  report: Report;
  results: Results;
  stopped: boolean;
  error?: string | undefined;
  summaryRef: RefObject<HTMLParagraphElement | null>;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const count = (s: string) => [...results.values()].filter((r) => r.status === s).length;
  const failed = report.planned.filter((p) => results.get(placeKey(p))?.status === 'failed');
  const notReached = report.planned.filter((p) => !results.has(placeKey(p)));
  const imported = report.planned.filter((p) => !failed.includes(p) && !notReached.includes(p));
  const parts = DONE.filter((s) => count(s)).map((s) => t(DONE_COUNTS[s], { count: count(s) }));
  const sentences = [
    t('import.result', {
      file: report.fileName,
      parts: parts.length ? i18n.list(parts, { type: 'unit', style: 'short' }) : t('import.nothingImported'),
    }),
    ...(report.unsupported.length ? [t('import.leftOut', { count: report.unsupported.length })] : []),
    ...(stopped || error
      ? [
          error
            ? t('import.stoppedError', { error, count: notReached.length })
            : t('import.stopped', { count: notReached.length }),
        ]
      : []),
  ];
  return (
    <div className="import-report">
      <p
        ref={summaryRef}
        tabIndex={-1}
        role="status"
        className={failed.length || error ? 'alert alert-warning' : 'alert alert-success'}
      >
        {sentences.join(' ')}
      </p>
      <Group title={t('import.failed')} count={failed.length} open>
        <QuestionRows
          rows={failed}
          word={(p) => {
            const r = results.get(placeKey(p));
            const why = r?.message ?? t('import.notCreated');
            return r?.field ? t('import.fieldSays', { field: r.field, message: why }) : why;
          }}
        />
      </Group>
      <Group title={t('import.imported')} count={imported.length} open={report.planned.length <= 20}>
        <QuestionRows
          rows={imported}
          word={(p) => {
            if (p.known === 'duplicate') return duplicateText(i18n, p);
            const status = results.get(placeKey(p))?.status ?? p.known;
            return isDone(status) ? t(DONE_WORDS[status]) : '';
          }}
        />
      </Group>
    </div>
  );
}
