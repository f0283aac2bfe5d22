/**
 * The three award designs, drawn live in HTML, CSS and inline SVG (no file to load, so they also work on a
 * partner page and print): a feather (resource) as a quill card, a badge (section) as an emblem, a
 * certificate (roadmap or subject) as a framed landscape document. Each carries the learner, what was
 * achieved, the date, the issuer and the credential id. Sizes are in container units, so a design looks
 * the same at any width and renders to the same image (html2canvas on the award pages).
 *
 * The artwork is SVG markup written out here, with presentation attributes only: html2canvas draws an
 * inline SVG as a standalone image, where page styles do not reach; and the same markup renders alike
 * under React (the portal) and under Preact without compat (the lean <wm-award> file). No text of the
 * award goes into it.
 */

import type { Speaker } from '@shared/i18n/message';
import { SANDBOX_WORDS } from '@shared/rules/sandbox';
import { useId } from 'react';
import { Rich, useI18n } from '../core/i18n';
import type { AwardModel } from './model';

export interface AwardArtProps {
  model: AwardModel;
  /** The element to render to an image. */
  artRef?: { current: HTMLDivElement | null };
}

/** A font size (in container width units) that shrinks as the text grows, so long names keep to their box. */
export function fitSize(text: string, base: number, steps: [length: number, factor: number][]): string {
  let size = base;
  for (const [length, factor] of steps) if (text.length > length) size = base * factor;
  return `${Math.round(size * 100) / 100}cqw`;
}

const NAME_STEPS: [number, number][] = [
  [22, 0.85],
  [32, 0.7],
  [44, 0.56],
];
const TITLE_STEPS: [number, number][] = [
  [28, 0.86],
  [48, 0.72],
  [72, 0.6],
  [110, 0.5],
];

/** Ids unique on the page (several awards may share it), for the gradients of each SVG. */
function useSvgId() {
  return `wm${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
}

const f = (n: number) => n.toFixed(1);

/** Points of a star or rosette: `points` tips alternating between two radii. */
function star(cx: number, cy: number, outer: number, inner: number, points: number) {
  let out = '';
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 ? inner : outer;
    const a = ((-90 + (i * 180) / points) * Math.PI) / 180;
    out += `${f(cx + r * Math.cos(a))},${f(cy + r * Math.sin(a))} `;
  }
  return `<polygon points="${out.trim()}"`;
}

/** A linear gradient of evenly spaced colours. */
function gradient(id: string, direction: string, colours: string[]) {
  const stops = colours.map((c, i) => `<stop offset="${i / (colours.length - 1)}" stop-color="${c}"/>`);
  return `<linearGradient id="${id}" ${direction}>${stops.join('')}</linearGradient>`;
}
const DOWN = 'x1="0" y1="0" x2="0" y2="1"';
const DIAGONAL = 'x1="0" y1="0" x2="1" y2="1"';

/** An inline SVG; `className` sizes it. */
function Svg({ className, viewBox, body }: { className: string; viewBox: string; body: string }) {
  return (
    <span
      className={className}
      aria-hidden="true"
      // static artwork: built above from numbers and constants, never from the award's text
      // biome-ignore lint/security/noDangerouslySetInnerHtml: see the line above
      dangerouslySetInnerHTML={{
        __html: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}" width="100%" height="100%" focusable="false">${body}</svg>`,
      }}
    />
  );
}

const MARK =
  '<rect width="64" height="64" rx="14" fill="#3730a3"/><path d="M14 18l8 28 10-20 10 20 8-28" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>';

function Brand({ issuer }: { issuer: string }) {
  return (
    <p className="wm-art-brand">
      <Svg className="wm-art-mark" viewBox="0 0 64 64" body={MARK} />
      <span>{issuer}</span>
    </p>
  );
}

