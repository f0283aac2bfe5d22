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
  titleOf,
  type WaymarkHints,
} from './convert';
import { type HtmlParts, htmlToParts } from './html';
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
      message: 'neither a QTI 2.1 assessmentItem nor a QTI 1.2 questestinterop document',
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
  const doc = parsed.doc;
  const items = asArray(doc.assessmentItem as XmlNode[]);
  items.forEach((item, i) => {
    const start = starts[i] ?? { line: 1, comments: [] };
    const place = { line: start.line, ...(ctx.part ? { part: ctx.part } : {}) };
    result.total++;
    let hints: WaymarkHints = {};
    for (const c of start.comments) {
      const w = /^waymark:\s*(\{.*\})$/.exec(c);
      if (w) hints = parseHints(w[1]!);
    }
    const identifier = attrOf(item, 'identifier') ?? '';
    const title = attrOf(item, 'title');
    const body = textOf(item.itemBody);
    const unsupported = (kind: string, reason: string, t?: string) =>
      result.unsupported.push({ ...place, kind, reason, title: titleOf(title, t ?? '') });
    const interactions = [...body.matchAll(/<(\w+Interaction)\b/g)].map((m) => m[1]!);
    const kinds = new Set(interactions);
    const declarations = asArray(item.responseDeclaration as XmlNode[]);
    const explanation = asArray(item.modalFeedback as XmlNode[])
      .map((feedback) => htmlToParts(textOf(feedback)).text)
      .filter(Boolean)
      .join('\n\n');
    const sourceId = identifier.startsWith('waymark-')
      ? `waymark:${identifier.slice(8)}`
      : identifier
        ? `qti:${identifier}`
        : undefined;
    if (interactions.length !== 1 || !(kinds.has('choiceInteraction') || kinds.has('textEntryInteraction'))) {
      const other = interactions.find((k) => k !== 'choiceInteraction' && k !== 'textEntryInteraction');
      unsupported(
        other ?? (interactions.length ? 'several interactions' : 'no interaction'),
        other
          ? `QTI's ${other} has no Waymark equivalent (Waymark reads choiceInteraction and textEntryInteraction)`
          : interactions.length
            ? `the item has ${interactions.length} interactions; a Waymark question asks one thing`
            : 'the item asks nothing (no interaction)',
        htmlToParts(body).text,
      );
      return;
    }
    const decl = declarations[0];
    const correct = asArray((decl?.correctResponse as XmlNode)?.value as unknown[]).map((v) =>
      textOf(v).trim(),
    );
    const mapping = asArray((decl?.mapping as XmlNode)?.mapEntry as XmlNode[]).map((e) => ({
      key: attrOf(e, 'mapKey') ?? '',
      value: Number(attrOf(e, 'mappedValue') ?? '0'),
    }));
    const base = {
      ...(ctx.meta.tags?.length ? { tags: ctx.meta.tags } : {}),
      ...(explanation ? { explanation } : {}),
    };
    let built: ReturnType<typeof choiceRecord>;
    if (kinds.has('choiceInteraction')) {
      const ci = /<choiceInteraction\b([^>]*)>/.exec(body)!;
      const inner = innerXml(body, ci.index, 'choiceInteraction');
      const prompt = /<prompt\b[^>]*>([\s\S]*?)<\/prompt>/.exec(inner)?.[1] ?? '';
      const stemHtml = body.slice(0, ci.index) + prompt + body.slice(ci.index + ci[0].length + inner.length);
      const stem = resolved(htmlToParts(stemHtml.replace(/<\/choiceInteraction>/, '')), ctx);
      const max = Number(/maxChoices="(\d+)"/.exec(ci[1]!)?.[1] ?? '1');
      const multiple = decl ? attrOf(decl, 'cardinality') === 'multiple' : max !== 1;
      const choices: Choice[] = [...inner.matchAll(/<simpleChoice\b([^>]*)>([\s\S]*?)<\/simpleChoice>/g)].map(
        (m) => {
          const id = /identifier="([^"]*)"/.exec(m[1]!)?.[1] ?? '';
          const mapped = mapping.find((e) => e.key === id);
          const isRight = correct.includes(id) || (mapped ? mapped.value > 0 : false);
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
      built = choiceRecord(stem, choices, multiple ? 'multiple' : 'single', hints);
    } else {
      const baseType = decl ? attrOf(decl, 'baseType') : 'string';
      // an entry box alone in the last paragraph is where the answer goes; one inside a sentence is its blank
      const entry = /<textEntryInteraction\b[^>]*\/?>(<\/textEntryInteraction>)?/;
      const alone = /<p>\s*<textEntryInteraction\b[^>]*\/?>(<\/textEntryInteraction>)?\s*<\/p>\s*$/;
      const stem = resolved(
        htmlToParts(alone.test(body) ? body.replace(alone, '') : body.replace(entry, '_____')),
        ctx,
      );
      const top = Math.max(0, ...mapping.map((e) => e.value));
      const answers = [
        ...correct.map((v) => ({ value: v })),
        ...mapping
          .filter((e) => !correct.includes(e.key))
          .map((e) => ({ value: e.key, weight: top > 0 ? (e.value * 100) / top : 0 })),
      ];
      if (
        (baseType === 'float' || baseType === 'integer') &&
        answers.some((a) => !Number.isFinite(Number(a.value)))
      ) {
        result.errors.push({
          ...place,
          field: 'correctResponse',
          message: 'a numeric answer is not a number',
        });
        return;
      }
      built = blankRecord(stem, answers, hints);
    }
    if ('refusal' in built) {
      unsupported(built.refusal.kind, built.refusal.reason, htmlToParts(body).text);
      return;
    }
    pushRecord(result, {
      ...place,
      value: { ...built.record, ...base },
      ...(sourceId ? { sourceId } : {}),
      ...(ctx.meta.category ? { category: ctx.meta.category } : {}),
    });
  });
}

