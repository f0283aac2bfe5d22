/**
 * Moodle XML (docs.moodle.org "Moodle XML format"), read and written: `<quiz>` holds `<question type=…>`
 * elements. A `category` question sets the category (`$course$/top/Subject/Topic`) of those after it. A
 * question has `<name>`, `<questiontext format=…>` (html, moodle_auto_format, plain_text, markdown) with its
 * images as base64 `<file>` elements named by `@@PLUGINFILE@@/name`, `<generalfeedback>`, `<idnumber>`,
 * `<tags>`, and answers by type: multichoice (`<single>`, answers with a `fraction` in percent), truefalse,
 * shortanswer, numerical (`<tolerance>`), matching (`<subquestion>`), essay and description.
 *
 * Mapping (docs/question-formats.md): multichoice single → MCQ (CODE_MCQ with a `<pre>` block, MCQ_IMAGE
 * with image answers), multichoice multiple → MSQ when its right answers share the marks equally;
 * truefalse → MCQ True/False; shortanswer and exact numerical → FILL_IN_BLANK; generalfeedback → the
 * explanation; idnumber (else Moodle's question number) → the source id. Others are reported.
 */
import { hasImageOptions, isMultiAnswer, isTextAnswer, typeNeedsHint } from '../rules/question-types';
import {
  ANSWER_FEEDBACK_LEFT_OUT,
  answerFeedbackNote,
  blankRecord,
  type Choice,
  categoryOf,
  categoryPath,
  choiceRecord,
  hintsJson,
  moodleSourceId,
  numericRefusal,
  parseHints,
  partsOf,
  type Refusal,
  type TextFormat,
  titleOf,
  type WaymarkHints,
} from './convert';
import { escapeHtml, type HtmlParts, partsToHtml, textToHtml } from './html';
import { type ProblemCode, refusal, type Said, said } from './problems';
import { type BankQuestion, EMBEDDED, emptyResult, type ReadResult, shorten } from './record';
import {
  asArray,
  attrOf,
  cdata,
  elementStarts,
  escapeXml,
  fromBase64,
  parseXml,
  textOf,
  toBase64,
  type XmlNode,
  xmlParser,
  xmlSyntaxError,
} from './xml';

const FORMATS: Record<string, TextFormat> = {
  html: 'html',
  moodle_auto_format: 'moodle',
  plain_text: 'plain',
  markdown: 'markdown',
};

const parser = xmlParser(['question', 'answer', 'tag', 'file', 'subquestion', 'unit']);

const PLUGINFILE = '@@PLUGINFILE@@/';

/** What a question's answers gave: its record, why it cannot come over, or a problem of the file. */
type Built = ReturnType<typeof choiceRecord> | { error: Said; field: string };

/** What the readers of a question's answers are given. */
interface Question {
  q: XmlNode;
  stem: HtmlParts;
  answers: XmlNode[];
  hints: WaymarkHints;
  rich: (node: unknown, fallback?: TextFormat) => HtmlParts;
}

const fractionOf = (a: XmlNode) => Number(attrOf(a, 'fraction') ?? '0');
const plainChoice = (text: string, correct: boolean): Choice => ({
  parts: { text, code: null, images: [], lost: [] },
  correct,
});

function multichoice({ q, stem, answers, hints, rich }: Question): Built {
  const single = !['false', '0'].includes(textOf(q.single).trim().toLowerCase());
  const choices: Choice[] = answers.map((a) => {
    const weight = fractionOf(a);
    const parts = rich(a, FORMATS[attrOf(q.questiontext, 'format') ?? ''] ?? 'html');
    return { parts, weight, correct: single ? weight >= 99.999 : weight > 0 };
  });
  return choiceRecord(stem, choices, single ? 'single' : 'multiple', hints);
}

function truefalse({ stem, answers, hints }: Question): Built {
  const right = answers.find((a) => fractionOf(a) >= 99.999);
  const isTrue = textOf(right?.text).trim().toLowerCase() === 'true';
  return choiceRecord(stem, [plainChoice('True', isTrue), plainChoice('False', !isTrue)], 'single', hints);
}

const shortanswer = ({ stem, answers, hints }: Question): Built =>
  blankRecord(
    stem,
    answers.map((a) => ({ value: textOf(a.text).trim(), weight: fractionOf(a) })),
    hints,
  );

