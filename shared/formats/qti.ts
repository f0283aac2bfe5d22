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
 * This module opens the file or package (its manifest and LOM metadata, the files it holds); the items are read
 * by ./qti-items.ts. Written (./qti-write.ts): QTI 2.1 items in a content package, with images as files in it.
 */
import { said } from './problems';
import { type Meta, parser, readQtiText } from './qti-items';
import { EMBEDDED, emptyResult, type ReadResult, type RowError } from './record';
import { asArray, attrOf, parseXml, textOf, type XmlNode, xmlSyntaxError } from './xml';
import { readZip, ZIP_LIMITS, type ZipLimits } from './zip';

const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);

export const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

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
        ...said('import.problem.packageUnopened', { reason: zip.message }),
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
          ...said('import.problem.manifestMissingFile'),
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
        ...said('import.problem.noItems'),
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
