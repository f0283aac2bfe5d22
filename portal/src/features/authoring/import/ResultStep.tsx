/**
 * The result step of "Import questions": what became of each question, the failed ones with the server's
 * field and reason; when stopped, how many were not imported yet (importing the file again completes it).
 * The summary is announced and focused.
 */
import type { RefObject } from 'react';
import { duplicateWord, Group, placeKey, plural, QuestionRows, type Report, type Results } from './parts';

const DONE_WORDS: Record<string, string> = {
  created: 'created',
  updated: 'updated',
  unchanged: 'unchanged',
  changed: 'changed in the file, left as it is',
  duplicate: 'the same as another question of the file (imported once)',
  failed: 'failed',
};

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
  const count = (s: string) => [...results.values()].filter((r) => r.status === s).length;
  const failed = report.planned.filter((p) => results.get(placeKey(p))?.status === 'failed');
  const notReached = report.planned.filter((p) => !results.has(placeKey(p)));
  const imported = report.planned.filter((p) => !failed.includes(p) && !notReached.includes(p));
  const parts = ['created', 'updated', 'unchanged', 'changed', 'duplicate', 'failed']
    .map((s) => (count(s) ? `${count(s)} ${DONE_WORDS[s]}` : ''))
    .filter(Boolean);
  return (
    <div className="import-report">
      <p
        ref={summaryRef}
        tabIndex={-1}
        role="status"
        className={failed.length || error ? 'alert alert-warning' : 'alert alert-success'}
      >
        {report.fileName}: {parts.join(', ') || 'nothing imported'}.
        {report.unsupported.length
          ? ` ${report.unsupported.length} could not be held and were left out.`
          : ''}
        {stopped || error
          ? ` ${error ? `Stopped: ${error}` : 'Stopped'}: ${plural(notReached.length, 'question')} not imported yet; importing the file again completes it without creating anything twice.`
          : ''}
      </p>
      <Group title="Failed" count={failed.length} open>
        <QuestionRows
          rows={failed}
          word={(p) => {
            const r = results.get(placeKey(p));
            return `${r?.field ? `${r.field}: ` : ''}${r?.message ?? 'not created'}`;
          }}
        />
      </Group>
      <Group title="Imported" count={imported.length} open={report.planned.length <= 20}>
        <QuestionRows
          rows={imported}
          word={(p) =>
            p.known === 'duplicate'
              ? duplicateWord(p)
              : (DONE_WORDS[results.get(placeKey(p))?.status ?? p.known] ?? '')
          }
        />
      </Group>
    </div>
  );
}