/** Exact numbers only; an answer with units is refused (Waymark compares plain numbers). */
function numerical({ q, stem, answers, hints }: Question): Built {
  const units = asArray((q.units as XmlNode | undefined)?.unit as XmlNode[]).filter(
    (u) => textOf(u.unit_name).trim() !== '',
  );
  if (units.length) return { refusal: refusal('numerical with units', 'import.problem.units') };
  const nums = answers
    .filter((a) => textOf(a.text).trim() !== '*')
    .map((a) => ({
      text: textOf(a.text).trim(),
      value: Number(textOf(a.text).trim()),
      tolerance: Number(textOf(a.tolerance).trim() || '0'),
      weight: fractionOf(a),
    }));
  if (nums.some((n) => !Number.isFinite(n.value) || !Number.isFinite(n.tolerance)))
    return { field: 'answer', error: said('import.problem.numericalNotNumber') };
  const refused = numericRefusal(nums.filter((n) => n.weight > 0));
  return refused
    ? { refusal: refused }
    : blankRecord(
        stem,
        nums.map((n) => ({ value: n.text, weight: n.weight })),
        hints,
      );
}

/** Moodle's question types: a reader for those Waymark holds, the reason for those it cannot. */
const READERS: Record<string, ((question: Question) => Built) | ProblemCode> = {
  multichoice,
  truefalse,
  shortanswer,
  numerical,
  matching: 'import.problem.matching',
  essay: 'import.problem.essay',
  description: 'import.problem.description',
};

/** Waymark's hints and Moodle's question number, from the comments before a question. */
function commentsOf(comments: readonly string[]) {
  let hints: WaymarkHints = {};
  let moodleNumber: string | undefined;
  for (const c of comments) {
    const w = /^waymark:\s*(\{.*\})$/.exec(c);
    if (w) hints = parseHints(w[1]!);
    const n = /^question:\s*(\d+)/.exec(c);
    if (n && n[1] !== '0') moodleNumber = n[1];
  }
  return { hints, moodleNumber };
}

/**
 * A text element with its files, for the question at `index`: the files go to result.files, their
 * references become embedded:…
 */
function richReader(result: ReadResult, index: number) {
  return (node: unknown, fallback: TextFormat = 'html'): HtmlParts => {
    const el = (node ?? {}) as XmlNode;
    const format = FORMATS[attrOf(el, 'format') ?? ''] ?? fallback;
    const parts = partsOf(textOf(el.text), format);
    const names = new Map<string, string>();
    for (const f of asArray(el.file as XmlNode[])) {
      const fname = attrOf(f, 'name');
      if (!fname || attrOf(f, 'encoding') !== 'base64') continue;
      const key = `q${index + 1}/${fname}`;
      result.files.set(key, fromBase64(textOf(f)));
      names.set(fname, `${EMBEDDED}${key}`);
    }
    parts.images = parts.images.map((src) => {
      if (!src.startsWith(PLUGINFILE)) return src;
      const fname = decodeURIComponent(src.slice(PLUGINFILE.length).replace(/^\/+/, '').split('?')[0]!);
      return names.get(fname) ?? src;
    });
    return parts;
  };
}

/** What reading the questions carries from one to the next: the category, feedback left out. */
interface QuizState {
  category: string[];
  feedbackLost: number;
}

