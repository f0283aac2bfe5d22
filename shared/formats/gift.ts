/**
 * Moodle's GIFT format (docs.moodle.org "GIFT format"; Moodle's qformat_gift), read (written by ./gift-write.ts).
 *
 * A file is questions separated by blank lines. `// ` starts a comment line; `// [id:…] [tag:…]` carries a
 * question's id number and tags (Moodle writes them so). `$CATEGORY: path` sets the category of the
 * questions after it. `::name::` names a question; `[html]`, `[moodle]`, `[plain]` or `[markdown]` before a
 * text gives its format. The answers are in `{…}`: `=right ~wrong`, `~%50%weighted`, `#feedback` after an
 * answer, `####general feedback` last; `{T}`/`{FALSE}` true/false; `{=a =b}` short answer; `{#3.14:0.01}`,
 * `{#1..5}` numerical; `{=a -> b}` matching; `{}` essay; no braces at all, a description. Answers in the
 * middle of the text make a missing-word question. `\~ \= \# \{ \} \: \\` are the characters themselves and
 * `\n` a line break.
 *
 * Mapping (docs/question-formats.md): multiple choice → MCQ (CODE_MCQ with code, MCQ_IMAGE with image
 * answers); multiple answers → MSQ when the right answers share the marks equally; true/false → MCQ with
 * the options True and False; short answer and exact numerical → FILL_IN_BLANK; general feedback → the
 * explanation; `$CATEGORY` → the question's category, in which check.ts finds the subject and topic. Essay, matching, description, partial
 * credit and numerical tolerances are reported, not imported.
 */
import {
  ANSWER_FEEDBACK_LEFT_OUT,
  answerFeedbackNote,
  blankRecord,
  type Choice,
  categoryPath,
  choiceRecord,
  formatNumber,
  moodleSourceId,
  numericRefusal,
  parseHints,
  partsOf,
  type Refusal,
  type TextFormat,
  titleOf,
  type WaymarkHints,
} from './convert';
import type { HtmlParts } from './html';
import { refusal, type Said, said } from './problems';
import { emptyResult, type QuestionRecord, type ReadResult } from './record';

// Escaped characters stand in as private-use characters while the text is taken apart.
const ESC: Record<string, string> = {
  ':': '\ue000',
  '#': '\ue001',
  '=': '\ue002',
  '{': '\ue003',
  '}': '\ue004',
  '~': '\ue005',
};
const UNESC = Object.fromEntries(Object.entries(ESC).map(([c, p]) => [p, c]));
const BACKSLASH = '\ue006';

