/**
 * The question editor's fields around its options (mentor §2.8): where the question belongs (subject,
 * topic, language), what it asks (the question, its image or code), and what follows it (explanation, tags).
 * Each shows its error, said in the reader's language.
 */
import { adminSubjectList, deleteCode } from '@shared/contract/authoring';
import { languageList } from '@shared/contract/lists';
import { DROPZONE_HEIGHT, DROPZONE_WIDTH } from '@shared/schemas/authoring';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { useMemo } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { ImagePicker, QuestionImage } from './ImageField';
import type { EditorValues, FieldErrors } from './questionEditorState';

type Err = FieldErrors['err'];

/** Subject, topic (of the subject chosen) and language. */
export function PlacementFields({ uid, err }: { uid: string; err: Err }) {
  const { t } = useI18n();
  const { setValue, control } = useFormContext<EditorValues>();
  const [subject, topic, language] = useWatch({ control, name: ['subject', 'topic', 'language'] });
  const subjects = useCall((signal) => client.call(adminSubjectList, { signal }).then((r) => r.data), []);
  const languages = useCall((signal) => client.call(languageList, { signal }).then((r) => r.data), []);
  const topics = useMemo(
    () => subjects.data?.find((s) => s._id === subject)?.topics ?? [],
    [subjects.data, subject],
  );
  return (
    <div className="form-grid">
      <div className="field">
        <label htmlFor={`${uid}-subject`}>{t('column.subject')}</label>
        <select
          id={`${uid}-subject`}
          value={subject}
          onChange={(e) => {
            setValue('subject', e.target.value);
            setValue('topic', '');
          }}
          aria-invalid={err('subject') ? 'true' : undefined}
        >
          <option value="">{t('editor.choose')}</option>
          {subjects.data?.map((s) => (
            <option key={s._id} value={s._id}>
              {s.name}
            </option>
          ))}
        </select>
        {err('subject') ? <p className="field-error">{err('subject')}</p> : null}
      </div>
      <div className="field">
        <label htmlFor={`${uid}-topic`}>{t('editor.topic')}</label>
        <select
          id={`${uid}-topic`}
          value={topic}
          onChange={(e) => setValue('topic', e.target.value)}
          disabled={!subject}
          aria-invalid={err('topic') ? 'true' : undefined}
        >
          <option value="">{t('editor.choose')}</option>
          {topics.map((one) => (
            <option key={one._id} value={one._id}>
              {one.name}
            </option>
          ))}
        </select>
        {err('topic') ? <p className="field-error">{err('topic')}</p> : null}
      </div>
      <div className="field">
        <label htmlFor={`${uid}-language`}>{t('editor.language')}</label>
        <select
          id={`${uid}-language`}
          value={language}
          onChange={(e) => setValue('language', e.target.value)}
          aria-invalid={err('language') ? 'true' : undefined}
          aria-describedby={`${uid}-language-hint`}
        >
          {languages.data?.map((l) => (
            <option key={l._id} value={l._id}>
              {l.name}
            </option>
          )) ?? <option value={language}>{t('common.loading')}</option>}
        </select>
        <span id={`${uid}-language-hint`} className="hint">
          {t('editor.languageHint')}
        </span>
        {err('language') ? <p className="field-error">{err('language')}</p> : null}
      </div>
    </div>
  );
}

/** The question, and its image or its code (Add image / Add code while it has neither). */
export function StemFields({
  uid,
  err,
  questionId,
  hadCode,
  onPickImage,
  onRemoveImage,
}: {
  uid: string;
  err: Err;
  questionId: string;
  /** Whether the stored question has code (Remove code then deletes it on the server). */
  hadCode: boolean;
  onPickImage: (file: File | undefined) => void;
  onRemoveImage: () => void;
}) {
  const { t } = useI18n();
  const { register, setValue, control } = useFormContext<EditorValues>();
  const [code, imagePath] = useWatch({ control, name: ['code', 'questionImagePath'] });
  return (
    <>
      <div className="field">
        <label htmlFor={`${uid}-question`}>{t('editor.question')}</label>
        <textarea
          id={`${uid}-question`}
          {...register('question')}
          aria-invalid={err('question') ? 'true' : undefined}
        />
        {err('question') ? <p className="field-error">{err('question')}</p> : null}
      </div>
      {!code && !imagePath ? (
        <div className="row">
          <ImagePicker onPick={onPickImage}>{t('editor.addImage')}</ImagePicker>
          <button type="button" className="btn btn-secondary" onClick={() => setValue('code', '\n')}>
            {t('editor.addCode')}
          </button>
          <span className="hint">
            {t('editor.imageHint', { width: DROPZONE_WIDTH, height: DROPZONE_HEIGHT })}
          </span>
        </div>
      ) : null}
      {err('questionImagePath') ? <p className="field-error">{err('questionImagePath')}</p> : null}
      {imagePath ? <QuestionImage path={imagePath} onRemove={onRemoveImage} /> : null}
      {code !== null && code !== undefined ? (
        <div className="field">
          <label htmlFor={`${uid}-code`}>{t('editor.code')}</label>
          <textarea
            id={`${uid}-code`}
            className="code-area"
            dir="ltr"
            {...register('code')}
            spellCheck={false}
          />
          {err('code') ? <p className="field-error">{err('code')}</p> : null}
          <button
            type="button"
            className="btn btn-link"
            onClick={async () => {
              if (hadCode) await client.call(deleteCode, { params: { questionId } }).catch(() => undefined);
              setValue('code', null);
            }}
          >
            {t('editor.removeCode')}
          </button>
        </div>
      ) : null}
    </>
  );
}

/** The explanation and the tags. */
export function ClosingFields({ uid, err }: { uid: string; err: Err }) {
  const { t } = useI18n();
  const { register } = useFormContext<EditorValues>();
  return (
    <>
      <div className="field">
        <label htmlFor={`${uid}-explanation`}>{t('editor.explanation')}</label>
        <textarea
          id={`${uid}-explanation`}
          {...register('explanation')}
          aria-invalid={err('explanation.0.value') ? 'true' : undefined}
        />
        {err('explanation.0.value') ? <p className="field-error">{err('explanation.0.value')}</p> : null}
      </div>
      <div className="field">
        <label htmlFor={`${uid}-tags`}>{t('editor.tags')}</label>
        <input
          id={`${uid}-tags`}
          type="text"
          {...register('tags')}
          aria-invalid={err('tags') ? 'true' : undefined}
        />
        <span className="hint">{t('editor.tagsHint')}</span>
        {err('tags') ? <p className="field-error">{err('tags')}</p> : null}
      </div>
    </>
  );
}
