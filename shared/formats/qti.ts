/**
 * IMS Question & Test Interoperability, read and written.
 *
 * QTI 2.1 (IMS QTI v2.1 Information Model and XML binding): an `assessmentItem` with a
 * `responseDeclaration` (cardinality single or multiple, `correctResponse`, and a `mapping` where answers
 * carry weights) and an `itemBody` whose `choiceInteraction` (`prompt`, `simpleChoice`s, `maxChoices`)
 * or `textEntryInteraction` asks the question; `modalFeedback` is the explanation. Items come alone or in a
 * content package (a zip with `imsmanifest.xml`, whose LOM metadata carries keywords and a classification,
 * read as tags, subject and topic).
 *
 * QTI 1.2 as Canvas exports it (a zip or a `questestinterop` file): `item`s whose `qtimetadata` names the
 * `question_type` (multiple_choice_question, true_false_question, multiple_answers_question,
 * short_answer_question, numerical_question, …), whose `presentation` holds the text (`mattext`) and a
 * `response_lid` (`render_choice` of `response_label`s) or a `response_str`, and whose `resprocessing`
 * says which answers score (`varequal`, inside `and`/`not` for multiple answers; `vargte`/`varlte` for
 * numerical ranges). The general feedback (`itemfeedback ident="general_fb"`) is the explanation.
 *
 * Written: QTI 2.1 items in a content package, with images as files in it.
 */
import { zipSync } from 'fflate';
import { hasImageOptions, isMultiAnswer, isTextAnswer, typeNeedsHint } from '../rules/question-types';
import {
  blankRecord,
  type Choice,
  choiceRecord,
  formatNumber,
  hintsJson,
  numericRefusal,
  parseHints,
  partsOf,
  titleOf,
  type WaymarkHints,
} from './convert';
import { escapeHtml, type HtmlParts, htmlToParts, partsToHtml, textToHtml } from './html';
import type { EmbeddedImage } from './moodle-xml';
import {
  type BankQuestion,
  EMBEDDED,
  emptyResult,
  type ReadResult,
  type RowError,
  type SourceRecord,
  shorten,
} from './record';
import {
  asArray,
  attrOf,
  elementStarts,
  escapeXml,
  parseXml,
  textOf,
  type XmlNode,
  xmlParser,
  xmlSyntaxError,
} from './xml';
import { readZip, ZIP_LIMITS, type ZipLimits } from './zip';

