/**
 * The editor's options (mentor §2.8), a react-hook-form field array: text or image options with their
 * correct marks (one for single-answer types, several for multi-select, each showing the points it earns
 * as scored — decision 005), Add option and Remove (confirmed); for fill-in-blank, its points and the
 * accepted answers.
 */
import { deleteImage, removeOption, updateImagePath } from '@shared/contract/authoring';
import { hasImageOptions, isSingleAnswer, isTextAnswer } from '@shared/rules/question-types';
import { correctOptionPoints } from '@shared/rules/scoring';
import { FILL_IN_BLANK_POINTS, MIN_OPTIONS } from '@shared/schemas/authoring';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { checkImage, OptionImage, uploadImage } from './ImageField';
import type { EditorValues, FieldErrors } from './questionEditorState';

const MAX_OPTIONS = 10;

export function OptionsEditor({
  questionId,
  uid,
  errors,
}: {
  questionId: string;
  uid: string;
  errors: FieldErrors;
}) {
  const { t } = useI18n();
  const { control, setValue, getValues } = useFormContext<EditorValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'options' });
  const type = useWatch({ control, name: 'questionType' });
  const options = useWatch({ control, name: 'options' }) ?? [];
  const [confirmRemove, setConfirmRemove] = useState<{
    kind: 'option' | 'optionImage';
    index: number;
  } | null>(null);
  const { err } = errors;
  const fib = isTextAnswer(type);
  const image = hasImageOptions(type);
  const answerKey = fib ? 'textCorrectAnswer' : image ? 'imageAnswer' : 'correctAnswer';
  const correctCount = options.filter((o) => o?.isCorrect).length;

  const markCorrect = (i: number, correct: boolean) => {
    getValues('options').forEach((o, j) => {
      const next = isSingleAnswer(type) ? j === i && correct : j === i ? correct : o.isCorrect;
      if (next !== o.isCorrect || j === i) setValue(`options.${j}.isCorrect`, next);
    });
  };

  const pickOptionImage = useOptionImage(questionId, errors);

  const removeConfirmed = async () => {
    const what = confirmRemove;
    setConfirmRemove(null);
    if (!what) return;
    try {
      if (what.kind === 'optionImage') {
        await client.call(deleteImage, {
          params: { id: questionId },
          body: { type: 'option', optionIndex: what.index },
        });
        setValue(`options.${what.index}.value`, '');
      } else {
        const option = getValues('options')[what.index];
        if (option?._id)
          await client.call(removeOption, { params: { id: questionId, optionId: option._id } });
        remove(what.index);
        errors.clearFor('options');
      }
    } catch (e) {
      toast(messageOf(e, t('editor.removeFailed')), { kind: 'error' });
    }
  };

  return (
    <fieldset>
      <legend>{fib ? t('editor.acceptedAnswer') : t('editor.options')}</legend>
      {fib ? (
        <AcceptedAnswers
          uid={uid}
          pointsError={err('points')}
          fields={fields}
          onAdd={() => append({ value: '', isCorrect: true }, { shouldFocus: false })}
        />
      ) : (
        <ol className="option-list">
          {fields.map((f, i) => (
            <OptionRow
              key={f.id}
              index={i}
              uid={uid}
              option={options[i] ?? f}
              points={options[i]?.isCorrect ? correctOptionPoints(type, correctCount) : 0}
              error={err(`options.${i}.value`)}
              canRemove={fields.length > MIN_OPTIONS}
              onMarkCorrect={(correct) => markCorrect(i, correct)}
              onPickImage={(file) => void pickOptionImage(i, file)}
              onRemoveImage={() => setConfirmRemove({ kind: 'optionImage', index: i })}
              onRemove={() => setConfirmRemove({ kind: 'option', index: i })}
            />
          ))}
        </ol>
      )}
      {!fib ? (
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => append({ value: '', isCorrect: false }, { shouldFocus: false })}
          disabled={fields.length >= MAX_OPTIONS}
        >
          {t('editor.addOption')}
        </button>
      ) : null}
      {err(answerKey) || err('options') ? (
        <p className="field-error" role="alert">
          {err(answerKey) ?? err('options')}
        </p>
      ) : null}
      <RemoveDialog
        open={Boolean(confirmRemove)}
        what={confirmRemove?.kind === 'option' ? 'option' : 'image'}
        onCancel={() => setConfirmRemove(null)}
        onRemove={() => void removeConfirmed()}
      />
    </fieldset>
  );
}

