/**
 * Everything a partner's toolchain reads about the elements, made from ONE source — each element's class
 * and header comment, read by @custom-elements-manifest/analyzer (widgets/cem.config.mjs):
 * - `custom-elements.json`, the Custom Elements Manifest (IDEs, Storybook, documentation tools);
 * - TypeScript declarations: `index.d.ts` (each element's interface, its events, HTMLElementTagNameMap),
 *   `react.d.ts` (React 19's JSX.IntrinsicElements, with the events as `onwm-…` props, as React 19 adds
 *   them to custom elements), `vue.d.ts` (Vue's GlobalComponents, events as `@wm-…`);
 * - `vscode.html-custom-data.json`, VS Code's HTML custom data;
 * - the attribute, property, event, part and custom-property tables of docs/embed.md
 *   (`node widgets/elements-docs.mjs` writes them; `--check` fails when they drift).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Runs the analyzer; the manifest as an object. */
export function analyze() {
  const dir = mkdtempSync(join(root, '.tmp-cem-'));
  try {
    const res = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/@custom-elements-manifest/analyzer/cem.js'),
        'analyze',
        '--config',
        'widgets/cem.config.mjs',
        '--outdir',
        relative(root, dir),
        '--quiet',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    if (res.status !== 0) throw new Error(`cem analyze failed:\n${res.stderr}${res.stdout}`);
    return JSON.parse(readFileSync(join(dir, 'custom-elements.json'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The elements of a manifest: each custom element declaration with its module's path. */
export function elementsOf(manifest) {
  return manifest.modules.flatMap((mod) =>
    (mod.declarations ?? []).filter((d) => d.customElement).map((d) => ({ ...d, path: mod.path })),
  );
}

const pascal = (tag) => tag.replace(/(^|-)([a-z])/g, (_, _d, c) => c.toUpperCase());
const quote = (s) => JSON.stringify(s);
const doc = (text, indent = '') =>
  text ? `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\n/g, `\n${indent} * `)} */\n` : '';
const eventType = (e) => e.type?.text ?? 'CustomEvent';

const HEADER = (what) =>
  `// ${what}: generated from custom-elements.json by widgets/elements-manifest.mjs; do not edit.\n`;

/** index.d.ts: each element's interface, event map and attributes, and HTMLElementTagNameMap. */
export function typings(manifest) {
  let out = HEADER('Waymark elements');
  const tags = [];
  for (const el of elementsOf(manifest)) {
    const name = pascal(el.tagName);
    tags.push([el.tagName, `${name}Element`]);
    out += `\n/** The events of <${el.tagName}>, by name. */\nexport interface ${name}EventMap {\n`;
    for (const e of el.events ?? [])
      out += `${doc(e.description, '  ')}  ${quote(e.name)}: ${eventType(e)};\n`;
    out += '}\n\n';
    out += doc(`<${el.tagName}>: ${el.summary ?? ''}\n\n${el.description ?? ''}`.trim());
    out += `export interface ${name}Element extends HTMLElement {\n`;
    for (const m of (el.members ?? []).filter((x) => x.kind === 'field')) {
      out += `${doc(m.description, '  ')}  ${m.name}: ${m.type?.text ?? 'unknown'};\n`;
    }
    out += `  addEventListener<K extends keyof ${name}EventMap>(type: K, listener: (this: ${name}Element, event: ${name}EventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;\n`;
    out += `  addEventListener<K extends keyof HTMLElementEventMap>(type: K, listener: (this: ${name}Element, event: HTMLElementEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;\n`;
    out += `  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;\n`;
    out += `  removeEventListener<K extends keyof ${name}EventMap>(type: K, listener: (this: ${name}Element, event: ${name}EventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;\n`;
    out += `  removeEventListener<K extends keyof HTMLElementEventMap>(type: K, listener: (this: ${name}Element, event: HTMLElementEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;\n`;
    out += `  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;\n`;
    out += '}\n\n';
    out += `/** The attributes of <${el.tagName}> (kebab-case), and the camelCase properties frameworks set. */\nexport interface ${name}Attributes {\n`;
    for (const a of el.attributes ?? []) {
      const type = a.type?.text ?? 'string';
      out += `${doc(a.description, '  ')}  ${quote(a.name)}?: ${type};\n`;
      if (a.fieldName && a.fieldName !== a.name)
        out += `${doc(a.description, '  ')}  ${a.fieldName}?: ${type};\n`;
    }
    out += '}\n';
  }
  out += '\ndeclare global {\n  interface HTMLElementTagNameMap {\n';
  for (const [tag, type] of tags) out += `    ${quote(tag)}: ${type};\n`;
  out += '  }\n}\n';
  return out;
}

/** react.d.ts: React 19's JSX.IntrinsicElements, with each event as an `onwm-…` prop. */
export function reactTypings(manifest) {
  let out = `${HEADER('Waymark elements in React 19')}import type * as React from 'react';\nimport type {\n`;
  const els = elementsOf(manifest);
  for (const el of els) {
    const name = pascal(el.tagName);
    out += `  ${name}Attributes,\n  ${name}Element,\n  ${name}EventMap,\n`;
  }
  out += "} from './index.js';\n\n";
  out +=
    "/** React 19 passes a custom element's `on<event>` prop to addEventListener(<event>): `onwm-load` listens to wm-load. */\n";
  out += `type Listeners<M> = { [K in keyof M as \`on\${K & string}\`]?: (event: M[K]) => void };\n`;
  out +=
    'type Props<E extends HTMLElement, A, M> = React.DetailedHTMLProps<React.HTMLAttributes<E>, E> & A & Listeners<M>;\n\n';
  out += "declare module 'react' {\n  namespace JSX {\n    interface IntrinsicElements {\n";
  for (const el of els) {
    const name = pascal(el.tagName);
    out += `      ${quote(el.tagName)}: Props<${name}Element, ${name}Attributes, ${name}EventMap>;\n`;
  }
  out += '    }\n  }\n}\n\nexport {};\n';
  return out;
}

/** vue.d.ts: Vue 3's GlobalComponents, each element's attributes as props and its events as @wm-… */
export function vueTypings(manifest) {
  let out = `${HEADER('Waymark elements in Vue 3')}import type { DefineComponent, HTMLAttributes } from 'vue';\nimport type {\n`;
  const els = elementsOf(manifest);
  for (const el of els) {
    const name = pascal(el.tagName);
    out += `  ${name}Attributes,\n  ${name}EventMap,\n`;
  }
  out += "} from './index.js';\n\n";
  out += '/** `@wm-open-course` in a template listens through the `onWmOpenCourse` prop. */\n';
  out += `type Listeners<M> = { [K in keyof M as \`on\${Capitalize<CamelCase<K & string>>}\`]?: (event: M[K]) => void };\n`;
  out += `type CamelCase<S extends string> = S extends \`\${infer H}-\${infer T}\` ? \`\${H}\${Capitalize<CamelCase<T>>}\` : S;\n\n`;
  out += "declare module 'vue' {\n  interface GlobalComponents {\n";
  for (const el of els) {
    const name = pascal(el.tagName);
    out += `    ${quote(el.tagName)}: DefineComponent<HTMLAttributes & ${name}Attributes & Listeners<${name}EventMap>>;\n`;
  }
  out += '  }\n}\n\nexport {};\n';
  return out;
}

/** VS Code's HTML custom data (html.customData): tags, their attributes and values, with links. */
export function vscodeData(manifest, docsUrl) {
  return {
    $schema:
      'https://raw.githubusercontent.com/microsoft/vscode-html-languageservice/main/docs/customData.schema.json',
    version: 1.1,
    tags: elementsOf(manifest).map((el) => ({
      name: el.tagName,
      description: [el.summary, el.description].filter(Boolean).join('\n\n'),
      attributes: (el.attributes ?? []).map((a) => {
        const values = [...(a.type?.text ?? '').matchAll(/'([^']*)'/g)].map((m) => ({ name: m[1] }));
        return { name: a.name, description: a.description, ...(values.length ? { values } : {}) };
      }),
      references: [{ name: 'Embedding guide', url: `${docsUrl}#${el.tagName}` }],
    })),
  };
}

const cell = (s) => (s ?? '').replace(/\|/g, '\\|').replace(/\n+/g, ' ');
const code = (s) => `\`${s}\``;

/** The tables of one element, as docs/embed.md shows them. */
export function docTables(el) {
  const lines = [];
  lines.push('| attribute | property | meaning |', '|---|---|---|');
  for (const a of el.attributes ?? []) {
    lines.push(`| ${code(a.name)} | ${code(a.fieldName ?? a.name)} | ${cell(a.description)} |`);
  }
  // properties set from script only (no attribute)
  for (const m of (el.members ?? []).filter((x) => x.kind === 'field' && !x.attribute)) {
    lines.push(
      `| (none) | ${code(m.name)} | ${cell(`\`${m.type?.text ?? 'unknown'}\`. ${m.description ?? ''}`)} |`,
    );
  }
  lines.push('', '| event | `detail` | when |', '|---|---|---|');
  for (const e of el.events ?? []) {
    const detail = eventType(e).match(/^CustomEvent<([\s\S]*)>$/)?.[1] ?? '';
    lines.push(
      `| ${code(e.name)} | ${detail ? code(detail.replace(/\s+/g, ' ')).replace(/\|/g, '\\|') : ''} | ${cell(e.description)} |`,
    );
  }
  lines.push('', '| part | what |', '|---|---|');
  for (const p of el.cssParts ?? []) lines.push(`| ${code(p.name)} | ${cell(p.description)} |`);
  lines.push('', '| custom property | default | what |', '|---|---|---|');
  for (const p of el.cssProperties ?? []) {
    lines.push(`| ${code(p.name)} | ${p.default ? code(p.default) : ''} | ${cell(p.description)} |`);
  }
  if ((el.slots ?? []).length) {
    lines.push('', '| slot | what |', '|---|---|');
    for (const s of el.slots) lines.push(`| ${code(s.name)} | ${cell(s.description)} |`);
  } else lines.push('', 'Slots: none (the element renders everything itself).');
  return lines.join('\n');
}

const BEGIN = (tag) =>
  `<!-- ${tag}: generated from custom-elements.json (node widgets/elements-docs.mjs); edit the element's header comment -->`;
const END = (tag) => `<!-- /${tag} -->`;

/** docs/embed.md with every element's tables (between its markers) made from the manifest. */
export function withDocTables(markdown, manifest) {
  let out = markdown;
  for (const el of elementsOf(manifest)) {
    const block = `${BEGIN(el.tagName)}\n${docTables(el)}\n${END(el.tagName)}`;
    const start = out.indexOf(`<!-- ${el.tagName}: generated`);
    const end = out.indexOf(END(el.tagName));
    if (start < 0 || end < 0) throw new Error(`docs/embed.md has no place for the tables of <${el.tagName}>`);
    out = out.slice(0, start) + block + out.slice(end + END(el.tagName).length);
  }
  return out;
}