function protect(text: string): string {
  return text
    .replace(/\\\\/g, BACKSLASH)
    .replace(/\\([:#={}~])/g, (_, c: string) => ESC[c]!)
    .replace(/\\n/g, '\n')
    .replace(new RegExp(BACKSLASH, 'g'), '\\');
}
const restore = (text: string) => text.replace(/[\ue000-\ue005]/g, (p) => UNESC[p]!);

const FORMATS: readonly TextFormat[] = ['html', 'moodle', 'plain', 'markdown'];

/** `[format]text` → the format and the text (restored), as Moodle's parse_text_with_format. */
function withFormat(raw: string, fallback: TextFormat): { format: TextFormat; text: string } {
  const t = raw.trim();
  const m = /^\[([a-z]+)\]/.exec(t);
  if (m && (FORMATS as readonly string[]).includes(m[1]!))
    return { format: m[1] as TextFormat, text: restore(t.slice(m[0].length)).trim() };
  return { format: fallback, text: restore(t).trim() };
}

const WEIGHT = /^%(-?\d+(?:\.\d*)?)%/;

interface Block {
  line: number;
  lines: string[];
  comments: string[];
}

/** The blocks of a GIFT text one at a time (a blank line ends one), with their line numbers. */
function* blocks(src: string): Generator<Block> {
  let current: Block | null = null;
  let lineNo = 0;
  let at = 0;
  while (at <= src.length) {
    const end = src.indexOf('\n', at);
    const raw = src.slice(at, end < 0 ? src.length : end);
    at = end < 0 ? src.length + 1 : end + 1;
    lineNo++;
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) {
      if (current) yield current;
      current = null;
      continue;
    }
    current ??= { line: lineNo, lines: [], comments: [] };
    if (line.trim().startsWith('//')) current.comments.push(line.trim());
    else {
      if (!current.lines.length) current.line = lineNo;
      current.lines.push(line);
    }
  }
  if (current) yield current;
}

/** The id and tags Moodle writes in a comment (`// [id:x] [tag:a]`), and Waymark's hints. */
function fromComments(comments: string[]) {
  let id: string | undefined;
  let moodleQuestion: string | undefined;
  const tags: string[] = [];
  let hints: WaymarkHints = {};
  for (const c of comments) {
    const idm = /\[id:((?:\\\]|[^\]])+)\]/.exec(c);
    if (idm) id = idm[1]!.replace(/\\\]/g, ']').trim();
    for (const m of c.matchAll(/\[tag:((?:\\\]|[^\]<>`])+)\]/g))
      tags.push(m[1]!.replace(/\\\]/g, ']').trim());
    const q = /^\/\/\s*question:\s*(\d+)\b/.exec(c);
    if (q && q[1] !== '0') moodleQuestion = q[1];
    const w = /^\/\/\s*waymark:\s*(\{.*\})\s*$/.exec(c);
    if (w) hints = parseHints(w[1]!);
  }
  const sourceId = moodleSourceId(id, moodleQuestion);
  return { sourceId, tags, hints };
}

/** What the answers of a question gave: its record, why it cannot come over, or a problem of the file. */
type Built =
  | { record: QuestionRecord; feedback: boolean }
  | { refusal: NonNullable<Refusal> }
  | { error: Said; field: string };

/** What the answers' readers share: the question's text and format, and Waymark's hints. */
interface Question {
  stem: HtmlParts;
  format: TextFormat;
  hints: WaymarkHints;
}

/** An answer's text and whether it has feedback of its own (`text#feedback`). */
function answerParts(raw: string, format: TextFormat) {
  const hash = raw.indexOf('#');
  const body = hash >= 0 ? raw.slice(0, hash) : raw;
  const a = withFormat(body, format);
  return { parts: partsOf(a.text, a.format), feedback: hash >= 0 && raw.slice(hash + 1).trim() !== '' };
}

/** `%50%rest` → the weight and the rest. */
function weighed(raw: string): { weight?: number; rest: string } {
  const w = WEIGHT.exec(raw);
  return w ? { weight: Number(w[1]), rest: raw.slice(w[0].length) } : { rest: raw };
}

interface NumericAnswer {
  value: number;
  text: string;
  tolerance: number;
  range?: [number, number];
  weight?: number;
}

const num = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : null);

/** One numerical answer: `3.14`, `3.14:0.01` or `1..5` (restored text), or null when it is no number. */
function numericAnswer(item: string, weight: number | undefined): NumericAnswer | null {
  const w = weight !== undefined ? { weight } : {};
  const range = /^(-?[\d.eE+-]+)\s*\.\.\s*(-?[\d.eE+-]+)$/.exec(item);
  const tol = /^(-?[\d.eE+-]+)\s*:\s*([\d.eE+-]+)$/.exec(item);
  if (range && num(range[1]!) !== null && num(range[2]!) !== null) {
    const lo = num(range[1]!)!;
    const hi = num(range[2]!)!;
    return { text: item, value: (lo + hi) / 2, tolerance: (hi - lo) / 2, range: [lo, hi], ...w };
  }
  if (tol && num(tol[1]!) !== null && num(tol[2]!) !== null)
    return { text: tol[1]!, value: num(tol[1]!)!, tolerance: num(tol[2]!)!, ...w };
  if (num(item) !== null) return { value: num(item)!, text: item, tolerance: 0, ...w };
  return null;
}

/** `{#3.14:0.01 =1..5}`: exact numbers only come over. */
function numerical(answers: string, q: Question): Built {
  let body = answers.slice(1);
  let feedback = false;
  const tilde = body.indexOf('~');
  if (tilde >= 0) {
    feedback = true;
    body = body.slice(0, tilde);
  }
  const parsed: NumericAnswer[] = [];
  for (const raw of body
    .split('=')
    .map((a) => a.trim())
    .filter(Boolean)) {
    const { weight, rest } = weighed(raw);
    let item = rest;
    const hash = item.indexOf('#');
    if (hash >= 0) {
      feedback ||= item.slice(hash + 1).trim() !== '';
      item = item.slice(0, hash);
    }
    item = restore(item).trim();
    const answer = numericAnswer(item, weight);
    if (!answer) return { field: 'answers', error: said('import.problem.giftNotNumber', { value: item }) };
    parsed.push(answer);
  }
  if (!parsed.length) return { field: 'answers', error: said('import.problem.numericalNoAnswer') };
  const refusal = numericRefusal(parsed.filter((p) => p.weight === undefined || p.weight > 0));
  if (refusal) return { refusal };
  const values = parsed.map((p) => ({
    value: p.tolerance === 0 && !p.range ? p.text.trim() : formatNumber(p.value),
    ...(p.weight !== undefined ? { weight: p.weight } : {}),
  }));
  return withFeedback(blankRecord(q.stem, values, q.hints), feedback);
}

/** `{=right ~wrong}` (one right answer) or `{~%50%a ~%50%b ~%-100%c}` (several). */
function multipleChoice(answers: string, q: Question): Built {
  const single = answers.includes('=');
  const parts = answers
    .replace(/=/g, '~=')
    .split('~')
    .map((a) => a.trim())
    .filter(Boolean);
  if (parts.length < 2) return { field: 'answers', error: said('import.problem.choiceTwoAnswers') };
  let feedback = false;
  const choices: Choice[] = parts.map((raw) => {
    const right = raw.startsWith('=');
    const { weight, rest } = right ? { weight: 100, rest: raw.slice(1) } : weighed(raw);
    const correct = right || (!single && weight !== undefined && weight > 0);
    const a = answerParts(rest, q.format);
    feedback ||= a.feedback;
    return { parts: a.parts, correct, ...(weight !== undefined ? { weight } : {}) };
  });
  return withFeedback(choiceRecord(q.stem, choices, single ? 'single' : 'multiple', q.hints), feedback);
}

const TRUE_FALSE = ['T', 'TRUE', 'F', 'FALSE'];
const plainChoice = (text: string, correct: boolean): Choice => ({
  parts: { text, code: null, images: [], lost: [] },
  correct,
});

/** `{T}`, `{FALSE#feedback}`. */
function trueFalse(answers: string, tf: string, q: Question): Built {
  const isTrue = tf.startsWith('T');
  const built = choiceRecord(
    q.stem,
    [plainChoice('True', isTrue), plainChoice('False', !isTrue)],
    'single',
    q.hints,
  );
  return withFeedback(built, answers.replace(/#/g, '').trim() !== tf);
}

/** `{=a =%50%b}`: every accepted answer of a short-answer question. */
function shortAnswer(answers: string, q: Question): Built {
  let feedback = false;
  const values = answers
    .split('=')
    .map((a) => a.trim())
    .filter(Boolean)
    .map((raw) => {
      const { weight, rest } = weighed(raw);
      const a = answerParts(rest, q.format);
      feedback ||= a.feedback;
      return { value: a.parts.text, ...(weight !== undefined ? { weight } : {}) };
    });
  if (!values.length) return { field: 'answers', error: said('import.problem.shortNoAnswer') };
  return withFeedback(blankRecord(q.stem, values, q.hints), feedback);
}

const withFeedback = (
  built: { record: QuestionRecord } | { refusal: NonNullable<Refusal> },
  feedback: boolean,
): Built => ('record' in built ? { ...built, feedback } : built);

/** The answers in braces, by their kind; essays and matching questions are refused. */
function answersOf(answers: string, q: Question): Built {
  if (answers === '') return { refusal: refusal('essay', 'import.problem.essay') };
  if (answers.startsWith('#')) return numerical(answers, q);
  if (answers.includes('~')) return multipleChoice(answers, q);
  if (answers.includes('=') && answers.includes('->'))
    return { refusal: refusal('matching', 'import.problem.matching') };
  const tf = (answers.includes('#') ? answers.slice(0, answers.indexOf('#')) : answers).trim();
  return TRUE_FALSE.includes(tf) ? trueFalse(answers, tf, q) : shortAnswer(answers, q);
}

/** A question's block without its comments: its name, its text around the braces, the answers inside. */
type Parsed =
  | { name?: string; text: string; answers: string; general: string; questionText: string }
  | { name?: string; text: string; description: true }
  | { name?: string; text: string; error: Said };

function parseQuestion(protectedSrc: string): Parsed {
  let src = protectedSrc;
  let name: string | undefined;
  if (src.startsWith('::')) {
    const end = src.indexOf('::', 2);
    if (end >= 0) {
      name = restore(src.slice(2, end)).trim();
      src = src.slice(end + 2).trim();
    }
  }
  const named = { ...(name !== undefined ? { name } : {}), text: src };
  const open = src.indexOf('{');
  const close = src.indexOf('}');
  if (open < 0 && close < 0) return { ...named, description: true };
  if (open < 0 || close < 0 || close < open)
    return { ...named, error: said(open < 0 ? 'import.problem.giftNoOpen' : 'import.problem.giftNoClose') };
  let answers = src.slice(open + 1, close).trim();
  const after = src.slice(close + 1).trim();
  let general = '';
  const gf = answers.lastIndexOf('####');
  if (gf >= 0) {
    general = answers.slice(gf + 4);
    answers = answers.slice(0, gf).trim();
  }
  const questionText = after ? `${src.slice(0, open)}_____${src.slice(close + 1)}` : src.slice(0, open);
  return { ...named, answers, general, questionText };
}

/**
 * Reads GIFT one question at a time: each block (questions are separated by blank lines) into the result
 * given, `$CATEGORY:` carried to the blocks after it.
 */
function giftReader() {
  let category: string[] = [];
  let feedbackLost = 0;
  const read = (block: Block, result: ReadResult): void => {
    if (!block.lines.length) return;
    const place = { line: block.line };
    const src = protect(block.lines.join('\n').trim());
    if (/^\$CATEGORY:/.test(src)) {
      category = categoryPath(restore(src.slice('$CATEGORY:'.length)).trim());
      return;
    }
    result.total++;
    const parsed = parseQuestion(src);
    if ('description' in parsed) {
      const title = titleOf(parsed.name, restore(parsed.text));
      result.unsupported.push({ ...place, ...refusal('description', 'import.problem.description'), title });
      return;
    }
    if ('error' in parsed) {
      result.errors.push({ ...place, field: 'question', ...parsed.error });
      return;
    }
    const text = withFormat(parsed.questionText, 'moodle');
    const q: Question = { stem: partsOf(text.text, text.format), format: text.format, hints: {} };
    const { sourceId, tags, hints } = fromComments(block.comments);
    q.hints = hints;
    const built = answersOf(parsed.answers, q);
    if ('error' in built) {
      result.errors.push({ ...place, field: built.field, ...built.error });
      return;
    }
    if ('refusal' in built) {
      result.unsupported.push({ ...place, ...built.refusal, title: titleOf(parsed.name, q.stem.text) });
      return;
    }
    const explanation = parsed.general.trim()
      ? partsOf(withFormat(parsed.general, q.format).text, q.format).text
      : undefined;
    if (built.feedback) feedbackLost++;
    result.records.push({
      ...place,
      value: { ...built.record, ...(explanation ? { explanation } : {}), ...(tags.length ? { tags } : {}) },
      ...(sourceId ? { sourceId } : {}),
      ...(built.feedback ? { notes: [ANSWER_FEEDBACK_LEFT_OUT] } : {}),
      ...(category.length ? { category } : {}),
    });
  };
  const finish = (result: ReadResult) => {
    if (feedbackLost) result.notes.push(answerFeedbackNote(feedbackLost));
  };
  return { read, finish };
}

/** Reads a GIFT file. */
export function readGift(text: string): ReadResult {
  const result = emptyResult();
  const reader = giftReader();
  for (const block of blocks(text.replace(/^\uFEFF/, ''))) reader.read(block, result);
  reader.finish(result);
  return result;
}

/**
 * Reads a GIFT file in windows of at most `size` questions, one window at a time: the same records,
 * problems and notes as readGift (line numbers of the whole file; the notes in the last window), so a large
 * bank is checked and imported without holding all its records at once.
 */
export function* readGiftWindows(text: string, size: number): Generator<ReadResult> {
  const reader = giftReader();
  let result = emptyResult();
  for (const block of blocks(text.replace(/^\uFEFF/, ''))) {
    reader.read(block, result);
    if (result.total >= size) {
      yield result;
      result = emptyResult();
    }
  }
  reader.finish(result);
  yield result;
}