/** Puts a picked file in an option: checked, uploaded, the question's option paths saved, else the error on the option. */
function useOptionImage(questionId: string, errors: FieldErrors) {
  const { t } = useI18n();
  const { control, setValue, getValues } = useFormContext<EditorValues>();
  const type = useWatch({ control, name: 'questionType' });
  return async (index: number, file: File | undefined) => {
    if (!file) return;
    const problem = await checkImage(file, false);
    if (problem) {
      errors.setError(`options.${index}.value`, problem);
      return;
    }
    try {
      const path = await uploadImage(questionId, file, 'option', index);
      const next = getValues('options').map((o, j) => (j === index ? { ...o, value: path } : o));
      await client.call(updateImagePath, {
        params: { id: questionId },
        body: { questionType: type, options: next.map((o) => ({ _id: o._id, value: o.value })) },
      });
      setValue(`options.${index}.value`, path);
    } catch (e) {
      errors.setError(`options.${index}.value`, messageOf(e, t('editor.uploadFailed')));
    }
  };
}

/** A fill-in-blank question's points and accepted answers, with Add another accepted answer. */
function AcceptedAnswers({
  uid,
  pointsError,
  fields,
  onAdd,
}: {
  uid: string;
  pointsError: string | undefined;
  fields: readonly { id: string }[];
  onAdd: () => void;
}) {
  const { t } = useI18n();
  const { control, register, setValue } = useFormContext<EditorValues>();
  const points = useWatch({ control, name: 'points' });
  return (
    <>
      <div className="field">
        <label htmlFor={`${uid}-points`}>{t('editor.points')}</label>
        <input
          id={`${uid}-points`}
          type="number"
          min={1}
          max={100}
          value={points}
          aria-invalid={pointsError ? 'true' : undefined}
          aria-describedby={pointsError ? `${uid}-points-error` : undefined}
          onChange={(e) => setValue('points', Math.max(1, Number(e.target.value) || FILL_IN_BLANK_POINTS))}
        />
        {pointsError ? (
          <p className="field-error" id={`${uid}-points-error`}>
            {pointsError}
          </p>
        ) : null}
      </div>
      {fields.map((f, i) => (
        <div className="field" key={f.id}>
          <label htmlFor={`${uid}-answer-${i}`}>
            {i === 0 ? t('editor.answer') : t('editor.alsoAccepted', { number: i + 1 })}
          </label>
          <input id={`${uid}-answer-${i}`} type="text" {...register(`options.${i}.value`)} />
        </div>
      ))}
      <button type="button" className="btn btn-link" onClick={onAdd}>
        {t('editor.addAccepted')}
      </button>
    </>
  );
}

/** One option: its text or image, its correct mark with the points it earns, Remove, and its error. */
function OptionRow({
  index,
  uid,
  option,
  points,
  error,
  canRemove,
  onMarkCorrect,
  onPickImage,
  onRemoveImage,
  onRemove,
}: {
  index: number;
  uid: string;
  option: { value: string; isCorrect: boolean };
  points: number;
  error: string | undefined;
  canRemove: boolean;
  onMarkCorrect: (correct: boolean) => void;
  onPickImage: (file: File | undefined) => void;
  onRemoveImage: () => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const { control, register } = useFormContext<EditorValues>();
  const type = useWatch({ control, name: 'questionType' });
  return (
    <li className="option-row">
      {hasImageOptions(type) ? (
        <OptionImage index={index} path={option.value} onPick={onPickImage} onRemove={onRemoveImage} />
      ) : (
        <input
          type="text"
          aria-label={t('editor.option', { number: index + 1 })}
          {...register(`options.${index}.value`)}
          aria-invalid={error ? 'true' : undefined}
        />
      )}
      <label className="check">
        <input
          type={isSingleAnswer(type) ? 'radio' : 'checkbox'}
          name={`${uid}-correct`}
          checked={option.isCorrect}
          onChange={(e) => onMarkCorrect(e.target.checked)}
        />
        <span>
          {t('editor.correct')} <span className="muted">{t('editor.pointsOf', { count: points })}</span>
        </span>
      </label>
      <button
        type="button"
        className="btn btn-link"
        disabled={!canRemove}
        onClick={onRemove}
        aria-label={t('editor.removeOption', { number: index + 1 })}
      >
        {t('users.remove')}
      </button>
      {error ? <p className="field-error">{error}</p> : null}
    </li>
  );
}

/** 'Remove it?': asks before an option or an image is removed. */
export function RemoveDialog({
  open,
  what,
  onCancel,
  onRemove,
}: {
  open: boolean;
  what: 'option' | 'image';
  onCancel: () => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog
      open={open}
      title={t('editor.removeTitle')}
      role="alertdialog"
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn-danger" onClick={onRemove}>
            {t('users.remove')}
          </button>
        </>
      }
    >
      <p>{t('editor.willBeRemoved', { what })}</p>
    </Dialog>
  );
}
