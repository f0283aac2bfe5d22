/**
 * Moodle's GIFT format written (./gift.ts reads it and describes the format): a file Moodle imports, each
 * question in HTML where plain GIFT text cannot say it, multiple answers with weights Moodle writes.
 */
import { hasImageOptions, isMultiAnswer, isTextAnswer, typeNeedsHint } from '../rules/question-types';
import { categoryOf, hintsJson, type WaymarkHints } from './convert';
import { escapeHtml, looksLikeHtml, partsToHtml, textToHtml } from './html';
import { type BankQuestion, shorten } from './record';

/** Escapes GIFT's special characters (Moodle's repchar). */
export const giftEscape = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/[#=~{}:]/g, (c) => `\\${c}`)
    .replace(/\r?\n/g, '\\n');

const TRUE_FALSE = (q: BankQuestion) =>
  q.type === 'MCQ' &&
  !q.code &&
  q.options.length === 2 &&
  q.options[0]!.value === 'True' &&
  q.options[1]!.value === 'False';

/**
 * Whether the question must be written as HTML: code, images, text a browser would read as HTML, and what
 * GIFT's plain text cannot say (`->` in an answer makes a matching question; an answer or feedback starting
 * with `[` or `%` would read as a format or a weight).
 */
const needsHtml = (q: BankQuestion) =>
  Boolean(q.code || q.image) ||
  hasImageOptions(q.type) ||
  [q.question, ...q.explanation, ...q.options.map((o) => o.value)].some(
    (t) => looksLikeHtml(t) || t.includes('->'),
  ) ||
  [...q.explanation, ...q.options.map((o) => o.value)].some((t) => /^\s*[[%]/.test(t));

/** Moodle writes weights with up to 5 decimals: 33.33333. */
const weight = (n: number) => String(Number((100 / n).toFixed(5)));

/** Writes questions as a GIFT file Moodle imports. */
export function writeGift(questions: readonly BankQuestion[], opts: { header?: string } = {}): string {
  let out = opts.header
    ? `${opts.header
        .split('\n')
        .map((l) => `// ${l}`)
        .join('\n')}\n\n`
    : '';
  let category: string | null = null;
  for (const q of questions) {
    const cat = categoryOf(q.subject, q.topic);
    if (cat !== category) {
      out += `$CATEGORY: ${cat}\n\n`;
      category = cat;
    }
    const html = needsHtml(q);
    const inline = (s: string) =>
      giftEscape(
        html
          ? escapeHtml(s)
              .replace(/ (?= )|^ | $/g, '&#32;')
              .replace(/^\[/, '&#91;')
              .replace(/^%/, '&#37;')
          : s,
      );
    const bits: string[] = [];
    if (q.id) bits.push(`[id:waymark:${q.id.replace(/\]/g, '\\]')}]`);
    for (const t of q.tags) bits.push(`[tag:${t.replace(/\]/g, '\\]')}]`);
    if (bits.length) out += `// ${bits.join(' ')}\n`;
    const hints: WaymarkHints = {};
    if (typeNeedsHint(q.type, Boolean(q.code))) hints.type = q.type;
    if (isTextAnswer(q.type) && q.points !== undefined && q.points !== 10) hints.points = q.points;
    const hint = hintsJson(hints);
    if (hint) out += `// waymark: ${hint}\n`;
    const text = html
      ? partsToHtml({ text: q.question, code: q.code ?? null, image: q.image ?? null })
      : q.question;
    const prefix = html ? '[html]' : text.startsWith('[') ? '[plain]' : '';
    out += `::${giftEscape(shorten(q.question, 60))}::${prefix}${giftEscape(text)}`;
    const explanation = q.explanation.filter((e) => e.trim()).join('\n\n');
    const general = explanation ? `\t####${giftEscape(html ? textToHtml(explanation) : explanation)}\n` : '';
    if (TRUE_FALSE(q)) {
      out += `{${q.options[0]!.correct ? 'TRUE' : 'FALSE'}${general ? general.trim() : ''}}\n\n`;
      continue;
    }
    out += '{\n';
    const option = (value: string) =>
      hasImageOptions(q.type) ? giftEscape(`<img src="${escapeHtml(value)}" alt="">`) : inline(value);
    if (isTextAnswer(q.type)) {
      const numeric = q.options.every((o) => o.value.trim() !== '' && Number.isFinite(Number(o.value)));
      if (numeric) out = `${out.slice(0, -2)}{#\n`;
      for (const o of q.options) out += `\t=${numeric ? o.value.trim() : inline(o.value)}\n`;
    } else if (isMultiAnswer(q.type)) {
      const share = weight(q.options.filter((o) => o.correct).length);
      for (const o of q.options) out += `\t~%${o.correct ? share : '-100'}%${option(o.value)}\n`;
    } else {
      for (const o of q.options) out += `\t${o.correct ? '=' : '~'}${option(o.value)}\n`;
    }
    out += `${general}}\n\n`;
  }
  return out;
}
