import { useI18n } from '@widgets/core/i18n';

/** The import step of "Import questions": how many of the questions to send are done, and what stopping does. */
export function ImportingStep({
  id,
  fileName,
  assessmentName,
  done,
  todo,
}: {
  id: string;
  fileName: string;
  assessmentName: string | undefined;
  done: number;
  todo: number;
}) {
  const { t } = useI18n();
  return (
    <div className="import-progress">
      <label htmlFor={`${id}-progress`}>
        {assessmentName
          ? t('import.importingInto', { file: fileName, assessment: assessmentName })
          : t('import.importing', { file: fileName })}
      </label>
      <progress id={`${id}-progress`} max={todo} value={done} />
      <p role="status">{t('import.progress', { done, todo })}</p>
    </div>
  );
}
