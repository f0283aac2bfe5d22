import {
  adminSubjectList,
  changeQuestionType,
  deleteCode,
  deleteImage,
  getQuestion,
  imageSignedUrl,
  removeOption,
  saveQuestion,
  updateImagePath,
} from '@shared/contract/authoring';
import { languageList } from '@shared/contract/lists';
import {
  hasImageOptions,
  isSingleAnswer,
  isTextAnswer,
  QUESTION_TYPES,
  typeLabel,
  typeSwitchKeepsOptions,
} from '@shared/rules/question-types';
import { correctOptionPoints } from '@shared/rules/scoring';
import type { Question, QuestionType } from '@shared/schemas/assessment';
import {
  CORRECT_POINTS,
  DROPZONE_HEIGHT,
  DROPZONE_WIDTH,
  editorMessages,
  FILL_IN_BLANK_POINTS,
  IMAGE_TYPES_ALLOWED,
  MIN_OPTIONS,
  QuestionInput,
} from '@shared/schemas/authoring';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useMemo, useState } from 'react';

interface OptionState {
  _id?: string;
  value: string;
  isCorrect: boolean;
}

interface EditorState {
  question: string;
  questionType: QuestionType;
  code: string | null;
  questionImagePath: string | null;
  points: number;
  subject: string;
  topic: string;
  language: string;
  options: OptionState[];
  explanation: string;
  tags: string;
}

function fromQuestion(q: Question): EditorState {
  return {
    question: q.question,
    questionType: q.questionType,
    code: q.code,
    questionImagePath: q.questionImagePath,
    points: isTextAnswer(q.questionType) ? q.points : FILL_IN_BLANK_POINTS,
    subject: q.subject ?? '',
    topic: q.topic ?? '',
    language: q.language,
    options: q.options.map((o) => ({ _id: o._id, value: o.value, isCorrect: o.isCorrect })),
    explanation: q.explanation[0]?.value ?? '',
    tags: q.tags.join(', '),
  };
}

function toInput(s: EditorState) {
  return {
    question: s.question,
    questionType: s.questionType,
    code: s.code,
    questionImagePath: s.questionImagePath,
    points: s.points,
    subject: s.subject || null,
    topic: s.topic || null,
    language: s.language || null,
    options: s.options.map((o) => ({
      _id: o._id,
      value: o.value,
      isCorrect: isTextAnswer(s.questionType) ? true : o.isCorrect,
      points: o.isCorrect ? CORRECT_POINTS : 0,
    })),
    explanation: [{ type: 'TEXT' as const, value: s.explanation }],
    tags: s.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  };
}

