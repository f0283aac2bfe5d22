/**
 * One QTI document's items, read (./qti.ts opens the file or package and describes both versions): a QTI 2.1
 * `assessmentItem`, or a QTI 1.2 `questestinterop` document as Canvas exports it.
 */
import {
  blankRecord,
  type Choice,
  choiceRecord,
  formatNumber,
  numericRefusal,
  parseHints,
  partsOf,
  type Refusal,
  titleOf,
  type WaymarkHints,
} from './convert';
import { type HtmlParts, htmlToParts } from './html';
import { type ProblemCode, refusal, type Said, said } from './problems';
import type { ReadResult, SourceRecord } from './record';
import {
  asArray,
  attrOf,
  elementStarts,
  parseXml,
  textOf,
  type XmlNode,
  xmlParser,
  xmlSyntaxError,
} from './xml';

export const parser = xmlParser([
  'item',
  'section',
  'assessmentItem',
  'responseDeclaration',
  'simpleChoice',
  'value',
  'mapEntry',
  'modalFeedback',
  'qtimetadatafield',
  'response_label',
  'respcondition',
  'varequal',
  'itemfeedback',
  'resource',
  'file',
  'keyword',
  'taxon',
  'taxonPath',
  'classification',
  'string',
  'material',
  'mattext',
]);

/** QTI 2.1's parser: the elements whose content is XHTML are kept as markup, not parsed (stopNodes). */
const rawParser = xmlParser(
  ['assessmentItem', 'responseDeclaration', 'value', 'mapEntry', 'modalFeedback'],
  ['*.itemBody', '*.modalFeedback'],
);

export interface Meta {
  /** The classification's taxon path, outermost first (read as the category: subject, topic). */
  category?: string[];
  tags?: string[];
}

interface ReadContext {
  part?: string;
  resolve: (src: string) => string;
  meta: Meta;
}

export function readQtiText(text: string, result: ReadResult, ctx: ReadContext) {
  const syntax = xmlSyntaxError(text, ctx.part);
  if (syntax) {
    result.errors.push(syntax);
    return;
  }
  if (/<assessmentItem[\s>]/.test(text)) readQti21(text, result, ctx);
  else if (/<questestinterop[\s>]/.test(text)) readQti12(text, result, ctx);
  else if (/<assessmentTest[\s>]/.test(text)) return;
  else
    result.errors.push({
      line: 1,
      ...(ctx.part ? { part: ctx.part } : {}),
      field: 'QTI',
      ...said('import.problem.qtiNotItem'),
      scope: 'file',
    });
}

const resolved = (parts: HtmlParts, ctx: ReadContext): HtmlParts => ({
  ...parts,
  images: parts.images.map(ctx.resolve),
});

/** The XHTML between an element's start and end tags in the source. */
function innerXml(src: string, from: number, name: string): string {
  const start = src.indexOf('>', from) + 1;
  let depth = 1;
  const re = new RegExp(`<(/?)(?:[A-Za-z_][\\w.-]*:)?${name}\\b[^>]*?(/?)>`, 'g');
  re.lastIndex = start;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    if (m[2]) continue;
    depth += m[1] ? -1 : 1;
    if (depth === 0) return src.slice(start, m.index);
  }
  return src.slice(start);
}

function readQti21(text: string, result: ReadResult, ctx: ReadContext) {
  const starts = elementStarts(text, 'assessmentItem');
  const parsed = parseXml(rawParser, text, ctx.part);
  if (!parsed.ok) {
    result.errors.push(parsed.error);
    return;
  }
  asArray(parsed.doc.assessmentItem as XmlNode[]).forEach((item, i) => {
    readItem21(item, starts[i] ?? { line: 1, comments: [] }, result, ctx);
  });
}

type Built = ReturnType<typeof choiceRecord>;

/** What a 2.1 item's interaction is answered with: its response declaration, read. */
interface Response21 {
  decl: XmlNode | undefined;
  correct: string[];
  mapping: { key: string; value: number }[];
}

function response21(item: XmlNode): Response21 {
  const decl = asArray(item.responseDeclaration as XmlNode[])[0];
  const correct = asArray((decl?.correctResponse as XmlNode)?.value as unknown[]).map((v) =>
    textOf(v).trim(),
  );
  const mapping = asArray((decl?.mapping as XmlNode)?.mapEntry as XmlNode[]).map((e) => ({
    key: attrOf(e, 'mapKey') ?? '',
    value: Number(attrOf(e, 'mappedValue') ?? '0'),
  }));
  return { decl, correct, mapping };
}

