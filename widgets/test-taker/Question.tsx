/**
 * One question as a test taker sees it, shared by the test page and the prerequisite assessment: its
 * text, code block and image, and the control its type asks for — radio buttons for single-choice types,
 * checkboxes for multi-select types (image options for the *_IMAGE types), a text box for fill-in-blank.
 * Also the numbered question navigation (answered questions marked) and the 'Question n / total' stepper.
 */
import { answerKindOf, hasImageOptions } from '@shared/rules/question-types';
import type { TakerQuestion } from '@shared/schemas/assessment';
import { type Ref, useId } from 'react';
import { assetUrl } from '../embed/host';
import { chosenIds, type GivenAnswer, isAnswered } from './answers';

const letter = (i: number) => String.fromCharCode(65 + i);

export interface QuestionViewProps {
  number: number;
  total: number;
  question: Pick<
    TakerQuestion,
    '_id' | 'question' | 'questionType' | 'code' | 'questionImagePath' | 'options'
  >;
  given: GivenAnswer | undefined;
  /** An option id (chosen or toggled), or the typed text. */
  onAnswer: (value: string) => void;
  /** The text box lost focus (the typed answer can be saved at once). */
  onCommit?: () => void;
  /** Text was pasted into the answer: how many characters (the focus record keeps only that). */
  onPaste?: (chars: number) => void;
  /** Prefix of image paths: '' in the portal, the Waymark server on a partner page. */
  siteBase?: string;
  /** The level of the question's heading. */
  level?: 2 | 3;
  headingRef?: Ref<HTMLHeadingElement>;
}

export function QuestionView({
  number,
  total,
  question: q,
  given,
  onAnswer,
  onCommit,
  onPaste,
  siteBase = '',
  level = 2,
  headingRef,
}: QuestionViewProps) {
  const id = useId();
  const kind = answerKindOf(q.questionType);
  const chosen = chosenIds(given);
  const imageOptions = hasImageOptions(q.questionType);
  const image = assetUrl({ siteBase }, q.questionImagePath);
  const Heading = level === 2 ? 'h2' : 'h3';
  const typed = (value: string) => {
    if (value !== (given?.answer ?? '')) onAnswer(value);
  };
  const hintId = `${id}-hint`;
  return (
    <section className="wm-question" part="question" aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className="wm-question-number" ref={headingRef} tabIndex={-1}>
        Question {number} <span className="wm-question-of">of {total}</span>
      </Heading>
      <p id={`${id}-text`} className="wm-question-text">
        {q.question}
      </p>
      {q.code ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block must be reachable by keyboard
        <pre className="wm-code" tabIndex={0}>
          <code>{q.code}</code>
        </pre>
      ) : null}
      {image ? (
        <img className="wm-question-image" src={image} alt={`Illustration for question ${number}`} />
      ) : null}
      {kind === 'text' ? (
        <div className="wm-fill">
          <label htmlFor={`${id}-answer`}>Your answer</label>
          <input
            id={`${id}-answer`}
            type="text"
            className="wm-input"
            part="answer-input"
            autoComplete="off"
            spellCheck={false}
            maxLength={500}
            value={given?.answer ?? ''}
            // onInput for every keystroke where React runs on Preact without compat (the embed build)
            onInput={(e) => typed(e.currentTarget.value)}
            onChange={(e) => typed(e.currentTarget.value)}
            onBlur={onCommit}
            onPaste={(e) => onPaste?.(e.clipboardData?.getData('text').length ?? 0)}
            aria-describedby={`${id}-text`}
          />
        </div>
      ) : (
        <fieldset className="wm-options" aria-describedby={kind === 'multiple' ? hintId : undefined}>
          <legend className="visually-hidden">Answer to question {number}</legend>
          {kind === 'multiple' ? (
            <p id={hintId} className="wm-hint">
              Choose all that apply.
            </p>
          ) : null}
          {q.options.map((o, i) => {
            const checked = chosen.includes(o._id);
            const src = imageOptions ? assetUrl({ siteBase }, o.value) : null;
            return (
              <label key={o._id} className={`wm-option${checked ? ' is-chosen' : ''}`} part="option">
                <input
                  type={kind === 'multiple' ? 'checkbox' : 'radio'}
                  name={`${id}-option`}
                  value={o._id}
                  checked={checked}
                  onChange={() => onAnswer(o._id)}
                />
                <span className="wm-option-letter" aria-hidden="true">
                  {letter(i)}
                </span>
                {src ? (
                  <img className="wm-option-image" src={src} alt={`Option ${letter(i)}`} />
                ) : (
                  <span className="wm-option-text">{o.value}</span>
                )}
              </label>
            );
          })}
        </fieldset>
      )}
    </section>
  );
}

export interface QuestionNavProps {
  questions: readonly { _id: string }[];
  answers: Record<string, GivenAnswer | undefined>;
  index: number;
  onGo: (index: number) => void;
  /** Hidden on narrow screens, where a QuestionStepper takes its place. */
  collapsible?: boolean;
}

/** Numbered buttons, one per question: the current one selected, answered ones highlighted. */
export function QuestionNav({ questions, answers, index, onGo, collapsible }: QuestionNavProps) {
  return (
    <nav
      className={`wm-question-nav${collapsible ? ' is-collapsible' : ''}`}
      aria-label="Questions"
      part="nav"
    >
      <ol>
        {questions.map((q, i) => {
          const done = isAnswered(answers[q._id]);
          return (
            <li key={q._id}>
              <button
                type="button"
                className={`wm-question-tab${done ? ' is-answered' : ''}${i === index ? ' is-current' : ''}`}
                aria-current={i === index ? 'step' : undefined}
                aria-label={`Question ${i + 1}, ${done ? 'answered' : 'not answered'}`}
                onClick={() => onGo(i)}
              >
                {i + 1}
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** 'Question n / total' between Prev and Next (shown instead of the numbered buttons on narrow screens). */
export function QuestionStepper({
  index,
  total,
  onGo,
}: {
  index: number;
  total: number;
  onGo: (index: number) => void;
}) {
  return (
    <div className="wm-stepper">
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => onGo(index - 1)}
        disabled={index === 0}
        aria-label="Previous question"
      >
        ‹
      </button>
      <span>
        Question {index + 1} / {total}
      </span>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => onGo(index + 1)}
        disabled={index >= total - 1}
        aria-label="Next question"
      >
        ›
      </button>
    </div>
  );
}

/** Prev, Next, how many questions are answered, and Finish. */
export function QuestionActions({
  index,
  total,
  answered,
  onGo,
  onFinish,
}: {
  index: number;
  total: number;
  answered: number;
  onGo: (index: number) => void;
  onFinish: () => void;
}) {
  return (
    <div className="wm-actions">
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => onGo(index - 1)}
        disabled={index === 0}
      >
        Prev
      </button>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => onGo(index + 1)}
        disabled={index >= total - 1}
      >
        Next
      </button>
      <span className="wm-spacer" />
      <span className="wm-muted">
        {answered} of {total} answered
      </span>
      <button type="button" className="btn" part="finish-button" onClick={onFinish}>
        Finish
      </button>
    </div>
  );
}