const pushRecord = (result: ReadResult, r: SourceRecord) => result.records.push(r);

const CANVAS_UNSUPPORTED: Record<string, string> = {
  essay_question: 'an essay is marked by a person; Waymark marks every answer itself',
  file_upload_question: 'a file upload is marked by a person; Waymark marks every answer itself',
  matching_question: 'a matching question pairs items; Waymark has no such type',
  text_only_question: 'a text-only item has no answer; Waymark holds questions only',
  fill_in_multiple_blanks_question:
    'several blanks in one question; a Waymark fill-in-blank question has one',
  multiple_dropdowns_question: 'several drop-downs in one question; Waymark asks one thing per question',
  calculated_question: 'a formula question draws numbers at random; Waymark has no such type',
  ordering_question: 'an ordering question; Waymark has no such type',
  categorization_question: 'a categorization question; Waymark has no such type',
};

function readQti12(text: string, result: ReadResult, ctx: ReadContext) {
  const starts = elementStarts(text, 'item');
  const parsed = parseXml(parser, text, ctx.part);
  if (!parsed.ok) {
    result.errors.push(parsed.error);
    return;
  }
  const doc = parsed.doc;
  const items: XmlNode[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node as XmlNode)) {
      if (k === 'item') items.push(...asArray(v as XmlNode[]));
      else if (!k.startsWith('@_') && k !== '#text') for (const child of asArray(v)) walk(child);
    }
  };
  walk(doc.questestinterop);
  items.forEach((item, i) => {
    const place = { line: starts[i]?.line ?? 1, ...(ctx.part ? { part: ctx.part } : {}) };
    result.total++;
    const fields = new Map(
      asArray(((item.itemmetadata as XmlNode)?.qtimetadata as XmlNode)?.qtimetadatafield as XmlNode[]).map(
        (f) => [textOf(f.fieldlabel).trim(), textOf(f.fieldentry).trim()],
      ),
    );
    const type = fields.get('question_type') ?? '';
    const title = attrOf(item, 'title');
    const presentation = (item.presentation as XmlNode) ?? {};
    const mattext = (material: unknown): HtmlParts => {
      const t = asArray((material as XmlNode)?.mattext as XmlNode[])[0];
      const textType = attrOf(t, 'texttype') ?? 'text/plain';
      return resolved(partsOf(textOf(t), textType === 'text/html' ? 'html' : 'plain'), ctx);
    };
    const stem = mattext(asArray(presentation.material as XmlNode[])[0]);
    const ident = attrOf(item, 'ident');
    const sourceId = fields.get('assessment_question_identifierref') || ident;
    const unsupported = (kind: string, reason: string) =>
      result.unsupported.push({ ...place, kind, reason, title: titleOf(title, stem.text) });
    if (CANVAS_UNSUPPORTED[type]) {
      unsupported(type.replace(/_question$/, '').replace(/_/g, ' '), CANVAS_UNSUPPORTED[type]!);
      return;
    }
    const feedback = asArray(item.itemfeedback as XmlNode[]).find((f) => attrOf(f, 'ident') === 'general_fb');
    const explanation = feedback
      ? mattext(asArray((feedback.flow_mat as XmlNode)?.material as XmlNode[])[0]).text
      : '';
    const conditions = asArray((item.resprocessing as XmlNode)?.respcondition as XmlNode[]);
    const scores = (c: XmlNode) => {
      const set = asArray(c.setvar as unknown[]).map((s) => Number(textOf(s).trim()));
      return set.some((n) => n > 0);
    };
    /** The answer ids a condition requires (varequal, directly or inside and/or, not under not). */
    const required = (node: unknown, negated = false): string[] => {
      if (!node || typeof node !== 'object') return [];
      const out: string[] = [];
      for (const [k, v] of Object.entries(node as XmlNode)) {
        if (k === 'varequal' && !negated) out.push(...asArray(v as unknown[]).map((x) => textOf(x).trim()));
        else if (k === 'not') for (const c of asArray(v)) required(c, true);
        else if (k === 'and' || k === 'or') for (const c of asArray(v)) out.push(...required(c, negated));
      }
      return out;
    };
    const base = { ...(explanation ? { explanation } : {}) };
    let built: ReturnType<typeof choiceRecord>;
    if (['multiple_choice_question', 'true_false_question', 'multiple_answers_question'].includes(type)) {
      const lid =
        asArray(presentation.response_lid as XmlNode[])[0] ?? (presentation.response_lid as XmlNode);
      const labels = asArray((lid?.render_choice as XmlNode)?.response_label as XmlNode[]);
      const right = new Set(conditions.filter(scores).flatMap((c) => required(c.conditionvar)));
      const choices: Choice[] = labels.map((l) => ({
        parts: mattext(asArray(l.material as XmlNode[])[0]),
        correct: right.has(attrOf(l, 'ident') ?? ''),
      }));
      built = choiceRecord(stem, choices, type === 'multiple_answers_question' ? 'multiple' : 'single');
    } else if (type === 'short_answer_question') {
      const answers = conditions.filter(scores).flatMap((c) => required(c.conditionvar));
      built = blankRecord(
        stem,
        [...new Set(answers)].map((value) => ({ value })),
      );
    } else if (type === 'numerical_question') {
      const nums: { value: number; tolerance: number; range?: [number, number] }[] = [];
      for (const c of conditions.filter(scores)) {
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
      const refusal = numericRefusal(nums);
      built = refusal
        ? { refusal }
        : blankRecord(
            stem,
            [...new Set(nums.map((n) => formatNumber(n.value)))].map((value) => ({ value })),
          );
    } else {
      unsupported(type || 'item', `Canvas's “${type || 'unknown'}” question type has no Waymark equivalent`);
      return;
    }
    if ('refusal' in built) {
      unsupported(built.refusal.kind, built.refusal.reason);
      return;
    }
    pushRecord(result, {
      ...place,
      value: { ...built.record, ...base },
      ...(sourceId ? { sourceId: `canvas:${sourceId}` } : {}),
    });
  });
}