/** Why an item is not one Waymark reads (one choiceInteraction or textEntryInteraction), or null. */
function interactionRefusal(body: string): NonNullable<Refusal> | null {
  const interactions = [...body.matchAll(/<(\w+Interaction)\b/g)].map((m) => m[1]!);
  const kinds = new Set(interactions);
  if (interactions.length === 1 && (kinds.has('choiceInteraction') || kinds.has('textEntryInteraction')))
    return null;
  const other = interactions.find((k) => k !== 'choiceInteraction' && k !== 'textEntryInteraction');
  if (other) return refusal(other, 'import.problem.qtiInteraction', { name: other });
  return interactions.length
    ? refusal('several interactions', 'import.problem.qtiInteractions', { count: interactions.length })
    : refusal('no interaction', 'import.problem.qtiNoInteraction');
}

/** A choiceInteraction: its prompt joins the item's text; mapped values are weights. */
function choice21(body: string, r: Response21, ctx: ReadContext, hints: WaymarkHints): Built {
  const ci = /<choiceInteraction\b([^>]*)>/.exec(body)!;
  const inner = innerXml(body, ci.index, 'choiceInteraction');
  const prompt = /<prompt\b[^>]*>([\s\S]*?)<\/prompt>/.exec(inner)?.[1] ?? '';
  const stemHtml = body.slice(0, ci.index) + prompt + body.slice(ci.index + ci[0].length + inner.length);
  const stem = resolved(htmlToParts(stemHtml.replace(/<\/choiceInteraction>/, '')), ctx);
  const max = Number(/maxChoices="(\d+)"/.exec(ci[1]!)?.[1] ?? '1');
  const multiple = r.decl ? attrOf(r.decl, 'cardinality') === 'multiple' : max !== 1;
  const choices: Choice[] = [...inner.matchAll(/<simpleChoice\b([^>]*)>([\s\S]*?)<\/simpleChoice>/g)].map(
    (m) => {
      const id = /identifier="([^"]*)"/.exec(m[1]!)?.[1] ?? '';
      const mapped = r.mapping.find((e) => e.key === id);
      const isRight = r.correct.includes(id) || (mapped ? mapped.value > 0 : false);
      return {
        parts: resolved(htmlToParts(m[2]!), ctx),
        correct: isRight,
        ...(mapped ? { weight: mapped.value } : {}),
      };
    },
  );
  // mapped values are marks, not percent: compare them as shares of the right ones
  const rightWeights = choices.filter((c) => c.correct && c.weight !== undefined).map((c) => c.weight!);
  const total = rightWeights.reduce((a, b) => a + b, 0);
  if (total > 0) for (const c of choices) if (c.weight !== undefined) c.weight = (c.weight * 100) / total;
  return choiceRecord(stem, choices, multiple ? 'multiple' : 'single', hints);
}

/** A textEntryInteraction: its accepted answers; a numeric one must be numbers. */
function textEntry21(body: string, r: Response21, ctx: ReadContext, hints: WaymarkHints): Built | Said {
  const baseType = r.decl ? attrOf(r.decl, 'baseType') : 'string';
  // an entry box alone in the last paragraph is where the answer goes; one inside a sentence is its blank
  const entry = /<textEntryInteraction\b[^>]*\/?>(<\/textEntryInteraction>)?/;
  const alone = /<p>\s*<textEntryInteraction\b[^>]*\/?>(<\/textEntryInteraction>)?\s*<\/p>\s*$/;
  const stem = resolved(
    htmlToParts(alone.test(body) ? body.replace(alone, '') : body.replace(entry, '_____')),
    ctx,
  );
  const top = Math.max(0, ...r.mapping.map((e) => e.value));
  const answers = [
    ...r.correct.map((v) => ({ value: v })),
    ...r.mapping
      .filter((e) => !r.correct.includes(e.key))
      .map((e) => ({ value: e.key, weight: top > 0 ? (e.value * 100) / top : 0 })),
  ];
  if (
    (baseType === 'float' || baseType === 'integer') &&
    answers.some((a) => !Number.isFinite(Number(a.value)))
  )
    return said('import.problem.numericNotNumber');
  return blankRecord(stem, answers, hints);
}

/** The id a QTI 2.1 item keeps: `waymark-…` as Waymark writes it, else the item's own identifier. */
const sourceId21 = (identifier: string) =>
  identifier.startsWith('waymark-')
    ? `waymark:${identifier.slice(8)}`
    : identifier
      ? `qti:${identifier}`
      : undefined;

