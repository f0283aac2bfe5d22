/**
 * What the GIFT, Aiken, Moodle XML and QTI readers share: turning a format's choices, answers and texts
 * into a Waymark question record (shared/formats/record.ts) with the type the question-type table gives,
 * and the checks of what Waymark cannot hold, each with the reason a person will read.
 */
import {
  type AnswerKind,
  QUESTION_TYPE_TABLE,
  QUESTION_TYPES,
  type QuestionType,
  questionTypeFor,
} from '../rules/question-types';
import { type HtmlParts, htmlToParts, looksLikeHtml, markdownToParts } from './html';
import { refusal as refused, type Said, said } from './problems';
import { type QuestionRecord, shorten, type Unsupported } from './record';

export type TextFormat = 'html' | 'moodle' | 'plain' | 'markdown';

/** A text in a format: its text, code and images. Moodle's own format is HTML when it holds tags. */
export function partsOf(text: string, format: TextFormat): HtmlParts {
  if (format === 'html' || (format === 'moodle' && looksLikeHtml(text))) return htmlToParts(text);
  if (format === 'markdown') return markdownToParts(text);
  return { text: text.trim(), code: null, images: [], lost: [] };
}

/** One answer of a choice question, as the reader found it. */
export interface Choice {
  parts: HtmlParts;
  correct: boolean;
  /** The share of the marks, in percent, where the format gives one (Moodle's fraction). */
  weight?: number;
  feedback?: boolean;
}

/** A reason the question cannot come over, or null. */
export type Refusal = Pick<Unsupported, 'kind' | 'kindCode' | 'reason' | 'code' | 'params'> | null;

/** Waymark's hints a file may carry for what the format cannot say itself (written by our writers). */
export interface WaymarkHints {
  type?: QuestionType;
  points?: number;
}

export function parseHints(json: string): WaymarkHints {
  try {
    const v = JSON.parse(json) as Record<string, unknown>;
    const hints: WaymarkHints = {};
    if (typeof v.type === 'string' && (QUESTION_TYPES as readonly string[]).includes(v.type))
      hints.type = v.type as QuestionType;
    if (typeof v.points === 'number' && Number.isInteger(v.points)) hints.points = v.points;
    return hints;
  } catch {
    return {};
  }
}

export const hintsJson = (hints: WaymarkHints) => (Object.keys(hints).length ? JSON.stringify(hints) : null);

/** The question's own parts: one image at most, nothing lost. */
export function stemRefusal(stem: HtmlParts): Refusal {
  if (stem.images.length > 1)
    return refused('several images', 'import.problem.severalImages', { count: stem.images.length });
  if (stem.lost.length)
    return refused(stem.lost.join(', '), 'import.problem.lostContent', {
      what: stem.lost.map((l) => `a ${l}`).join(' and '),
    });
  return null;
}

/**
 * A choice question as Waymark holds it, or the reason it cannot be: options are all text or all images
 * (one image alone); a single-answer question has exactly one right answer and no partial credit; a
 * multiple-answer question splits the marks equally across its right answers (Waymark's MSQ rule).
 */
export function choiceRecord(
  stem: HtmlParts,
  choices: Choice[],
  answer: 'single' | 'multiple',
  hints: WaymarkHints = {},
): { record: QuestionRecord } | { refusal: NonNullable<Refusal> } {
  const refusal = stemRefusal(stem);
  if (refusal) return { refusal };
  const imageOption = (c: Choice) => c.parts.images.length === 1 && !c.parts.text && !c.parts.code;
  const images = choices.filter(imageOption).length;
  if (images > 0 && images < choices.length)
    return { refusal: refused('mixed options', 'import.problem.mixedOptions') };
  for (const c of choices) {
    if (!imageOption(c) && (c.parts.images.length || c.parts.code))
      return { refusal: refused('rich answers', 'import.problem.richAnswers') };
  }
  const right = choices.filter((c) => c.correct);
  if (answer === 'single') {
    const partial = choices.filter((c) => !c.correct && (c.weight ?? 0) > 0);
    if (partial.length)
      return {
        refusal: refused('partial credit', 'import.problem.partialSingle', {
          weights: partial.map((c) => `${c.weight}%`).join(', '),
        }),
      };
    if (right.length !== 1)
      return {
        refusal: right.length
          ? refused('several right answers', 'import.problem.severalRight', { count: right.length })
          : refused('no right answer', 'import.problem.noRight'),
      };
  } else {
    const weights = right.map((c) => c.weight).filter((w): w is number => w !== undefined);
    if (weights.length === right.length && weights.length > 0) {
      const sum = weights.reduce((a, b) => a + b, 0);
      const equal = weights.every((w) => Math.abs(w - weights[0]!) < 0.01);
      if (!equal || Math.abs(sum - 100) > 0.1)
        return {
          refusal: refused('partial credit', 'import.problem.partialMultiple', {
            weights: weights.map((w) => `${w}%`).join(', '),
          }),
        };
    }
    if (!right.length) return { refusal: refused('no right answer', 'import.problem.noRight') };
  }
  const option = images ? 'image' : 'text';
  const hasCode = Boolean(stem.code);
  let type = questionTypeFor(answer, option, hasCode);
  const hinted = hints.type ? QUESTION_TYPE_TABLE[hints.type] : null;
  if (hints.type && hinted && hinted.answer === answer && hinted.option === option) type = hints.type;
  return {
    record: {
      type,
      question: stem.text,
      ...(stem.code ? { code: stem.code } : {}),
      ...(stem.images[0] ? { image: stem.images[0] } : {}),
      options: choices.map((c) => ({
        value: imageOption(c) ? c.parts.images[0]! : c.parts.text,
        correct: c.correct,
      })),
    },
  };
}

