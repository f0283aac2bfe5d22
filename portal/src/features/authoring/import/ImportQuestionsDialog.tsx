/**
 * "Import questions", for authors who never open a terminal: choose a question bank (Moodle GIFT, Aiken,
 * Moodle XML, IMS QTI, or Waymark's JSON or CSV), see what will become of each question — created,
 * unchanged, changed, the same as another of the file, or not importable and why, each with its line —
 * then import. The file is read and checked here by the same readers and rules as `waymark questions
 * import` (shared/formats): the subject and topic come from the selects when chosen, else from the file's
 * names or categories (shared/formats/placement.ts), and questions placed by neither are said once. The
 * server says which questions it already has, and the same runner as the CLI's imports them, each created
 * whole by the batch import (shared/client/question-import.ts), so stopping half-way leaves nothing
 * half-made and importing the file again creates nothing twice.
 *
 * The steps, each a component of this folder: ChooseStep (the file and its fields), CheckStep (while it is
 * checked, plan.ts), ReviewStep (the problems, or what will become of each question), ImportingStep, and
 * ResultStep; their state is useImportFlow's reducer.
 */
import { sendsQuestion, writesQuestion } from '@shared/client/question-import';
import type { Translator } from '@shared/i18n/translator';
import { useI18n } from '@widgets/core/i18n';
import { Dialog } from '@widgets/ui/Dialog';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CheckStep } from './CheckStep';
import { ChooseStep } from './ChooseStep';
import { ImportingStep } from './ImportingStep';
import type { Report } from './parts';
import { ResultStep } from './ResultStep';
import { ReviewStep } from './ReviewStep';
import { reportOf, useImportFlow } from './useImportFlow';
import './import-questions.css';

export interface ImportQuestionsDialogProps {
  open: boolean;
  /** Questions also go into this assessment (the builder); without it, into the bank only. */
  assessmentId?: string;
  assessmentName?: string;
  /** Closed; `imported` says whether anything was written (the page then reads its list again). */
  onClose: (imported: boolean) => void;
}

export function ImportQuestionsDialog({
  open,
  assessmentId,
  assessmentName,
  onClose,
}: ImportQuestionsDialogProps) {
  const id = useId();
  const i18n = useI18n();
  const { t } = i18n;
  const flow = useImportFlow(open, assessmentId);
  const { stage, defaults, update, wrote } = flow.state;
  const summaryRef = useRef<HTMLParagraphElement>(null);

  // the outcome is announced and focused
  useEffect(() => {
    if (stage.kind === 'done') summaryRef.current?.focus();
  }, [stage.kind]);

  const importing = stage.kind === 'importing';
  const close = () => {
    if (importing) return;
    onClose(wrote);
  };

  const report = reportOf(stage);
  const toWrite = report ? report.planned.filter((p) => writesQuestion(p, update)).length : 0;
  const toAdd = report
    ? report.planned.filter((p) => sendsQuestion(p, update, assessmentId)).length - toWrite
    : 0;
  const blocked = !report || report.errors.length > 0 || report.unplaced.length > 0;

  let actions: ReactNode;
  if (importing)
    actions = (
      <button type="button" className="btn btn-secondary" onClick={flow.stop}>
        {t('import.stop')}
      </button>
    );
  else if (stage.kind === 'done')
    actions = (
      <button type="button" className="btn" onClick={close}>
        {t('import.close')}
      </button>
    );
  else
    actions = (
      <>
        <button type="button" className="btn btn-secondary" onClick={close}>
          {t('import.cancel')}
        </button>
        <button
          type="button"
          className="btn"
          disabled={stage.kind !== 'report' || blocked || toWrite + toAdd === 0}
          onClick={() => report && flow.run(report)}
        >
          {importButton(i18n, report, toWrite, toAdd)}
        </button>
      </>
    );

  return (
    <Dialog open={open} title={t('import.title')} onClose={close} modalOnly={importing} actions={actions}>
      <div className="import-questions">
        {stage.kind === 'done' || importing ? null : (
          <ChooseStep
            id={id}
            assessmentName={assessmentName}
            subjects={flow.subjects.data ?? []}
            subjectsError={flow.subjects.error}
            defaults={defaults}
            onDefaults={flow.setDefaults}
            onFiles={flow.setFiles}
            message={stage.kind === 'choose' ? stage.message : undefined}
          />
        )}
        {stage.kind === 'checking' ? <CheckStep /> : null}
        {stage.kind === 'report' ? (
          <ReviewStep
            report={stage.report}
            update={update}
            onUpdate={flow.setUpdate}
            assessmentId={assessmentId}
          />
        ) : null}
        {importing ? (
          <ImportingStep
            id={id}
            fileName={stage.report.fileName}
            assessmentName={assessmentName}
            done={stage.done}
            todo={stage.todo}
          />
        ) : null}
        {stage.kind === 'done' ? (
          <ResultStep
            report={stage.report}
            results={stage.results}
            stopped={stage.stopped}
            error={stage.error}
            summaryRef={summaryRef}
          />
        ) : null}
      </div>
    </Dialog>
  );
}

function importButton({ t }: Pick<Translator, 't'>, report: Report | null, toWrite: number, toAdd: number) {
  if (!report) return t('import.import');
  if (report.unsupported.length && toWrite + toAdd > 0) return t('import.importOthers');
  if (toWrite === 0 && toAdd > 0) return t('import.addToAssessment', { count: toAdd });
  return t('import.importCount', { count: toWrite });
}