function readItem21(
  item: XmlNode,
  start: { line: number; comments: string[] },
  result: ReadResult,
  ctx: ReadContext,
) {
  const place = { line: start.line, ...(ctx.part ? { part: ctx.part } : {}) };
  result.total++;
  let hints: WaymarkHints = {};
  for (const c of start.comments) {
    const w = /^waymark:\s*(\{.*\})$/.exec(c);
    if (w) hints = parseHints(w[1]!);
  }
  const body = textOf(item.itemBody);
  const title = () => titleOf(attrOf(item, 'title'), htmlToParts(body).text);
  const refused = interactionRefusal(body);
  if (refused) {
    result.unsupported.push({ ...place, ...refused, title: title() });
    return;
  }
  const response = response21(item);
  const built = /<choiceInteraction\b/.test(body)
    ? choice21(body, response, ctx, hints)
    : textEntry21(body, response, ctx, hints);
  if ('message' in built) {
    result.errors.push({ ...place, field: 'correctResponse', ...built });
    return;
  }
  if ('refusal' in built) {
    result.unsupported.push({ ...place, ...built.refusal, title: title() });
    return;
  }
  const explanation = asArray(item.modalFeedback as XmlNode[])
    .map((feedback) => htmlToParts(textOf(feedback)).text)
    .filter(Boolean)
    .join('\n\n');
  const sourceId = sourceId21(attrOf(item, 'identifier') ?? '');
  pushRecord(result, {
    ...place,
    value: {
      ...built.record,
      ...(ctx.meta.tags?.length ? { tags: ctx.meta.tags } : {}),
      ...(explanation ? { explanation } : {}),
    },
    ...(sourceId ? { sourceId } : {}),
    ...(ctx.meta.category ? { category: ctx.meta.category } : {}),
  });
}

const pushRecord = (result: ReadResult, r: SourceRecord) => result.records.push(r);

/** Canvas's question types Waymark cannot hold, and why. */
const CANVAS_UNSUPPORTED: Record<string, ProblemCode> = {
  essay_question: 'import.problem.essay',
  file_upload_question: 'import.problem.fileUpload',
  matching_question: 'import.problem.matching',
  text_only_question: 'import.problem.textOnly',
  fill_in_multiple_blanks_question: 'import.problem.blanks',
  multiple_dropdowns_question: 'import.problem.dropdowns',
  calculated_question: 'import.problem.calculated',
  ordering_question: 'import.problem.ordering',
  categorization_question: 'import.problem.categorization',
};

function readQti12(text: string, result: ReadResult, ctx: ReadContext) {
  const starts = elementStarts(text, 'item');
  const parsed = parseXml(parser, text, ctx.part);
  if (!parsed.ok) {
    result.errors.push(parsed.error);
    return;
  }
  const items: XmlNode[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node as XmlNode)) {
      if (k === 'item') items.push(...asArray(v as XmlNode[]));
      else if (!k.startsWith('@_') && k !== '#text') for (const child of asArray(v)) walk(child);
    }
  };
  walk(parsed.doc.questestinterop);
  items.forEach((item, i) => {
    readItem12(item, starts[i]?.line ?? 1, result, ctx);
  });
}

/** A QTI 1.2 item's material as text and images (`mattext`, plain or HTML). */
const mattextOf =
  (ctx: ReadContext) =>
  (material: unknown): HtmlParts => {
    const t = asArray((material as XmlNode)?.mattext as XmlNode[])[0];
    const textType = attrOf(t, 'texttype') ?? 'text/plain';
    return resolved(partsOf(textOf(t), textType === 'text/html' ? 'html' : 'plain'), ctx);
  };

/** Whether a response condition gives marks. */
const scores = (c: XmlNode) => asArray(c.setvar as unknown[]).some((s) => Number(textOf(s).trim()) > 0);

/** The answer ids a condition requires (varequal, directly or inside and/or, not under not). */
function required(node: unknown, negated = false): string[] {
  if (!node || typeof node !== 'object') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(node as XmlNode)) {
    if (k === 'varequal' && !negated) out.push(...asArray(v as unknown[]).map((x) => textOf(x).trim()));
    else if (k === 'not') for (const c of asArray(v)) required(c, true);
    else if (k === 'and' || k === 'or') for (const c of asArray(v)) out.push(...required(c, negated));
  }
  return out;
}

/** What the readers of a Canvas item's answers are given. */
interface Item12 {
  type: string;
  stem: HtmlParts;
  presentation: XmlNode;
  /** The conditions that give marks. */
  scoring: XmlNode[];
  mattext: (material: unknown) => HtmlParts;
}