/** A fill-in-blank question from its accepted answers (all of them fully right). */
export function blankRecord(
  stem: HtmlParts,
  answers: { value: string; weight?: number }[],
  hints: WaymarkHints = {},
): { record: QuestionRecord } | { refusal: NonNullable<Refusal> } {
  const refusal = stemRefusal(stem);
  if (refusal) return { refusal };
  const partial = answers.filter((a) => a.weight !== undefined && Math.abs(a.weight - 100) > 0.001);
  if (partial.length)
    return {
      refusal: refused('partial credit', 'import.problem.partialBlank', {
        weights: partial.map((a) => `${a.weight}%`).join(', '),
      }),
    };
  const accepted = answers.filter((a) => a.weight === undefined || a.weight > 0).map((a) => a.value);
  // a test compares numbers as numbers and text as text (QuestionInput's answerKinds rule)
  const numbers = accepted.filter((v) => v.trim() !== '' && Number.isFinite(Number(v)));
  if (numbers.length && numbers.length < accepted.length)
    return {
      refusal: refused('numbers and words', 'import.problem.numbersAndWords', {
        values: accepted.map((v) => `“${v}”`).join(', '),
      }),
    };
  const kind: AnswerKind = 'text';
  return {
    record: {
      type: questionTypeFor(kind, 'text', false),
      question: stem.text,
      ...(stem.code ? { code: stem.code } : {}),
      ...(stem.images[0] ? { image: stem.images[0] } : {}),
      options: accepted.map((value) => ({ value, correct: true })),
      ...(hints.points ? { points: hints.points } : {}),
    },
  };
}

/** A numeric answer with its tolerance, or a range; only exact numbers come over. */
export function numericRefusal(
  answers: { value: number; tolerance: number; range?: [number, number] }[],
): Refusal {
  for (const a of answers) {
    if (a.range)
      return refused('numerical range', 'import.problem.numericalRange', {
        from: a.range[0],
        to: a.range[1],
      });
    if (a.tolerance !== 0)
      return refused('numerical tolerance', 'import.problem.numericalTolerance', {
        value: a.value,
        tolerance: a.tolerance,
      });
  }
  return null;
}

export const titleOf = (name: string | undefined, text: string) =>
  name?.trim() ? name.trim() : shorten(text);

/**
 * A category path (Moodle's `$course$/top/Subject/Topic`; `//` is a slash inside a name) as its names,
 * outermost first, without Moodle's context (`$course$`, `$cat1$`, `$module$`, `$system$`) and `top`.
 */
export function categoryPath(path: string): string[] {
  return path
    .replace(/\/\//g, '\ue007')
    .split('/')
    .map((p) => p.replace(/\ue007/g, '/').trim())
    .filter((p) => p && !/^\$[a-z0-9]*\$$/i.test(p) && p.toLowerCase() !== 'top');
}

/** Waymark's subject and topic as a Moodle category path. */
export const categoryOf = (subject: string, topic: string) =>
  `$course$/top/${subject.replace(/\//g, '//')}/${topic.replace(/\//g, '//')}`;

/** A number written the way formats write numbers (no exponent noise for ordinary values). */
export const formatNumber = (n: number) =>
  Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(12)));

/** Said of a question whose answers had feedback of their own (GIFT, Moodle XML). */
export const ANSWER_FEEDBACK_LEFT_OUT: Said = said('import.problem.feedbackLeftOut');

/** Said of the file when `count` of its questions had feedback on single answers. */
export const answerFeedbackNote = (count: number): Said => said('import.problem.feedbackNote', { count });

/**
 * Where a Moodle question came from, as GIFT and Moodle XML keep it: its ID number (`waymark:<id>` as
 * Waymark exports it, else the author's own) or, without one, Moodle's question id.
 */
export const moodleSourceId = (idnumber: string | undefined, moodleQuestion: string | undefined) =>
  idnumber
    ? idnumber.startsWith('waymark:')
      ? idnumber
      : `idnumber:${idnumber}`
    : moodleQuestion
      ? `moodle-question:${moodleQuestion}`
      : undefined;
