/**
 * What the question editor does (mentor §2.8): switch the question's type (asked first when the options
 * cannot be kept), save it (the form's own check first, then the server's, each error on its field), and
 * add or remove the question's image.
 */
import { changeQuestionType, deleteImage, saveQuestion, updateImagePath } from '@shared/contract/authoring';
import { typeSwitchKeepsOptions } from '@shared/rules/question-types';
import type { Question, QuestionType } from '@shared/schemas/assessment';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { checkImage, uploadImage } from './ImageField';
import {
  type EditorValues,
  type FieldErrors,
  fromQuestion,
  KEPT_ON_TYPE_SWITCH,
  problemsOf,
  toInput,
} from './questionEditorState';

export function useEditorActions(questionId: string, errors: FieldErrors, onSaved: (q: Question) => void) {
  const { t } = useI18n();
  const formWords = useFormWords();
  const { setValue, getValues, reset } = useFormContext<EditorValues>();
  const { setErrors } = errors;
  const [saving, setSaving] = useState(false);
  const [pendingType, setPendingType] = useState<QuestionType | null>(null);
  const [confirmImageRemoval, setConfirmImageRemoval] = useState(false);

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
      toast(messageOf(e, t('editor.typeChangeFailed')), { kind: 'error' });
    }
  };

  const save = async () => {
    const current = getValues();
    const problems = problemsOf(current, formWords);
    if (problems) {
      setErrors(problems);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const res = await client.call(saveQuestion, { params: { id: questionId }, body: toInput(current) });
      toast(t('editor.saved'), { kind: 'success' });
      onSaved(res.data);
    } catch (e) {
      const body = (e as { body?: { fields?: Record<string, string> } }).body;
      if (body?.fields) setErrors(body.fields);
      else toast(messageOf(e, t('editor.saveFailed')), { kind: 'error' });
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
      errors.setError('questionImagePath', messageOf(e, t('editor.uploadFailed')));
    }
  };

  const removeImage = async () => {
    setConfirmImageRemoval(false);
    try {
      await client.call(deleteImage, { params: { id: questionId }, body: { type: 'question' } });
      setValue('questionImagePath', null);
    } catch (e) {
      toast(messageOf(e, t('editor.removeFailed')), { kind: 'error' });
    }
  };

  return {
    saving,
    pendingType,
    cancelTypeSwitch: () => setPendingType(null),
    switchType,
    save,
    pickQuestionImage,
    confirmImageRemoval,
    askImageRemoval: (ask: boolean) => setConfirmImageRemoval(ask),
    removeImage,
  };
}
