/**
 * The question editor (mentor §2.8): type rail, subject and topic, image or code, options, explanation,
 * tags. Its parts: the values and errors (questionEditorState.ts), the type rail (QuestionTypeRail.tsx),
 * the options as a react-hook-form field array (OptionsEditor.tsx), the image fields (ImageField.tsx);
 * this file loads the question, switches its type, and saves it.
 */
import {
  adminSubjectList,
  changeQuestionType,
  deleteCode,
  deleteImage,
  getQuestion,
  saveQuestion,
  updateImagePath,
} from '@shared/contract/authoring';
import { languageList } from '@shared/contract/lists';
import { typeSwitchKeepsOptions } from '@shared/rules/question-types';
import type { Question, QuestionType } from '@shared/schemas/assessment';
import { DROPZONE_HEIGHT, DROPZONE_WIDTH } from '@shared/schemas/authoring';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useMemo, useState } from 'react';
import { FormProvider, useForm, useFormContext } from 'react-hook-form';
import { checkImage, ImagePicker, QuestionImage, uploadImage } from './ImageField';
import { OptionsEditor, RemoveDialog } from './OptionsEditor';
import { QuestionTypeRail } from './QuestionTypeRail';
import {
  type EditorValues,
  fromQuestion,
  KEPT_ON_TYPE_SWITCH,
  problemsOf,
  toInput,
  useFieldErrors,
} from './questionEditorState';
import { QuestionFigures } from './stats/QuestionFigures';

export function QuestionEditor({
  questionId,
  onSaved,
  onBack,
}: {
  questionId: string;
  onSaved: (q: Question) => void;
  onBack?: () => void;
}) {
  const loaded = useCall(
    (signal) => client.call(getQuestion, { params: { id: questionId }, signal }).then((r) => r.data),
    [questionId],
  );
  const [ready, setReady] = useState(false);
  const form = useForm<EditorValues>();
  useEffect(() => {
    if (loaded.data) {
      form.reset(fromQuestion(loaded.data));
      setReady(true);
    }
  }, [loaded.data, form]);

  if (loaded.error) {
    return (
      <p className="alert alert-error" role="alert">
        {messageOf(loaded.error, 'The question could not be loaded.')}
      </p>
    );
  }
  if (!ready) return <Loader text="Fetching data..." />;
  return (
    <FormProvider {...form}>
      <EditorForm
        questionId={questionId}
        hadCode={Boolean(loaded.data?.code)}
        onSaved={onSaved}
        onBack={onBack}
      />
    </FormProvider>
  );
}