const parser = xmlParser([
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

const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);

export const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

interface Meta {
  /** The classification's taxon path, outermost first (read as the category: subject, topic). */
  category?: string[];
  tags?: string[];
}

/**
 * Reads a QTI file: a 2.1 item, a 1.2 questestinterop document, or a zip package of either (opened within
 * the limits of ./zip.ts).
 */
export function readQti(input: Uint8Array | string, limits: ZipLimits = ZIP_LIMITS): ReadResult {
  const result = emptyResult();
  if (typeof input !== 'string' && isZip(input)) {
    const zip = readZip(input, limits);
    if (!zip.ok) {
      result.errors.push({
        line: 1,
        field: 'zip',
        message: `the package cannot be opened: ${zip.message}`,
        scope: 'file',
      });
      return result;
    }
    const { entries } = zip;
    const manifest = entries['imsmanifest.xml'];
    const meta = new Map<string, Meta>();
    let parts: string[];
    if (manifest) {
      const text = utf8(manifest).replace(/^\uFEFF/, '');
      const syntax = xmlSyntaxError(text, 'imsmanifest.xml');
      const read = syntax ? null : parseXml(parser, text, 'imsmanifest.xml');
      if (!read?.ok) {
        result.errors.push(syntax ?? (read as { error: RowError }).error);
        return result;
      }
      const doc = read.doc;
      const resources = asArray(((doc.manifest as XmlNode)?.resources as XmlNode)?.resource as XmlNode[]);
      const qti = resources.filter((r) => /^imsqti_/.test(attrOf(r, 'type') ?? ''));
      parts = qti
        .map((r) => attrOf(r, 'href') ?? attrOf(asArray(r.file as XmlNode[])[0], 'href') ?? '')
        .filter(Boolean);
      for (const r of qti) {
        const href = attrOf(r, 'href');
        if (href) meta.set(href, lomMeta(r.metadata as XmlNode | undefined));
      }
    } else parts = Object.keys(entries).filter((n) => /\.xml$/i.test(n) && !n.includes('/assessment_meta'));
    let item = 0;
    for (const part of parts) {
      const bytes = entries[part];
      if (!bytes) {
        result.errors.push({
          line: 1,
          part,
          field: 'package',
          message: 'the manifest names a file the package does not hold',
          scope: 'file',
        });
        continue;
      }
      const before = result.records.length;
      readQtiText(utf8(bytes).replace(/^\uFEFF/, ''), result, {
        part,
        resolve: (src) => resolveInZip(entries, part, src, result),
        meta: meta.get(part) ?? {},
      });
      for (const r of result.records.slice(before)) r.item = ++item;
    }
    if (!parts.length)
      result.errors.push({
        line: 1,
        field: 'package',
        message: 'the package holds no QTI items',
        scope: 'file',
      });
    return result;
  }
  const text = (typeof input === 'string' ? input : utf8(input)).replace(/^\uFEFF/, '');
  readQtiText(text, result, { resolve: (src) => src, meta: {} });
  return result;
}

function lomMeta(metadata: XmlNode | undefined): Meta {
  if (!metadata) return {};
  const lom = (metadata.lom as XmlNode) ?? {};
  const general = (lom.general as XmlNode) ?? {};
  const langString = (n: unknown) =>
    asArray((n as XmlNode)?.string as unknown[])
      .map(textOf)
      .join('')
      .trim();
  const tags = asArray(general.keyword as XmlNode[])
    .map(langString)
    .filter(Boolean);
  const path = asArray(asArray(lom.classification as XmlNode[])[0]?.taxonPath as XmlNode[])[0];
  const taxa = asArray(path?.taxon as XmlNode[]).map((t) => langString(t.entry));
  const category = taxa.filter(Boolean);
  return { ...(tags.length ? { tags } : {}), ...(category.length ? { category } : {}) };
}

function resolveInZip(
  entries: Record<string, Uint8Array>,
  part: string,
  src: string,
  result: ReadResult,
): string {
  if (/^(https?:|data:)/i.test(src)) return src;
  let path: string;
  if (src.startsWith('$IMS-CC-FILEBASE$/')) path = `web_resources/${src.slice('$IMS-CC-FILEBASE$/'.length)}`;
  else {
    const dir = part.includes('/') ? part.slice(0, part.lastIndexOf('/') + 1) : '';
    path = `${dir}${src}`;
  }
  path = decodeURIComponent(path.split('?')[0]!);
  const segments: string[] = [];
  for (const s of path.split('/')) {
    if (s === '..') segments.pop();
    else if (s && s !== '.') segments.push(s);
  }
  path = segments.join('/');
  const bytes = entries[path];
  if (!bytes) return src;
  result.files.set(path, bytes);
  return `${EMBEDDED}${path}`;
}

interface ReadContext {
  part?: string;
  resolve: (src: string) => string;
  meta: Meta;
}

function readQtiText(text: string, result: ReadResult, ctx: ReadContext) {
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

// ---- writing: QTI 2.1 items in a content package

const QTI_NS =
  'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.imsglobal.org/xsd/imsqti_v2p1 http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"';

/** One question as a QTI 2.1 assessmentItem (XHTML body; images by the given addresses). */
export function qtiItem(q: BankQuestion, image: (src: string) => string = (s) => s): string {
  const identifier = q.id
    ? `waymark-${q.id}`
    : `item-${shorten(q.question, 20).replace(/[^A-Za-z0-9]/g, '')}`;
  const hints: WaymarkHints = {};
  if (typeNeedsHint(q.type, Boolean(q.code))) hints.type = q.type;
  if (isTextAnswer(q.type) && q.points !== undefined && q.points !== 10) hints.points = q.points;
  const hint = hintsJson(hints);
  const stem = partsToHtml({
    text: q.question,
    code: q.code ?? null,
    image: q.image ? image(q.image) : null,
  });
  // QTI's XHTML wants closed empty elements
  const xhtml = (html: string) => html.replace(/<(br|img)\b([^>]*?)\s*\/?>/g, '<$1$2/>');
  const explanation = q.explanation.filter((e) => e.trim()).join('\n\n');
  const feedback = explanation
    ? `<modalFeedback outcomeIdentifier="completionStatus" identifier="completed" showHide="show">${xhtml(textToHtml(explanation))}</modalFeedback>`
    : '';
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  if (hint) lines.push(`<!-- waymark: ${hint} -->`);
  lines.push(
    `<assessmentItem ${QTI_NS} identifier="${escapeXml(identifier)}" title="${escapeXml(shorten(q.question, 60))}" adaptive="false" timeDependent="false">`,
  );
  if (isTextAnswer(q.type)) {
    const numeric = q.options.every((o) => o.value.trim() !== '' && Number.isFinite(Number(o.value)));
    const [first, ...others] = q.options;
    lines.push(
      `<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="${numeric ? 'float' : 'string'}">`,
      `<correctResponse><value>${escapeXml(first?.value ?? '')}</value></correctResponse>`,
      `<mapping defaultValue="0">${[first, ...others]
        .filter(Boolean)
        .map(
          (o) =>
            `<mapEntry mapKey="${escapeXml(o!.value)}" mappedValue="1"${numeric ? '' : ' caseSensitive="false"'}/>`,
        )
        .join('')}</mapping>`,
      '</responseDeclaration>',
      '<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"><defaultValue><value>0</value></defaultValue></outcomeDeclaration>',
      `<itemBody>${xhtml(stem)}<p><textEntryInteraction responseIdentifier="RESPONSE" expectedLength="20"/></p></itemBody>`,
      '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/>',
    );
  } else {
    const multiple = isMultiAnswer(q.type);
    const ids = q.options.map((_, i) => `choice${i + 1}`);
    const right = ids.filter((_, i) => q.options[i]!.correct);
    lines.push(
      `<responseDeclaration identifier="RESPONSE" cardinality="${multiple ? 'multiple' : 'single'}" baseType="identifier">`,
      `<correctResponse>${right.map((id) => `<value>${id}</value>`).join('')}</correctResponse>`,
      ...(multiple
        ? [
            `<mapping lowerBound="0" upperBound="1" defaultValue="0">${ids
              .map(
                (id, i) =>
                  `<mapEntry mapKey="${id}" mappedValue="${q.options[i]!.correct ? Number((1 / right.length).toFixed(5)) : -1}"/>`,
              )
              .join('')}</mapping>`,
          ]
        : []),
      '</responseDeclaration>',
      '<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"><defaultValue><value>0</value></defaultValue></outcomeDeclaration>',
      `<itemBody>${xhtml(stem)}<choiceInteraction responseIdentifier="RESPONSE" shuffle="true" maxChoices="${multiple ? 0 : 1}">${q.options
        .map((o, i) => {
          const content = hasImageOptions(q.type)
            ? `<img src="${escapeHtml(image(o.value))}" alt="Option ${i + 1}"/>`
            : xhtml(
                textToHtml(o.value)
                  .replace(/^<p>|<\/p>$/g, '')
                  .replace(/<\/p><p>/g, '<br/><br/>'),
              );
          return `<simpleChoice identifier="${ids[i]}">${content}</simpleChoice>`;
        })
        .join('')}</choiceInteraction></itemBody>`,
      `<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/${multiple ? 'map_response' : 'match_correct'}"/>`,
    );
  }
  if (feedback) lines.push(feedback);
  lines.push('</assessmentItem>', '');
  return lines.join('\n');
}

/** Questions as a QTI 2.1 content package (zip): one item file each, a manifest with their metadata, images. */
export function writeQtiPackage(
  questions: readonly BankQuestion[],
  opts: { images?: ReadonlyMap<string, EmbeddedImage>; title?: string } = {},
): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const enc = new TextEncoder();
  const resources: string[] = [];
  const used = new Set<string>();
  questions.forEach((q, i) => {
    const href = `items/item-${String(i + 1).padStart(5, '0')}.xml`;
    const deps: string[] = [];
    const image = (src: string) => {
      const e = opts.images?.get(src);
      if (!e) return src;
      let name = `images/${e.name}`;
      for (let n = 2; used.has(name) && files[name] !== e.bytes; n++) name = `images/${n}-${e.name}`;
      used.add(name);
      files[name] = e.bytes;
      deps.push(name);
      return `../${name}`;
    };
    files[href] = enc.encode(qtiItem(q, image));
    const lang = (s: string) => `<string language="en">${escapeXml(s)}</string>`;
    resources.push(
      `<resource identifier="R${i + 1}" type="imsqti_item_xmlv2p1" href="${href}"><metadata><lom xmlns="http://ltsc.ieee.org/xsd/LOM"><general><title>${lang(shorten(q.question, 60))}</title>${q.tags
        .map((t) => `<keyword>${lang(t)}</keyword>`)
        .join(
          '',
        )}</general><classification><purpose><source>LOMv1.0</source><value>discipline</value></purpose><taxonPath><source>${lang('Waymark')}</source><taxon><entry>${lang(q.subject)}</entry></taxon><taxon><entry>${lang(q.topic)}</entry></taxon></taxonPath></classification></lom></metadata><file href="${href}"/>${deps
        .map((d) => `<file href="${d}"/>`)
        .join('')}</resource>`,
    );
  });
  files['imsmanifest.xml'] = enc.encode(
    `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="waymark-export"><metadata><schema>QTIv2.1 Package</schema><schemaversion>1.0.0</schemaversion></metadata><organizations/><resources>
${resources.join('\n')}
</resources></manifest>
`,
  );
  return zipSync(files, { level: 6, mtime: new Date('2026-01-01T00:00:00Z') });
}