/** Date, issuer and credential id, the last lines of the feather and the badge. */
function Credential({ model }: { model: AwardModel }) {
  const { t } = useI18n();
  const facts: [string, string, boolean][] = [
    [t('award.issued'), model.issuedOn, false],
    [t('award.issuer'), model.issuer, false],
    [t('award.credentialId'), model.credentialId, true],
  ];
  return (
    <dl className="wm-art-facts">
      {facts.map(([term, value, isId]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd className={isId ? 'wm-art-id' : undefined} dir={isId ? 'ltr' : undefined}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Text for the artwork's markup: the catalogue's words, with XML's special characters escaped. */
const xmlText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function Achievement({ model, size }: { model: AwardModel; size: number }) {
  return (
    <>
      <p className="wm-art-achievement" style={{ fontSize: fitSize(model.achievement, size, TITLE_STEPS) }}>
        {model.achievement}
      </p>
      {model.partOf.length ? (
        <p className="wm-art-context">{model.partOf.map((p) => p.name).join(' · ')}</p>
      ) : null}
    </>
  );
}

// ------------------------------------------------------------------ feather

function quill(id: string) {
  let barbs = '';
  for (let i = 0; i < 15; i++) {
    const y = 34 + i * 11.5;
    const half = 30 * Math.sin((Math.PI * (y - 10)) / 200);
    const x = f(100 + (y - 10) * 0.02);
    barbs += `M${x} ${y}q${f(-half * 0.45)} -4 ${f(-half * 0.95)} -16M${x} ${y}q${f(half * 0.4)} -4 ${f(half * 0.78)} -14`;
  }
  return (
    `<defs><radialGradient id="${id}h"><stop offset="0" stop-color="#ccfbf1"/><stop offset=".7" stop-color="#f0fdfa"/><stop offset="1" stop-color="#f0fdfa" stop-opacity="0"/></radialGradient>` +
    gradient(`${id}v`, 'x1="0" y1="1" x2="1" y2="0"', ['#134e4a', '#0d9488', '#5eead4']) +
    gradient(`${id}s`, DOWN, ['#fef3c7', '#d97706']) +
    `</defs><circle cx="100" cy="130" r="100" fill="url(#${id}h)"/><g transform="rotate(24 100 130)">` +
    `<path d="M100 10C76 44 66 100 70 150c3 28 16 50 32 62 14-14 24-36 27-64 5-44-7-100-29-138Z" fill="url(#${id}v)"/>` +
    `<path d="${barbs}" stroke="#fff" stroke-opacity=".4" stroke-width="1.1" fill="none"/>` +
    '<path d="M69 112l15 9M129 86l-14 11M71 164l13 2M127 150l-12 4" stroke="#f0fdfa" stroke-width="3.2" stroke-linecap="round"/>' +
    '<path d="M101 200c-10 2-18 10-22 20M102 206c8 0 15 6 18 14M100 212c-6 4-9 10-10 18" stroke="#2dd4bf" stroke-width="1.6" stroke-linecap="round" fill="none"/>' +
    `<path d="M100 14Q106 120 102 212" stroke="url(#${id}s)" stroke-width="2.4" fill="none"/>` +
    '<path d="M102 208q-1 26-6 46" stroke="#92400e" stroke-width="4" stroke-linecap="round" fill="none"/></g>' +
    `${star(36, 58, 9, 2.6, 4)} fill="#d97706"/>${star(170, 200, 7, 2, 4)} fill="#d97706"/>${star(160, 40, 5, 1.5, 4)} fill="#0d9488"/>`
  );
}

function FeatherArt({ model }: AwardArtProps) {
  const id = useSvgId();
  const { t } = useI18n();
  return (
    <div className="wm-sheet wm-sheet-feather">
      <Brand issuer={model.issuer} />
      <Svg className="wm-quill" viewBox="0 0 200 260" body={quill(id)} />
      <p className="wm-art-kind">{model.kindLabel}</p>
      <Achievement model={model} size={6.4} />
      <p className="wm-art-to">{t('award.earnedBy')}</p>
      <p className="wm-art-learner" style={{ fontSize: fitSize(model.learner, 5.6, NAME_STEPS) }}>
        {model.learner}
      </p>
      <Credential model={model} />
    </div>
  );
}

// ------------------------------------------------------------------ badge

function emblem(id: string, ribbon: string) {
  const hex = (r: number) => star(120, 118, r, r, 3);
  return (
    `<defs>${gradient(`${id}g`, DIAGONAL, ['#f6dd8c', '#c8962e', '#f2d27a'])}${gradient(`${id}i`, DOWN, ['#6366f1', '#312e81'])}</defs>` +
    `${hex(112)} fill="url(#${id}g)"/>${hex(100)} fill="url(#${id}i)"/>${hex(90)} fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="1.5"/>` +
    `${star(78, 70, 7, 2.5, 4)} fill="#fde68a"/>${star(168, 84, 5, 1.8, 4)} fill="#fde68a"/>` +
    '<path d="M58 168 98 108l20 26 27-40 39 74Z" fill="#e0e7ff"/><path d="M98 108l-10 15 10-4 8 6ZM145 94l-12 17 12-5 10 7Z" fill="#fff"/>' +
    '<path d="M145 94V56" stroke="#fde68a" stroke-width="3" stroke-linecap="round"/><path d="M145 56l26 8-26 9Z" fill="#f59e0b"/>' +
    '<path d="M8 182h34v36H8l10-18ZM232 182h-34v36h34l-10-18Z" fill="#1e1b4b"/><path d="M30 172h180v36H30Z" fill="#312e81"/>' +
    '<path d="M30 208l12 10v-10ZM210 208l-12 10v-10Z" fill="#0f0d2e"/>' +
    `<text x="120" y="196" text-anchor="middle" fill="#fde68a" font-family="system-ui, sans-serif" font-size="15" font-weight="700" letter-spacing="3">${xmlText(ribbon)}</text>`
  );
}

function BadgeArt({ model }: AwardArtProps) {
  const id = useSvgId();
  const { t } = useI18n();
  return (
    <div className="wm-sheet wm-sheet-badge">
      <Brand issuer={model.issuer} />
      <Svg className="wm-emblem" viewBox="0 0 240 250" body={emblem(id, t('award.ribbon'))} />
      <p className="wm-art-kind">{t('award.kindEarned', { kind: model.kindLabel })}</p>
      <Achievement model={model} size={5.8} />
      <p className="wm-art-to">
        <Rich
          k="award.awardedTo"
          values={{ learner: model.learner }}
          components={{ 0: <strong style={{ fontSize: fitSize(model.learner, 4.2, NAME_STEPS) }} /> }}
        />
      </p>
      <Credential model={model} />
    </div>
  );
}

// ------------------------------------------------------------------ certificate

/** A wavy line for the certificate's guilloche bands. */
function wave(y: number, phase: number) {
  let d = '';
  for (let x = 200; x <= 1214; x += 8)
    d += `${d ? 'L' : 'M'}${x} ${f(y + 9 * Math.sin((2 * Math.PI * x) / 64 + phase))}`;
  return d;
}

function frame(id: string) {
  let bands = '';
  for (let k = 0; k < 6; k++) bands += wave(86, (k * Math.PI) / 3) + wave(914, (k * Math.PI) / 3);
  const corner = (transform: string) =>
    `<use href="#${id}c"${transform ? ` transform="${transform}"` : ''}/>`;
  return (
    `<defs>${gradient(`${id}g`, DIAGONAL, ['#a4761c', '#e9cf7a', '#a4761c'])}<g id="${id}c">` +
    `<path d="M56 150V56h94" fill="none" stroke="url(#${id}g)" stroke-width="3"/><circle cx="56" cy="56" r="22" fill="none" stroke="#b8892b" stroke-width="1.5"/>` +
    '<path d="M56 40l16 16-16 16-16-16Z" fill="#1e1b4b"/><path d="M78 78q34 0 46-30M78 78q0 34-30 46" fill="none" stroke="#b8892b" stroke-width="2"/>' +
    '<circle cx="124" cy="48" r="4" fill="#b8892b"/><circle cx="48" cy="124" r="4" fill="#b8892b"/></g></defs>' +
    '<rect x="14" y="14" width="1386" height="972" fill="none" stroke="#1e1b4b" stroke-width="16"/>' +
    `<rect x="34" y="34" width="1346" height="932" fill="none" stroke="url(#${id}g)" stroke-width="4"/>` +
    '<rect x="44" y="44" width="1326" height="912" fill="none" stroke="#b8892b" stroke-width="1"/>' +
    `<path d="${bands}" fill="none" stroke="#c8a24a" stroke-opacity=".45" stroke-width="1.2"/>` +
    corner('') +
    corner('matrix(-1 0 0 1 1414 0)') +
    corner('matrix(1 0 0 -1 0 1000)') +
    corner('matrix(-1 0 0 -1 1414 1000)') +
    '<path d="M547 330l60 210 100-200 100 200 60-210" fill="none" stroke="#3730a3" stroke-opacity=".045" stroke-width="46" stroke-linecap="round" stroke-linejoin="round"/>'
  );
}

function seal(id: string, ring: string) {
  return (
    `<defs>${gradient(`${id}g`, DIAGONAL, ['#f6dd8c', '#b8892b', '#f2d27a'])}<path id="${id}a" d="M100 42a58 58 0 1 1 0 116a58 58 0 1 1 0-116"/></defs>` +
    '<path d="M62 150 40 232l28-14 16 22 22-84ZM138 150l22 82-28-14-16 22-22-84Z" fill="#312e81"/>' +
    `${star(100, 100, 96, 86, 30)} fill="url(#${id}g)"/><circle cx="100" cy="100" r="76" fill="#1e1b4b"/>` +
    '<circle cx="100" cy="100" r="70" fill="none" stroke="#e9cf7a" stroke-width="1.5"/><circle cx="100" cy="100" r="44" fill="none" stroke="#e9cf7a" stroke-width="1"/>' +
    `<text fill="#f6dd8c" font-family="system-ui, sans-serif" font-size="13" font-weight="700" letter-spacing="4"><textPath href="#${id}a">${xmlText(ring)}</textPath></text>` +
    '<path d="M78 88l8 28 14-26 14 26 8-28" fill="none" stroke="#f6dd8c" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>'
  );
}

function CertificateArt({ model }: AwardArtProps) {
  const id = useSvgId();
  const { t } = useI18n();
  return (
    <div className="wm-sheet wm-sheet-certificate">
      <Svg className="wm-frame" viewBox="0 0 1414 1000" body={frame(`${id}f`)} />
      <div className="wm-cert-body">
        <Brand issuer={model.issuer} />
        <p className="wm-cert-title">{t('award.certificateTitle')}</p>
        <p className="wm-cert-subtitle">{t('award.certificateSubtitle')}</p>
        <p className="wm-cert-lead">{t('award.certifies')}</p>
        <p className="wm-art-learner" style={{ fontSize: fitSize(model.learner, 5.2, NAME_STEPS) }}>
          {model.learner}
        </p>
        <p className="wm-cert-statement">{t('award.certStatement', { scope: model.scope })}</p>
        <Achievement model={{ ...model, partOf: [] }} size={3.4} />
      </div>
      <div className="wm-cert-foot">
        <div className="wm-cert-sign">
          <span className="wm-cert-value">{model.issuedOn}</span>
          <span className="wm-cert-label">{t('award.dateOfIssue')}</span>
        </div>
        <Svg className="wm-seal" viewBox="0 0 200 240" body={seal(`${id}s`, t('award.sealRing'))} />
        <div className="wm-cert-sign">
          <span className="wm-cert-value wm-cert-signature">{model.issuer}</span>
          <span className="wm-cert-label">{t('award.issuer')}</span>
        </div>
      </div>
      <p className="wm-cert-id">
        <Rich
          k="award.credentialLine"
          values={{ id: model.credentialId, url: model.verifyUrl }}
          components={{ 0: <span className="wm-art-id" dir="ltr" />, 1: <span dir="ltr" /> }}
        />
      </p>
    </div>
  );
}

/** The award in one sentence: the live design's accessible name and the stored image's alt text. */
export function describeAward(model: AwardModel, speaker: Pick<Speaker, 't'>): string {
  return speaker.t('award.describe', {
    title: model.title,
    learner: model.learner,
    issuer: model.issuer,
    date: model.issuedOn,
    id: model.credentialId,
  });
}

const DESIGNS = { feather: FeatherArt, badge: BadgeArt, certificate: CertificateArt } as const;

/** Literal class names (the lean embed build keeps only the CSS rules whose classes its code names). */
export const ART_CLASSES = {
  feather: 'wm-art wm-art-feather',
  badge: 'wm-art wm-art-badge',
  certificate: 'wm-art wm-art-certificate',
} as const;

/** The award drawn live: the design of its kind, sized to the width it is given. */
export function AwardArt({ model, artRef }: AwardArtProps) {
  const i18n = useI18n();
  const Design = DESIGNS[model.kind];
  return (
    <div
      ref={artRef}
      className={ART_CLASSES[model.kind]}
      part="art"
      role="img"
      aria-label={describeAward(model, i18n)}
    >
      <Design model={model} />
      {model.sandbox ? <p className="wm-art-sandbox">{i18n.t(SANDBOX_WORDS.award)}</p> : null}
    </div>
  );
}
