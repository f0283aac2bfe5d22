import { useI18n } from '@widgets/core/i18n';
import { lazy, Suspense, useState } from 'react';

/** Loaded when first opened: it brings the question-file readers (shared/formats). */
const ImportQuestionsDialog = lazy(() =>
  import('./import/ImportQuestionsDialog').then((m) => ({ default: m.ImportQuestionsDialog })),
);

/** The "Import questions" button and its dialog, loaded on the first click and kept for focus to return. */
export function ImportQuestions({
  assessmentId,
  assessmentName,
  onImported,
}: {
  assessmentId?: string;
  assessmentName?: string;
  onImported: () => void;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        {t('builder.import')}
      </button>
      {loaded ? (
        <Suspense fallback={null}>
          <ImportQuestionsDialog
            open={open}
            {...(assessmentId ? { assessmentId } : {})}
            {...(assessmentName ? { assessmentName } : {})}
            onClose={(imported) => {
              setOpen(false);
              if (imported) onImported();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