/** Checks an image file: type, and for the question image the 1200×400 dropzone size. */
async function checkImage(file: File, exact: boolean): Promise<string | null> {
  if (!(IMAGE_TYPES_ALLOWED as readonly string[]).includes(file.type))
    return 'Choose a jpeg, png or webp image.';
  if (!exact) return null;
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    await new Promise<void>((done, fail) => {
      img.onload = () => done();
      img.onerror = () => fail(new Error('not an image'));
      img.src = url;
    });
    return img.naturalWidth === DROPZONE_WIDTH && img.naturalHeight === DROPZONE_HEIGHT
      ? null
      : editorMessages.imageDimension;
  } catch {
    return 'This file is not a readable image.';
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function upload(
  questionId: string,
  file: File,
  type: 'question' | 'option',
  optionIndex?: number,
): Promise<string> {
  const fileType = file.type.split('/')[1] as 'jpeg' | 'png' | 'webp';
  // the exact size is signed into the address, which then takes no other file
  const signed = await client.call(imageSignedUrl, {
    body: { type, questionId, optionIndex, fileType, size: file.size },
  });
  const res = await fetch(signed.data.url, {
    method: 'PUT',
    headers: { 'content-type': file.type },
    body: file,
  });
  if (!res.ok) throw new Error('The image could not be uploaded.');
  return signed.data.path;
}

/** The question editor (mentor §2.8): type rail, subject and topic, image or code, options, explanation, tags. */
export function QuestionEditor({
  questionId,
  onSaved,
  onBack,
}: {
  questionId: string;
  onSaved: (q: Question) => void;
  onBack?: () => void;
}) {
  const uid = useId();
  const loaded = useCall(
    (signal) => client.call(getQuestion, { params: { id: questionId }, signal }).then((r) => r.data),
    [questionId],
  );
  const subjects = useCall((signal) => client.call(adminSubjectList, { signal }).then((r) => r.data), []);
  const languages = useCall((signal) => client.call(languageList, { signal }).then((r) => r.data), []);
  const [state, setState] = useState<EditorState | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [pendingType, setPendingType] = useState<QuestionType | null>(null);
  const [confirmRemove, setConfirmRemove] = useState<
    { kind: 'option'; index: number } | { kind: 'image' } | { kind: 'optionImage'; index: number } | null
  >(null);

  useEffect(() => {
    if (loaded.data) setState(fromQuestion(loaded.data));
  }, [loaded.data]);

  const topics = useMemo(
    () => subjects.data?.find((s) => s._id === state?.subject)?.topics ?? [],
    [subjects.data, state?.subject],
  );

  if (loaded.error) {
    return (
      <p className="alert alert-error" role="alert">
        {messageOf(loaded.error, 'The question could not be loaded.')}
      </p>
    );
  }
  if (!state) return <Loader text="Fetching data..." />;

  const set = (patch: Partial<EditorState>) => {
    setState({ ...state, ...patch });
    // a field's error goes away once the field changes
    const touched = Object.keys(patch).flatMap((k) =>
      k === 'options'
        ? ['options', 'correctAnswer', 'imageAnswer', 'textCorrectAnswer']
        : k === 'explanation'
          ? ['explanation.0.value']
          : [k],
    );
    if (Object.keys(errors).some((e) => touched.some((t) => e === t || e.startsWith(`${t}.`)))) {
      setErrors(
        Object.fromEntries(
          Object.entries(errors).filter(([e]) => !touched.some((t) => e === t || e.startsWith(`${t}.`))),
        ),
      );
    }
  };
  const setOption = (i: number, patch: Partial<OptionState>) => {
    const options = state.options.map((o, j) => (j === i ? { ...o, ...patch } : o));
    set({ options });
  };
  const markCorrect = (i: number, correct: boolean) => {
    const options = state.options.map((o, j) =>
      isSingleAnswer(state.questionType)
        ? { ...o, isCorrect: j === i ? correct : false }
        : j === i
          ? { ...o, isCorrect: correct }
          : o,
    );
    set({ options });
  };
  const err = (key: string) => errors[key];
  const fib = isTextAnswer(state.questionType);
  const image = hasImageOptions(state.questionType);
  const answerKey = fib ? 'textCorrectAnswer' : image ? 'imageAnswer' : 'correctAnswer';
  const correctCount = state.options.filter((o) => o.isCorrect).length;

  const switchType = async (to: QuestionType, confirmed = false) => {
    if (to === state.questionType) return;
    if (!typeSwitchKeepsOptions(state.questionType, to) && !confirmed) {
      setPendingType(to);
      return;
    }
    setPendingType(null);
    try {
      const res = await client.call(changeQuestionType, {
        params: { id: questionId },
        body: { questionType: to },
      });
      const next = fromQuestion(res.data);
      // keep what was typed that the switch does not touch
      setState({
        ...next,
        question: state.question,
        subject: state.subject,
        topic: state.topic,
        language: state.language,
        explanation: state.explanation,
        tags: state.tags,
        code: state.code,
        ...(typeSwitchKeepsOptions(state.questionType, to)
          ? { options: state.options.map((o) => ({ ...o, isCorrect: false })) }
          : {}),
      });
    } catch (e) {
      toast(messageOf(e, 'The type could not be changed.'), { kind: 'error' });
    }
  };

  const save = async () => {
    const input = toInput(state);
    const parsed = QuestionInput.safeParse(input);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path.map(String).join('.');
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const res = await client.call(saveQuestion, { params: { id: questionId }, body: input });
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
      setErrors({ ...errors, questionImagePath: problem });
      return;
    }
    try {
      const path = await upload(questionId, file, 'question');
      await client.call(updateImagePath, {
        params: { id: questionId },
        body: { questionType: state.questionType, questionImagePath: path },
      });
      set({ questionImagePath: path });
      setErrors({ ...errors, questionImagePath: '' });
    } catch (e) {
      setErrors({ ...errors, questionImagePath: messageOf(e, 'The image could not be uploaded.') });
    }
  };

  const pickOptionImage = async (index: number, file: File | undefined) => {
    if (!file) return;
    const problem = await checkImage(file, false);
    if (problem) {
      setErrors({ ...errors, [`options.${index}.value`]: problem });
      return;
    }
    try {
      const path = await upload(questionId, file, 'option', index);
      const options = state.options.map((o, j) => (j === index ? { ...o, value: path } : o));
      await client.call(updateImagePath, {
        params: { id: questionId },
        body: {
          questionType: state.questionType,
          options: options.map((o) => ({ _id: o._id, value: o.value })),
        },
      });
      set({ options });
    } catch (e) {
      setErrors({ ...errors, [`options.${index}.value`]: messageOf(e, 'The image could not be uploaded.') });
    }
  };

  const removeConfirmed = async () => {
    const what = confirmRemove;
    setConfirmRemove(null);
    if (!what) return;
    try {
      if (what.kind === 'image') {
        await client.call(deleteImage, { params: { id: questionId }, body: { type: 'question' } });
        set({ questionImagePath: null });
      } else if (what.kind === 'optionImage') {
        await client.call(deleteImage, {
          params: { id: questionId },
          body: { type: 'option', optionIndex: what.index },
        });
        setOption(what.index, { value: '' });
      } else {
        const option = state.options[what.index];
        if (option?._id)
          await client.call(removeOption, { params: { id: questionId, optionId: option._id } });
        set({ options: state.options.filter((_, j) => j !== what.index) });
      }
    } catch (e) {
      toast(messageOf(e, 'That could not be removed.'), { kind: 'error' });
    }
  };

  return (
    <div className="editor">
      <fieldset className="type-rail">
        <legend>Question type</legend>
        {QUESTION_TYPES.map((t) => (
          <label key={t} className={`type-choice${state.questionType === t ? ' selected' : ''}`}>
            <input
              type="radio"
              name={`${uid}-type`}
              value={t}
              checked={state.questionType === t}
              onChange={() => void switchType(t)}
            />
            <span>{typeLabel(t)}</span>
          </label>
        ))}
      </fieldset>
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
              value={state.subject}
              onChange={(e) => set({ subject: e.target.value, topic: '' })}
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
              value={state.topic}
              onChange={(e) => set({ topic: e.target.value })}
              disabled={!state.subject}
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
              value={state.language}
              onChange={(e) => set({ language: e.target.value })}
              aria-invalid={err('language') ? 'true' : undefined}
              aria-describedby={`${uid}-language-hint`}
            >
              {languages.data?.map((l) => (
                <option key={l._id} value={l._id}>
                  {l.name}
                </option>
              )) ?? <option value={state.language}>Loading…</option>}
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
            value={state.question}
            onChange={(e) => set({ question: e.target.value })}
            aria-invalid={err('question') ? 'true' : undefined}
          />
          {err('question') ? <p className="field-error">{err('question')}</p> : null}
        </div>
        {!state.code && !state.questionImagePath ? (
          <div className="row">
            <label className="btn btn-secondary file-button">
              Add Image
              <input
                type="file"
                accept={IMAGE_TYPES_ALLOWED.join(',')}
                className="visually-hidden"
                onChange={(e) => void pickQuestionImage(e.target.files?.[0])}
              />
            </label>
            <button type="button" className="btn btn-secondary" onClick={() => set({ code: '\n' })}>
              Add Code
            </button>
            <span className="hint">
              Images: jpeg, png or webp, exactly {DROPZONE_WIDTH}×{DROPZONE_HEIGHT} pixels.
            </span>
          </div>
        ) : null}
        {err('questionImagePath') ? <p className="field-error">{err('questionImagePath')}</p> : null}
        {state.questionImagePath ? (
          <figure className="question-image">
            <img src={state.questionImagePath} alt="The question's illustration" />
            <button
              type="button"
              className="btn btn-link"
              onClick={() => setConfirmRemove({ kind: 'image' })}
            >
              Remove image
            </button>
          </figure>
        ) : null}
        {state.code !== null ? (
          <div className="field">
            <label htmlFor={`${uid}-code`}>Code</label>
            <textarea
              id={`${uid}-code`}
              className="code-area"
              value={state.code}
              onChange={(e) => set({ code: e.target.value })}
              spellCheck={false}
            />
            <button
              type="button"
              className="btn btn-link"
              onClick={async () => {
                if (loaded.data?.code)
                  await client.call(deleteCode, { params: { questionId } }).catch(() => undefined);
                set({ code: null });
              }}
            >
              Remove code
            </button>
          </div>
        ) : null}

        <fieldset>
          <legend>{fib ? 'Accepted answer' : 'Options'}</legend>
          {fib ? (
            <>
              <div className="field">
                <label htmlFor={`${uid}-points`}>Points</label>
                <input
                  id={`${uid}-points`}
                  type="number"
                  min={1}
                  max={100}
                  value={state.points}
                  onChange={(e) =>
                    set({ points: Math.max(1, Number(e.target.value) || FILL_IN_BLANK_POINTS) })
                  }
                />
              </div>
              {state.options.map((o, i) => (
                <div className="field" key={o._id ?? i}>
                  <label htmlFor={`${uid}-answer-${i}`}>
                    {i === 0 ? 'Answer' : `Also accepted (${i + 1})`}
                  </label>
                  <input
                    id={`${uid}-answer-${i}`}
                    type="text"
                    value={o.value}
                    onChange={(e) => setOption(i, { value: e.target.value })}
                  />
                </div>
              ))}
              <button
                type="button"
                className="btn btn-link"
                onClick={() => set({ options: [...state.options, { value: '', isCorrect: true }] })}
              >
                Add another accepted answer
              </button>
            </>
          ) : (
            <ol className="option-list">
              {state.options.map((o, i) => (
                <li key={o._id ?? `new-${i}`} className="option-row">
                  {image ? (
                    <div className="option-image">
                      {o.value ? (
                        <img src={o.value} alt={`Option ${i + 1}`} />
                      ) : (
                        <span className="muted">No image yet</span>
                      )}
                      <label className="btn btn-secondary file-button">
                        {o.value ? 'Replace image' : 'Choose image'}
                        <span className="visually-hidden"> for option {i + 1}</span>
                        <input
                          type="file"
                          accept={IMAGE_TYPES_ALLOWED.join(',')}
                          className="visually-hidden"
                          onChange={(e) => void pickOptionImage(i, e.target.files?.[0])}
                        />
                      </label>
                      {o.value ? (
                        <button
                          type="button"
                          className="btn btn-link"
                          onClick={() => setConfirmRemove({ kind: 'optionImage', index: i })}
                        >
                          Remove image
                        </button>
                      ) : null}
                    </div>
                  ) : (
                    <input
                      type="text"
                      aria-label={`Option ${i + 1}`}
                      value={o.value}
                      onChange={(e) => setOption(i, { value: e.target.value })}
                      aria-invalid={err(`options.${i}.value`) ? 'true' : undefined}
                    />
                  )}
                  <label className="check">
                    <input
                      type={isSingleAnswer(state.questionType) ? 'radio' : 'checkbox'}
                      name={`${uid}-correct`}
                      checked={o.isCorrect}
                      onChange={(e) => markCorrect(i, e.target.checked)}
                    />
                    <span>
                      Correct{' '}
                      <span className="muted">
                        ({o.isCorrect ? correctOptionPoints(state.questionType, correctCount) : 0} points)
                      </span>
                    </span>
                  </label>
                  <button
                    type="button"
                    className="btn btn-link"
                    disabled={state.options.length <= MIN_OPTIONS}
                    onClick={() => setConfirmRemove({ kind: 'option', index: i })}
                    aria-label={`Remove option ${i + 1}`}
                  >
                    Remove
                  </button>
                  {err(`options.${i}.value`) ? (
                    <p className="field-error">{err(`options.${i}.value`)}</p>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
          {!fib ? (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => set({ options: [...state.options, { value: '', isCorrect: false }] })}
              disabled={state.options.length >= 10}
            >
              Add option
            </button>
          ) : null}
          {err(answerKey) || err('options') ? (
            <p className="field-error" role="alert">
              {err(answerKey) ?? err('options')}
            </p>
          ) : null}
        </fieldset>

        <div className="field">
          <label htmlFor={`${uid}-explanation`}>Explanation</label>
          <textarea
            id={`${uid}-explanation`}
            value={state.explanation}
            onChange={(e) => set({ explanation: e.target.value })}
            aria-invalid={err('explanation.0.value') ? 'true' : undefined}
          />
          {err('explanation.0.value') ? <p className="field-error">{err('explanation.0.value')}</p> : null}
        </div>
        <div className="field">
          <label htmlFor={`${uid}-tags`}>Tags</label>
          <input
            id={`${uid}-tags`}
            type="text"
            value={state.tags}
            onChange={(e) => set({ tags: e.target.value })}
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
      <Dialog
        open={Boolean(confirmRemove)}
        title="Remove it?"
        role="alertdialog"
        onClose={() => setConfirmRemove(null)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirmRemove(null)}>
              Cancel
            </button>
            <button type="button" className="btn btn-danger" onClick={() => void removeConfirmed()}>
              Remove
            </button>
          </>
        }
      >
        <p>
          {confirmRemove?.kind === 'option' ? 'This option will be removed.' : 'This image will be removed.'}
        </p>
      </Dialog>
    </div>
  );
}