function EditorForm({
  questionId,
  hadCode,
  onSaved,
  onBack,
}: {
  questionId: string;
  /** Whether the stored question has code (Remove code then deletes it on the server). */
  hadCode: boolean;
  onSaved: (q: Question) => void;
  onBack?: () => void;
}) {
  const uid = useId();
  const { register, setValue, getValues, watch, reset } = useFormContext<EditorValues>();
  const values = watch();
  const errors = useFieldErrors();
  const { err, setErrors, clearFor } = errors;
  const subjects = useCall((signal) => client.call(adminSubjectList, { signal }).then((r) => r.data), []);
  const languages = useCall((signal) => client.call(languageList, { signal }).then((r) => r.data), []);
  const [saving, setSaving] = useState(false);
  const [pendingType, setPendingType] = useState<QuestionType | null>(null);
  const [confirmImageRemoval, setConfirmImageRemoval] = useState(false);

  // a field's error goes away once the field changes
  useEffect(() => {
    const watching = watch((_, { name }) => {
      if (name) clearFor(name);
    });
    return () => watching.unsubscribe();
  }, [watch, clearFor]);

  const topics = useMemo(
    () => subjects.data?.find((s) => s._id === values.subject)?.topics ?? [],
    [subjects.data, values.subject],
  );

  const switchType = async (to: QuestionType, confirmed = false) => {
    const from = getValues('questionType');
    if (to === from) return;
    if (!typeSwitchKeepsOptions(from, to) && !confirmed) {
      setPendingType(to);
      return;
    }
    setPendingType(null);
    try {
      const res = await client.call(changeQuestionType, {
        params: { id: questionId },
        body: { questionType: to },
      });
      const now = getValues();
      const next = fromQuestion(res.data);
      // keep what was typed that the switch does not touch
      for (const key of KEPT_ON_TYPE_SWITCH) Object.assign(next, { [key]: now[key] });
      if (typeSwitchKeepsOptions(from, to))
        next.options = now.options.map((o) => ({ ...o, isCorrect: false }));
      reset(next);
    } catch (e) {
      toast(messageOf(e, 'The type could not be changed.'), { kind: 'error' });
    }
  };

  const save = async () => {
    const current = getValues();
    const problems = problemsOf(current);
    if (problems) {
      setErrors(problems);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const res = await client.call(saveQuestion, { params: { id: questionId }, body: toInput(current) });
      toast('The question is saved.', { kind: 'success' });
      onSaved(res.data);
    } catch (e) {
      const body = (e as { body?: { fields?: Record<string, string> } }).body;
      if (body?.fields) setErrors(body.fields);
      else toast(messageOf(e, 'The question could not be saved.'), { kind: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const pickQuestionImage = async (file: File | undefined) => {
    if (!file) return;
    const problem = await checkImage(file, true);
    if (problem) {
      errors.setError('questionImagePath', problem);
      return;
    }
    try {
      const path = await uploadImage(questionId, file, 'question');
      await client.call(updateImagePath, {
        params: { id: questionId },
        body: { questionType: getValues('questionType'), questionImagePath: path },
      });
      setValue('questionImagePath', path);
    } catch (e) {
      errors.setError('questionImagePath', messageOf(e, 'The image could not be uploaded.'));
    }
  };

  const removeImage = async () => {
    setConfirmImageRemoval(false);
    try {
      await client.call(deleteImage, { params: { id: questionId }, body: { type: 'question' } });
      setValue('questionImagePath', null);
    } catch (e) {
      toast(messageOf(e, 'That could not be removed.'), { kind: 'error' });
    }
  };

  return (
    <div className="editor">
      <QuestionTypeRail name={`${uid}-type`} value={values.questionType} onPick={(t) => void switchType(t)} />
      <form
        className="card editor-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="form-grid">
          <div className="field">
            <label htmlFor={`${uid}-subject`}>Subject</label>
            <select
              id={`${uid}-subject`}
              value={values.subject}
              onChange={(e) => {
                setValue('subject', e.target.value);
                setValue('topic', '');
              }}
              aria-invalid={err('subject') ? 'true' : undefined}
            >
              <option value="">Choose…</option>
              {subjects.data?.map((s) => (
                <option key={s._id} value={s._id}>
                  {s.name}
                </option>
              ))}
            </select>
            {err('subject') ? <p className="field-error">{err('subject')}</p> : null}
          </div>
          <div className="field">
            <label htmlFor={`${uid}-topic`}>Topic</label>
            <select
              id={`${uid}-topic`}
              value={values.topic}
              onChange={(e) => setValue('topic', e.target.value)}
              disabled={!values.subject}
              aria-invalid={err('topic') ? 'true' : undefined}
            >
              <option value="">Choose…</option>
              {topics.map((t) => (
                <option key={t._id} value={t._id}>
                  {t.name}
                </option>
              ))}
            </select>
            {err('topic') ? <p className="field-error">{err('topic')}</p> : null}
          </div>
          <div className="field">
            <label htmlFor={`${uid}-language`}>Language</label>
            <select
              id={`${uid}-language`}
              value={values.language}
              onChange={(e) => setValue('language', e.target.value)}
              aria-invalid={err('language') ? 'true' : undefined}
              aria-describedby={`${uid}-language-hint`}
            >
              {languages.data?.map((l) => (
                <option key={l._id} value={l._id}>
                  {l.name}
                </option>
              )) ?? <option value={values.language}>Loading…</option>}
            </select>
            <span id={`${uid}-language-hint`} className="hint">
              Tests draw questions of one language only.
            </span>
            {err('language') ? <p className="field-error">{err('language')}</p> : null}
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${uid}-question`}>Question</label>
          <textarea
            id={`${uid}-question`}
            {...register('question')}
            aria-invalid={err('question') ? 'true' : undefined}
          />
          {err('question') ? <p className="field-error">{err('question')}</p> : null}
        </div>
        {!values.code && !values.questionImagePath ? (
          <div className="row">
            <ImagePicker onPick={(file) => void pickQuestionImage(file)}>Add Image</ImagePicker>
            <button type="button" className="btn btn-secondary" onClick={() => setValue('code', '\n')}>
              Add Code
            </button>
            <span className="hint">
              Images: jpeg, png or webp, exactly {DROPZONE_WIDTH}×{DROPZONE_HEIGHT} pixels.
            </span>
          </div>
        ) : null}
        {err('questionImagePath') ? <p className="field-error">{err('questionImagePath')}</p> : null}
        {values.questionImagePath ? (
          <QuestionImage path={values.questionImagePath} onRemove={() => setConfirmImageRemoval(true)} />
        ) : null}
        {values.code !== null ? (
          <div className="field">
            <label htmlFor={`${uid}-code`}>Code</label>
            <textarea id={`${uid}-code`} className="code-area" {...register('code')} spellCheck={false} />
            <button
              type="button"
              className="btn btn-link"
              onClick={async () => {
                if (hadCode) await client.call(deleteCode, { params: { questionId } }).catch(() => undefined);
                setValue('code', null);
              }}
            >
              Remove code
            </button>
          </div>
        ) : null}

        <OptionsEditor questionId={questionId} uid={uid} errors={errors} />

        <div className="field">
          <label htmlFor={`${uid}-explanation`}>Explanation</label>
          <textarea
            id={`${uid}-explanation`}
            {...register('explanation')}
            aria-invalid={err('explanation.0.value') ? 'true' : undefined}
          />
          {err('explanation.0.value') ? <p className="field-error">{err('explanation.0.value')}</p> : null}
        </div>
        <div className="field">
          <label htmlFor={`${uid}-tags`}>Tags</label>
          <input
            id={`${uid}-tags`}
            type="text"
            {...register('tags')}
            aria-invalid={err('tags') ? 'true' : undefined}
          />
          <span className="hint">Separate tags with commas, e.g. javascript, arrays</span>
          {err('tags') ? <p className="field-error">{err('tags')}</p> : null}
        </div>
        <div className="form-actions">
          {onBack ? (
            <button type="button" className="btn btn-secondary" onClick={onBack}>
              Back
            </button>
          ) : null}
          <button type="submit" className="btn" disabled={saving}>
            {saving ? <Spinner /> : null} Save question
          </button>
        </div>
      </form>
      <Dialog
        open={Boolean(pendingType)}
        title="Change the question type?"
        role="alertdialog"
        onClose={() => setPendingType(null)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setPendingType(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => pendingType && void switchType(pendingType, true)}
            >
              Change type
            </button>
          </>
        }
      >
        <p>All option details will be lost. Do you want to continue?</p>
      </Dialog>
      <QuestionFigures questionId={questionId} />
      <RemoveDialog
        open={confirmImageRemoval}
        what="This image"
        onCancel={() => setConfirmImageRemoval(false)}
        onRemove={() => void removeImage()}
      />
    </div>
  );
}