/** One `<question>` of the quiz (a category question sets the category of those after it). */
function readQuestion(
  q: XmlNode,
  index: number,
  start: { line: number; comments: string[] },
  result: ReadResult,
  state: QuizState,
) {
  const place = { line: start.line };
  const type = attrOf(q, 'type') ?? '';
  if (type === 'category') {
    // <category><text>path</text></category>, or the path alone as Moodle 1.9's page shows it
    const node = q.category as XmlNode | string | undefined;
    state.category = categoryPath(
      textOf(typeof node === 'object' && 'text' in node ? node.text : node).trim(),
    );
    return;
  }
  result.total++;
  const { hints, moodleNumber } = commentsOf(start.comments);
  const rich = richReader(result, index);
  const stem = rich(q.questiontext);
  const title = titleOf(textOf((q.name as XmlNode)?.text).trim(), stem.text);
  const unsupported = (refused: NonNullable<Refusal>) =>
    result.unsupported.push({ ...place, ...refused, title });
  const missing = [...stem.images].find((s) => s.startsWith(PLUGINFILE));
  if (missing) {
    unsupported(refusal('missing image', 'import.problem.imageNotInFile', { image: missing }));
    return;
  }
  const answers = asArray(q.answer as XmlNode[]);
  const reader = Object.hasOwn(READERS, type) ? READERS[type]! : null;
  if (typeof reader !== 'function') {
    unsupported(
      reader ? refusal(type, reader) : refusal(type || 'question', 'import.problem.moodleType', { type }),
    );
    return;
  }
  const built = reader({ q, stem, answers, hints, rich });
  if ('error' in built) {
    result.errors.push({ ...place, field: built.field, ...built.error });
    return;
  }
  if ('refusal' in built) {
    unsupported(built.refusal);
    return;
  }
  const sourceId = moodleSourceId(textOf(q.idnumber).trim(), moodleNumber);
  const explanation = rich(q.generalfeedback, 'html').text;
  const tags = asArray((q.tags as XmlNode | undefined)?.tag as XmlNode[])
    .map((t) => textOf(t.text).trim())
    .filter(Boolean);
  const feedback = answers.some((a) => textOf((a.feedback as XmlNode)?.text).trim() !== '');
  if (feedback) state.feedbackLost++;
  result.records.push({
    ...place,
    value: {
      ...built.record,
      ...(explanation ? { explanation } : {}),
      ...(tags.length ? { tags } : {}),
    },
    ...(sourceId ? { sourceId } : {}),
    ...(feedback ? { notes: [ANSWER_FEEDBACK_LEFT_OUT] } : {}),
    ...(state.category.length ? { category: state.category } : {}),
  });
}

export function readMoodleXml(src: string): ReadResult {
  const result = emptyResult();
  const text = src.replace(/^\uFEFF/, '');
  const syntax = xmlSyntaxError(text);
  if (syntax) {
    result.errors.push(syntax);
    return result;
  }
  const parsed = parseXml(parser, text);
  if (!parsed.ok) {
    result.errors.push(parsed.error);
    return result;
  }
  const quiz = parsed.doc.quiz as XmlNode | undefined;
  if (!quiz || typeof quiz !== 'object') {
    result.errors.push({ line: 1, field: 'quiz', ...said('import.problem.moodleNoQuiz'), scope: 'file' });
    return result;
  }
  const starts = elementStarts(text, 'question');
  const state: QuizState = { category: [], feedbackLost: 0 };
  asArray(quiz.question as XmlNode[]).forEach((q, index) => {
    readQuestion(q, index, starts[index] ?? { line: 1, comments: [] }, result, state);
  });
  if (state.feedbackLost) result.notes.push(answerFeedbackNote(state.feedbackLost));
  return result;
}

// ---- writing

/** An image the writer carries inside the file: its name there and its bytes. */
export interface EmbeddedImage {
  name: string;
  bytes: Uint8Array;
}

const fraction = (n: number) => String(Number((100 / n).toFixed(5)));

/**
 * Writes questions as Moodle XML. Images found in `images` (by address) are carried inside the file as
 * base64 `<file>` elements; others are linked by their address.
 */
