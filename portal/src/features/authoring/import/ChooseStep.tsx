/**
 * The first step of "Import questions": the question file (and the images it names), where its questions
 * go — the selects, or each question's own subject and topic or category — and what questions without tags
 * or an explanation are given. Shown until the import starts; each change checks the file again.
 */
import type { Subject } from '@shared/schemas/lists';
import { useI18n } from '@widgets/core/i18n';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import type { ChosenFile } from './importFiles';
import type { Defaults } from './plan';

async function readFiles(list: FileList): Promise<ChosenFile[]> {
  return Promise.all(
    [...list].map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })),
  );
}

export function ChooseStep({
  id,
  assessmentName,
  subjects,
  subjectsError,
  defaults,
  onDefaults,
  onFiles,
  message,
}: {
  /** The dialog's id, the fields' ids' stem. */
  id: string;
  assessmentName: string | undefined;
  subjects: Subject[];
  subjectsError: unknown;
  defaults: Defaults;
  onDefaults: (defaults: Defaults) => void;
  onFiles: (files: ChosenFile[]) => void;
  /** Why the file chosen could not be checked. */
  message: string | undefined;
}) {
  const { t } = useI18n();
  const topics = subjects.find((s) => s._id === defaults.subject)?.topics ?? [];
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-file`}>{t('import.file')}</label>
        <input
          id={`${id}-file`}
          type="file"
          multiple
          aria-describedby={`${id}-file-hint`}
          onChange={async (e) => {
            const list = e.currentTarget.files;
            if (!list?.length) return;
            onFiles(await readFiles(list));
          }}
        />
        <span id={`${id}-file-hint`} className="hint">
          {assessmentName
            ? t('import.fileHintAssessment', { assessment: assessmentName })
            : t('import.fileHint')}
        </span>
      </div>
      <fieldset className="import-defaults" aria-describedby={`${id}-place-hint`}>
        <legend>{t('import.placeLegend')}</legend>
        <div className="field">
          <label htmlFor={`${id}-subject`}>{t('import.subject')}</label>
          <select
            id={`${id}-subject`}
            value={defaults.subject}
            onChange={(e) => onDefaults({ ...defaults, subject: e.target.value, topic: '' })}
          >
            <option value="">{t('import.fromFile')}</option>
            {subjects.map((s) => (
              <option key={s._id} value={s._id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-topic`}>{t('import.topic')}</label>
          <select
            id={`${id}-topic`}
            value={defaults.topic}
            disabled={!defaults.subject}
            onChange={(e) => onDefaults({ ...defaults, topic: e.target.value })}
          >
            <option value="">{t('import.fromFile')}</option>
            {topics.map((t) => (
              <option key={t._id} value={t._id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <p id={`${id}-place-hint`} className="hint import-wide">
          {t('import.placeHint')}
        </p>
      </fieldset>
      <fieldset className="import-defaults">
        <legend>{t('import.defaultsLegend')}</legend>
        <div className="field">
          <label htmlFor={`${id}-tags`}>{t('import.tags')}</label>
          <input
            id={`${id}-tags`}
            type="text"
            placeholder={t('import.tagsPlaceholder')}
            value={defaults.tags}
            onChange={(e) => onDefaults({ ...defaults, tags: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-explanation`}>{t('import.explanation')}</label>
          <input
            id={`${id}-explanation`}
            type="text"
            value={defaults.explanation}
            onChange={(e) => onDefaults({ ...defaults, explanation: e.target.value })}
          />
        </div>
      </fieldset>
      {subjectsError ? <LoadFailed error={subjectsError} /> : null}
      {message ? (
        <p className="alert alert-error" role="alert">
          {message}
        </p>
      ) : null}
    </>
  );
}
