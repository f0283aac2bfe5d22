/**
 * One question as a test taker sees it, shared by the test page and the prerequisite assessment: its
 * text, code block and image, and the control its type asks for — radio buttons for single-choice types,
 * checkboxes for multi-select types (image options for the *_IMAGE types), a text box for fill-in-blank.
 * Also the numbered question navigation (answered questions marked) and the 'Question n / total' stepper.
 */
import { answerKindOf, hasImageOptions } from '@shared/rules/question-types';
import type { TakerQuestion } from '@shared/schemas/assessment';
import { type Ref, useId } from 'react';
import { Rich, useI18n } from '../core/i18n';
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
  const { t } = useI18n();
  return (
    <section className="wm-question" part="question" aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className="wm-question-number" ref={headingRef} tabIndex={-1}>
        <Rich
          k="test.questionOf"
          values={{ number, total }}
          components={{ 0: <span className="wm-question-of" /> }}
        />
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
        <img className="wm-question-image" src={image} alt={t('test.illustration', { number })} />
      ) : null}
      {kind === 'text' ? (
        <div className="wm-fill">
          <label htmlFor={`${id}-answer`}>{t('test.yourAnswer')}</label>
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
          <legend className="visually-hidden">{t('test.answerTo', { number })}</legend>
          {kind === 'multiple' ? (
            <p id={hintId} className="wm-hint">
              {t('test.chooseAll')}
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
                  <img className="wm-option-image" src={src} alt={t('test.option', { letter: letter(i) })} />
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
  const { t } = useI18n();
  return (
    <nav
      className={`wm-question-nav${collapsible ? ' is-collapsible' : ''}`}
      aria-label={t('test.questionsNav')}
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
                aria-label={
                  done
                    ? t('test.navAnswered', { number: i + 1 })
                    : t('test.navNotAnswered', { number: i + 1 })
                }
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
  const { t } = useI18n();
  return (
    <div className="wm-stepper">
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => onGo(index - 1)}
        disabled={index === 0}
        aria-label={t('test.previousQuestion')}
      >
        ‹
      </button>
      <span>{t('test.stepper', { number: index + 1, total })}</span>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => onGo(index + 1)}
        disabled={index >= total - 1}
        aria-label={t('test.nextQuestion')}
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
  const { t } = useI18n();
  return (
    <div className="wm-actions">
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => onGo(index - 1)}
        disabled={index === 0}
      >
        {t('test.prev')}
      </button>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => onGo(index + 1)}
        disabled={index >= total - 1}
      >
        {t('test.next')}
      </button>
      <span className="wm-spacer" />
      <span className="wm-muted">{t('test.answeredOf', { answered, total })}</span>
      <button type="button" className="btn" part="finish-button" onClick={onFinish}>
        {t('test.finish')}
      </button>
    </div>
  );
}