export function writeMoodleXml(
  questions: readonly BankQuestion[],
  opts: { images?: ReadonlyMap<string, EmbeddedImage>; comment?: string } = {},
): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', '<quiz>'];
  if (opts.comment) out.push(`<!-- ${opts.comment.replace(/--/g, '- -')} -->`);
  let category: string | null = null;
  const textElement = (tag: string, html: string, files: EmbeddedImage[] = [], attrs = ' format="html"') =>
    `<${tag}${attrs}><text>${cdata(html)}</text>${files
      .map((f) => `<file name="${escapeXml(f.name)}" path="/" encoding="base64">${toBase64(f.bytes)}</file>`)
      .join('')}</${tag}>`;
  const image = (src: string) => {
    const e = opts.images?.get(src);
    return e
      ? { src: `${PLUGINFILE}${encodeURIComponent(e.name)}`, files: [e] }
      : { src, files: [] as EmbeddedImage[] };
  };
  for (const q of questions) {
    const cat = categoryOf(q.subject, q.topic);
    if (cat !== category) {
      out.push(`<question type="category"><category><text>${escapeXml(cat)}</text></category></question>`);
      category = cat;
    }
    const hints: WaymarkHints = {};
    if (typeNeedsHint(q.type, Boolean(q.code))) hints.type = q.type;
    if (isTextAnswer(q.type) && q.points !== undefined && q.points !== 10) hints.points = q.points;
    const hint = hintsJson(hints);
    if (hint) out.push(`<!-- waymark: ${hint} -->`);
    const fib = isTextAnswer(q.type);
    const numeric = fib && q.options.every((o) => o.value.trim() !== '' && Number.isFinite(Number(o.value)));
    const trueFalse = q.type === 'MCQ' && !q.code && q.options.map((o) => o.value).join('|') === 'True|False';
    const kind = trueFalse ? 'truefalse' : fib ? (numeric ? 'numerical' : 'shortanswer') : 'multichoice';
    const stemImage = q.image ? image(q.image) : null;
    const lines: string[] = [
      `<question type="${kind}">`,
      `<name><text>${escapeXml(shorten(q.question, 60))}</text></name>`,
      textElement(
        'questiontext',
        partsToHtml({ text: q.question, code: q.code ?? null, image: stemImage?.src ?? null }),
        stemImage?.files,
      ),
      textElement('generalfeedback', textToHtml(q.explanation.filter((e) => e.trim()).join('\n\n'))),
      '<defaultgrade>1</defaultgrade>',
      `<penalty>${trueFalse ? 1 : 0.3333333}</penalty>`,
      '<hidden>0</hidden>',
      `<idnumber>${q.id ? escapeXml(`waymark:${q.id}`) : ''}</idnumber>`,
    ];
    if (kind === 'truefalse') {
      const isTrue = q.options[0]!.correct;
      lines.push(
        `<answer fraction="${isTrue ? 100 : 0}" format="moodle_auto_format"><text>true</text><feedback format="html"><text></text></feedback></answer>`,
        `<answer fraction="${isTrue ? 0 : 100}" format="moodle_auto_format"><text>false</text><feedback format="html"><text></text></feedback></answer>`,
      );
    } else if (kind === 'shortanswer') {
      lines.push('<usecase>0</usecase>');
      for (const o of q.options)
        lines.push(
          `<answer fraction="100" format="moodle_auto_format"><text>${escapeXml(o.value)}</text><feedback format="html"><text></text></feedback></answer>`,
        );
    } else if (kind === 'numerical') {
      for (const o of q.options)
        lines.push(
          `<answer fraction="100" format="moodle_auto_format"><text>${escapeXml(o.value.trim())}</text><feedback format="html"><text></text></feedback><tolerance>0</tolerance></answer>`,
        );
    } else {
      const multiple = isMultiAnswer(q.type);
      const share = fraction(q.options.filter((o) => o.correct).length);
      lines.push(
        `<single>${multiple ? 'false' : 'true'}</single>`,
        '<shuffleanswers>true</shuffleanswers>',
        '<answernumbering>abc</answernumbering>',
      );
      for (const o of q.options) {
        const f = o.correct ? (multiple ? share : '100') : multiple ? '-100' : '0';
        if (hasImageOptions(q.type)) {
          const img = image(o.value);
          lines.push(
            `<answer fraction="${f}" format="html"><text>${cdata(`<p><img src="${escapeHtml(img.src)}" alt=""></p>`)}</text>${img.files
              .map(
                (e) =>
                  `<file name="${escapeXml(e.name)}" path="/" encoding="base64">${toBase64(e.bytes)}</file>`,
              )
              .join('')}<feedback format="html"><text></text></feedback></answer>`,
          );
        } else {
          lines.push(
            `<answer fraction="${f}" format="html"><text>${cdata(textToHtml(o.value))}</text><feedback format="html"><text></text></feedback></answer>`,
          );
        }
      }
    }
    if (q.tags.length)
      lines.push(`<tags>${q.tags.map((t) => `<tag><text>${escapeXml(t)}</text></tag>`).join('')}</tags>`);
    lines.push('</question>');
    out.push(lines.join('\n'));
  }
  out.push('</quiz>', '');
  return out.join('\n');
}
