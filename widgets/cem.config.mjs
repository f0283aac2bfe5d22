/**
 * The Custom Elements Manifest analyzer's settings (`cem analyze --config widgets/cem.config.mjs`, run by
 * widgets/elements-manifest.mjs): it reads each element's class and its header comment (JSDoc in the
 * Shoelace style: @tagname, @summary, @attr, @fires, @csspart, @cssprop, @slot) and writes
 * custom-elements.json. The plugin below describes what the wrapper (widgets/embed/define-element.tsx)
 * adds at run time and the analyzer cannot see, and names the published files instead of the sources.
 */
import { readFileSync } from 'node:fs';

const widgets = JSON.parse(readFileSync(new URL('./embed/widgets.json', import.meta.url), 'utf8'));
/** widgets/award/element.ts → award.js */
const FILES = Object.fromEntries(
  Object.entries(widgets).map(([name, w]) => [`widgets/${w.entry}`, `${name}.js`]),
);

const camel = (attribute) => attribute.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

/**
 * The codes of wm-error (`ERROR_CODES` of widgets/embed/failure.ts), written as `code: ErrorCode` in the
 * header comments: one list, so every element's typings name the same closed set.
 */
const ERROR_CODES = (() => {
  const source = readFileSync(new URL('./embed/failure.ts', import.meta.url), 'utf8');
  const list = /export const ERROR_CODES = \[([^\]]*)\]/.exec(source)?.[1];
  if (!list) throw new Error('widgets/embed/failure.ts: ERROR_CODES not found');
  return [...list.matchAll(/'([a-z-]+)'/g)].map((m) => `'${m[1]}'`).join(' | ');
})();

export function waymarkElements() {
  return {
    name: 'waymark-elements',
    packageLinkPhase({ customElementsManifest }) {
      customElementsManifest.modules = customElementsManifest.modules.filter((m) => FILES[m.path]);
      for (const mod of customElementsManifest.modules) {
        const file = FILES[mod.path];
        for (const decl of mod.declarations ?? []) {
          // `class WmAward extends widgetElement({…})`: an HTMLElement made by our wrapper, not a mixin
          delete decl.mixins;
          decl.superclass = { name: 'HTMLElement', package: 'global:' };
          // every attribute has a string property of its camelCase name (define-element.tsx)
          decl.members ??= [];
          for (const attribute of decl.attributes ?? []) {
            attribute.fieldName = camel(attribute.name);
            if (decl.members.some((m) => m.name === attribute.fieldName)) continue;
            decl.members.push({
              kind: 'field',
              name: attribute.fieldName,
              type: { text: `${attribute.type?.text ?? 'string'} | undefined` },
              description: `${attribute.description} (Reflects the \`${attribute.name}\` attribute; set before the element is defined, it is applied when it is.)`,
              attribute: attribute.name,
              reflects: true,
            });
          }
          for (const event of decl.events ?? []) {
            if (event.type?.text) event.type.text = event.type.text.replace(/\bErrorCode\b/, ERROR_CODES);
          }
          // @cssprop {<color>} --x: the type is the property's CSS syntax
          for (const prop of decl.cssProperties ?? []) {
            if (prop.type?.text) prop.syntax = prop.type.text;
            delete prop.type;
          }
        }
        mod.path = file;
        for (const e of mod.exports ?? []) if (e.declaration) e.declaration.module = file;
      }
    },
  };
}

export default {
  globs: Object.keys(FILES),
  // never write the manifest's path into the repository's package.json (the package gets its own)
  packagejson: false,
  plugins: [waymarkElements()],
};