/** Multiple choice, true/false and multiple answers: the labels the scoring conditions require are right. */
function choices12(it: Item12): Built {
  const p = it.presentation;
  const lid = asArray(p.response_lid as XmlNode[])[0] ?? (p.response_lid as XmlNode);
  const labels = asArray((lid?.render_choice as XmlNode)?.response_label as XmlNode[]);
  const right = new Set(it.scoring.flatMap((c) => required(c.conditionvar)));
  const choices: Choice[] = labels.map((l) => ({
    parts: it.mattext(asArray(l.material as XmlNode[])[0]),
    correct: right.has(attrOf(l, 'ident') ?? ''),
  }));
  return choiceRecord(it.stem, choices, it.type === 'multiple_answers_question' ? 'multiple' : 'single');
}

function shortAnswer12(it: Item12): Built {
  const answers = it.scoring.flatMap((c) => required(c.conditionvar));
  return blankRecord(
    it.stem,
    [...new Set(answers)].map((value) => ({ value })),
  );
}

/** The numbers a numerical question's conditions accept: exact, or a range (refused). */
function numerical12(it: Item12): Built {
  const nums: { value: number; tolerance: number; range?: [number, number] }[] = [];
  for (const c of it.scoring) {
    const cv = c.conditionvar as XmlNode;
    const alternatives = cv?.or ? asArray(cv.or as XmlNode[]).flatMap((o) => [o]) : [cv];
    for (const alt of alternatives) {
      const exact = asArray(alt?.varequal as unknown[]).map((v) => Number(textOf(v).trim()));
      const ands = asArray(alt?.and as XmlNode[]);
      for (const a of ands.length ? ands : [alt]) {
        const lo = textOf(a?.vargte ?? a?.vargt).trim();
        const hi = textOf(a?.varlte ?? a?.varlt).trim();
        if (lo !== '' && hi !== '') {
          const l = Number(lo);
          const h = Number(hi);
          if (l === h) nums.push({ value: l, tolerance: 0 });
          else nums.push({ value: (l + h) / 2, tolerance: (h - l) / 2, range: [l, h] });
        }
      }
      for (const e of exact)
        if (!nums.some((n) => n.value === e && n.tolerance === 0)) nums.push({ value: e, tolerance: 0 });
    }
  }
  const refused = numericRefusal(nums);
  return refused
    ? { refusal: refused }
    : blankRecord(
        it.stem,
        [...new Set(nums.map((n) => formatNumber(n.value)))].map((value) => ({ value })),
      );
}

/** Canvas's question types Waymark reads, and their readers. */
const CANVAS_READERS: Record<string, (it: Item12) => Built> = {
  multiple_choice_question: choices12,
  true_false_question: choices12,
  multiple_answers_question: choices12,
  short_answer_question: shortAnswer12,
  numerical_question: numerical12,
};

function readItem12(item: XmlNode, line: number, result: ReadResult, ctx: ReadContext) {
  const place = { line, ...(ctx.part ? { part: ctx.part } : {}) };
  result.total++;
  const fields = new Map(
    asArray(((item.itemmetadata as XmlNode)?.qtimetadata as XmlNode)?.qtimetadatafield as XmlNode[]).map(
      (f) => [textOf(f.fieldlabel).trim(), textOf(f.fieldentry).trim()],
    ),
  );
  const type = fields.get('question_type') ?? '';
  const mattext = mattextOf(ctx);
  const presentation = (item.presentation as XmlNode) ?? {};
  const stem = mattext(asArray(presentation.material as XmlNode[])[0]);
  const unsupported = (refused: NonNullable<Refusal>) =>
    result.unsupported.push({ ...place, ...refused, title: titleOf(attrOf(item, 'title'), stem.text) });
  const cannot = CANVAS_UNSUPPORTED[type];
  if (cannot) {
    unsupported(refusal(type.replace(/_question$/, '').replace(/_/g, ' '), cannot));
    return;
  }
  const reader = Object.hasOwn(CANVAS_READERS, type) ? CANVAS_READERS[type] : undefined;
  if (!reader) {
    unsupported(refusal(type || 'item', 'import.problem.canvasType', { type: type || 'unknown' }));
    return;
  }
  const conditions = asArray((item.resprocessing as XmlNode)?.respcondition as XmlNode[]);
  const built = reader({ type, stem, presentation, scoring: conditions.filter(scores), mattext });
  if ('refusal' in built) {
    unsupported(built.refusal);
    return;
  }
  const feedback = asArray(item.itemfeedback as XmlNode[]).find((f) => attrOf(f, 'ident') === 'general_fb');
  const explanation = feedback
    ? mattext(asArray((feedback.flow_mat as XmlNode)?.material as XmlNode[])[0]).text
    : '';
  const sourceId = fields.get('assessment_question_identifierref') || attrOf(item, 'ident');
  pushRecord(result, {
    ...place,
    value: { ...built.record, ...(explanation ? { explanation } : {}) },
    ...(sourceId ? { sourceId: `canvas:${sourceId}` } : {}),
  });
}
