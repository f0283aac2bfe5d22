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
    let src = protect(block.lines.join('\n').trim());
    if (/^\$CATEGORY:/.test(src)) {
      category = categoryPath(restore(src.slice('$CATEGORY:'.length)).trim());
      return;
    }
    result.total++;
    const { sourceId, tags, hints } = fromComments(block.comments);
    let name: string | undefined;
    if (src.startsWith('::')) {
      const end = src.indexOf('::', 2);
      if (end >= 0) {
        name = restore(src.slice(2, end)).trim();
        src = src.slice(end + 2).trim();
      }
    }
    const open = src.indexOf('{');
    const close = src.indexOf('}');
    const unsupported = (kind: string, reason: string, title?: string) =>
      result.unsupported.push({ ...place, kind, reason, title: title ?? titleOf(name, restore(src)) });
    if (open < 0 && close < 0) {
      unsupported('description', 'a description has no answer; Waymark holds questions only');
      return;
    }
    if (open < 0 || close < 0 || close < open) {
      result.errors.push({
        ...place,
        field: 'question',
        message: open < 0 ? 'a } without its {' : 'a { without its }',
      });
      return;
    }
    let answers = src.slice(open + 1, close).trim();
    const after = src.slice(close + 1).trim();
    const questionText = after ? `${src.slice(0, open)}_____${src.slice(close + 1)}` : src.slice(0, open);
    let general = '';
    const gf = answers.lastIndexOf('####');
    if (gf >= 0) {
      general = answers.slice(gf + 4);
      answers = answers.slice(0, gf).trim();
    }
    const q = withFormat(questionText, 'moodle');
    const stem = partsOf(q.text, q.format);
    const title = titleOf(name, stem.text);
    const explanation = general.trim()
      ? partsOf(withFormat(general, q.format).text, q.format).text
      : undefined;
    const base = {
      ...(explanation ? { explanation } : {}),
      ...(tags.length ? { tags } : {}),
    };
    const answerParts = (raw: string) => {
      const hash = raw.indexOf('#');
      const body = hash >= 0 ? raw.slice(0, hash) : raw;
      const a = withFormat(body, q.format);
      return { parts: partsOf(a.text, a.format), feedback: hash >= 0 && raw.slice(hash + 1).trim() !== '' };
    };
    let built: { record: QuestionRecord } | { refusal: NonNullable<Refusal> };
    let feedback = false;
    if (answers === '') {
      unsupported('essay', 'an essay is marked by a person; Waymark marks every answer itself', title);
      return;
    }
    if (answers.startsWith('#')) {
      // numerical
      let body = answers.slice(1);
      const tilde = body.indexOf('~');
      if (tilde >= 0) {
        feedback = true;
        body = body.slice(0, tilde);
      }
      const items = body
        .split('=')
        .map((a) => a.trim())
        .filter(Boolean);
      const parsed: {
        value: number;
        text: string;
        tolerance: number;
        range?: [number, number];
        weight?: number;
      }[] = [];
      let bad: string | null = null;
      for (let item of items) {
        let weight: number | undefined;
        const w = WEIGHT.exec(item);
        if (w) {
          weight = Number(w[1]);
          item = item.slice(w[0].length);
        }
        const hash = item.indexOf('#');
        if (hash >= 0) {
          feedback ||= item.slice(hash + 1).trim() !== '';
          item = item.slice(0, hash);
        }
        item = restore(item).trim();
        const range = /^(-?[\d.eE+-]+)\s*\.\.\s*(-?[\d.eE+-]+)$/.exec(item);
        const tol = /^(-?[\d.eE+-]+)\s*:\s*([\d.eE+-]+)$/.exec(item);
        const num = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : null);
        if (range && num(range[1]!) !== null && num(range[2]!) !== null) {
          const lo = num(range[1]!)!;
          const hi = num(range[2]!)!;
          parsed.push({
            text: item,
            value: (lo + hi) / 2,
            tolerance: (hi - lo) / 2,
            range: [lo, hi],
            ...(weight !== undefined ? { weight } : {}),
          });
        } else if (tol && num(tol[1]!) !== null && num(tol[2]!) !== null) {
          parsed.push({
            text: tol[1]!,
            value: num(tol[1]!)!,
            tolerance: num(tol[2]!)!,
            ...(weight !== undefined ? { weight } : {}),
          });
        } else if (num(item) !== null) {
          parsed.push({
            value: num(item)!,
            text: item,
            tolerance: 0,
            ...(weight !== undefined ? { weight } : {}),
          });
        } else {
          bad = item;
          break;
        }
      }
      if (bad !== null || !parsed.length) {
        result.errors.push({
          ...place,
          field: 'answers',
          message:
            bad !== null
              ? `“${bad}” is not a number (a numerical answer is 3.14, 3.14:0.01 or 1..5)`
              : 'a numerical question needs an answer',
        });
        return;
      }
      const refusal = numericRefusal(parsed.filter((p) => p.weight === undefined || p.weight > 0));
      built = refusal
        ? { refusal }
        : blankRecord(
            stem,
            parsed.map((p) => ({
              value: p.tolerance === 0 && !p.range ? p.text.trim() : formatNumber(p.value),
              ...(p.weight !== undefined ? { weight: p.weight } : {}),
            })),
            hints,
          );
    } else if (answers.includes('~')) {
      // multiple choice: single when some answer is marked =
      const single = answers.includes('=');
      const parts = answers
        .replace(/=/g, '~=')
        .split('~')
        .map((a) => a.trim())
        .filter(Boolean);
      if (parts.length < 2) {
        result.errors.push({
          ...place,
          field: 'answers',
          message: 'a multiple-choice question needs at least two answers',
        });
        return;
      }
      const choices: Choice[] = parts.map((raw) => {
        let rest = raw;
        let weight: number | undefined;
        let correct = false;
        if (rest.startsWith('=')) {
          correct = true;
          weight = 100;
          rest = rest.slice(1);
        } else {
          const w = WEIGHT.exec(rest);
          if (w) {
            weight = Number(w[1]);
            rest = rest.slice(w[0].length);
            correct = !single && weight > 0;
          }
        }
        const a = answerParts(rest);
        feedback ||= a.feedback;
        return { parts: a.parts, correct, ...(weight !== undefined ? { weight } : {}) };
      });
      built = choiceRecord(stem, choices, single ? 'single' : 'multiple', hints);
    } else if (answers.includes('=') && answers.includes('->')) {
      unsupported('matching', 'a matching question pairs items; Waymark has no such type', title);
      return;
    } else {
      const tf = (answers.includes('#') ? answers.slice(0, answers.indexOf('#')) : answers).trim();
      if (['T', 'TRUE', 'F', 'FALSE'].includes(tf)) {
        const isTrue = tf.startsWith('T');
        feedback = answers.replace(/#/g, '').trim() !== tf;
        built = choiceRecord(
          stem,
          [
            { parts: { text: 'True', code: null, images: [], lost: [] }, correct: isTrue },
            { parts: { text: 'False', code: null, images: [], lost: [] }, correct: !isTrue },
          ],
          'single',
          hints,
        );
      } else {
        const items = answers
          .split('=')
          .map((a) => a.trim())
          .filter(Boolean);
        const values = items.map((raw) => {
          let rest = raw;
          let weight: number | undefined;
          const w = WEIGHT.exec(rest);
          if (w) {
            weight = Number(w[1]);
            rest = rest.slice(w[0].length);
          }
          const a = answerParts(rest);
          feedback ||= a.feedback;
          return { value: a.parts.text, ...(weight !== undefined ? { weight } : {}) };
        });
        if (!values.length) {
          result.errors.push({
            ...place,
            field: 'answers',
            message: 'a short-answer question needs an answer',
          });
          return;
        }
        built = blankRecord(stem, values, hints);
      }
    }
    if ('refusal' in built) {
      unsupported(built.refusal.kind, built.refusal.reason, title);
      return;
    }
    if (feedback) feedbackLost++;
    result.records.push({
      ...place,
      value: { ...built.record, ...base },
      ...(sourceId ? { sourceId } : {}),
      ...(feedback ? { notes: [ANSWER_FEEDBACK_LEFT_OUT] } : {}),
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
