/**
 * QTI 2.1 written: each question as an `assessmentItem`, in a content package (a zip with `imsmanifest.xml`
 * whose LOM metadata carries the tags, subject and topic) with images as files in it. ./qti.ts reads it back.
 */
import { zipSync } from 'fflate';
import { hasImageOptions, isMultiAnswer, isTextAnswer, typeNeedsHint } from '../rules/question-types';
import { hintsJson, type WaymarkHints } from './convert';
import { escapeHtml, partsToHtml, textToHtml } from './html';
import type { EmbeddedImage } from './moodle-xml';
import { type BankQuestion, shorten } from './record';
import { escapeXml } from './xml';

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
