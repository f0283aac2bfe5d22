/**
 * The question editor (mentor §2.8): type rail, subject and topic, image or code, options, explanation,
 * tags. Its parts: the values and errors (questionEditorState.ts), what it does (useEditorActions.ts), the
 * type rail (QuestionTypeRail.tsx), the fields around the options (EditorFields.tsx), the options as a
 * react-hook-form field array (OptionsEditor.tsx), the image fields (ImageField.tsx); this file loads the
 * question and lays the editor out.
 */
import { getQuestion } from '@shared/contract/authoring';
import type { Question } from '@shared/schemas/assessment';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { useEffect, useId, useState } from 'react';
import { FormProvider, useForm, useFormContext, useWatch } from 'react-hook-form';
import { ClosingFields, PlacementFields, StemFields } from './EditorFields';
import { OptionsEditor, RemoveDialog } from './OptionsEditor';
import { QuestionTypeRail } from './QuestionTypeRail';
import { type EditorValues, fromQuestion, useFieldErrors } from './questionEditorState';
import { QuestionFigures } from './stats/QuestionFigures';
import { useEditorActions } from './useEditorActions';

export function QuestionEditor({
  questionId,
  onSaved,
  onBack,
}: {
  questionId: string;
  onSaved: (q: Question) => void;
  onBack?: () => void;
}) {
  const { t } = useI18n();
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
        {messageOf(loaded.error, t('editor.loadFailed'))}
      </p>
    );
  }
  if (!ready) return <Loader text={t('manage.fetching')} />;
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
  const { t } = useI18n();
  const uid = useId();
  const { watch, control } = useFormContext<EditorValues>();
  const questionType = useWatch({ control, name: 'questionType' });
  const errors = useFieldErrors();
  const { err, clearFor } = errors;
  const act = useEditorActions(questionId, errors, onSaved);

  // a field's error goes away once the field changes
  useEffect(() => {
    const watching = watch((_, { name }) => {
      if (name) clearFor(name);
    });
    return () => watching.unsubscribe();
  }, [watch, clearFor]);

  return (
    <div className="editor">
      <QuestionTypeRail
        name={`${uid}-type`}
        value={questionType}
        onPick={(type) => void act.switchType(type)}
      />
      <form
        className="card editor-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void act.save();
        }}
      >
        <PlacementFields uid={uid} err={err} />
        <StemFields
          uid={uid}
          err={err}
          questionId={questionId}
          hadCode={hadCode}
          onPickImage={(file) => void act.pickQuestionImage(file)}
          onRemoveImage={() => act.askImageRemoval(true)}
        />
        <OptionsEditor questionId={questionId} uid={uid} errors={errors} />
        <ClosingFields uid={uid} err={err} />
        <div className="form-actions">
          {onBack ? (
            <button type="button" className="btn btn-secondary" onClick={onBack}>
              {t('common.back')}
            </button>
          ) : null}
          <button type="submit" className="btn" disabled={act.saving}>
            {act.saving ? <Spinner /> : null} {t('editor.save')}
          </button>
        </div>
      </form>
      <Dialog
        open={Boolean(act.pendingType)}
        title={t('editor.changeTypeTitle')}
        role="alertdialog"
        onClose={act.cancelTypeSwitch}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={act.cancelTypeSwitch}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => act.pendingType && void act.switchType(act.pendingType, true)}
            >
              {t('editor.changeType')}
            </button>
          </>
        }
      >
        <p>{t('editor.changeTypeText')}</p>
      </Dialog>
      <QuestionFigures questionId={questionId} />
      <RemoveDialog
        open={act.confirmImageRemoval}
        what="image"
        onCancel={() => act.askImageRemoval(false)}
        onRemove={() => void act.removeImage()}
      />
    </div>
  );
}
