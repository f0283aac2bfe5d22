/**
 * The catalogues as modules (decision 040). `import { english, loaders } from 'virtual:wm-messages'`
 * gives English compiled for Lingui's runtime, in the importer's own file, and a loader per other language
 * (Spanish, Arabic, the pseudo-locale) as a dynamic import: a file fetched only when that language is
 * asked for. shared/i18n/messages/*.json are compiled here, so no ICU parser reaches a browser.
 *
 * The portal and the tests get every message. The elements' build (`elements`) gives each element's entry
 * only the messages its own code names — the keys found in the files its entry reaches — in English and in
 * its language files, so one element's file never carries another's text.
 */
import { join } from 'node:path';
import { compileCatalogue, compilePseudo } from '../../shared/i18n/compile.mjs';
import {
  catalogueLocales,
  keysOfFiles,
  MESSAGES_DIR,
  moduleGraph,
  PSEUDO_LOCALE,
  readCatalogue,
} from './sources.mjs';

const ID = 'virtual:wm-messages';
const PREFIX = '\0wm-messages';

function compiled(locale, keys) {
  if (locale === PSEUDO_LOCALE) return compilePseudo(readCatalogue('en'), keys ?? undefined);
  const source = readCatalogue(locale);
  return compileCatalogue(source, keys ? [...keys].filter((k) => k in source) : undefined);
}

/** @param {{ elements?: Record<string, string> }} [options] */
export function messages(options = {}) {
  const byEntry = new Map(Object.entries(options.elements ?? {}).map(([name, file]) => [file, name]));
  const keysOf = new Map();
  const elementKeys = (name) => {
    let keys = keysOf.get(name);
    if (!keys) {
      const all = new Set(Object.keys(readCatalogue('en')));
      keys = keysOfFiles(moduleGraph(options.elements[name]), all);
      keysOf.set(name, keys);
    }
    return keys;
  };
  const files = () => catalogueLocales().map((l) => join(MESSAGES_DIR, `${l}.json`));
  return {
    name: 'waymark:messages',
    enforce: 'pre',
    buildStart() {
      keysOf.clear();
    },
    resolveId(source, importer) {
      if (source === ID) {
        if (!options.elements) return `${PREFIX}:all`;
        const name = importer ? byEntry.get(importer.split('?')[0]) : undefined;
        if (!name) this.error(`${ID} is imported by an element's entry only (not ${importer})`);
        return `${PREFIX}:${name}`;
      }
      return source.startsWith(PREFIX) ? source : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      for (const f of files()) this.addWatchFile(f);
      const [, scope, locale] = id.split(':');
      const keys = scope === 'all' ? null : elementKeys(scope);
      if (locale) return `export default ${JSON.stringify(compiled(locale, keys))};`;
      const lazy = [...catalogueLocales().filter((l) => l !== 'en'), PSEUDO_LOCALE];
      const loaders = lazy.map(
        (l) => `${JSON.stringify(l)}: () => import(${JSON.stringify(`${PREFIX}:${scope}:${l}`)})`,
      );
      return [
        `export const english = ${JSON.stringify(compiled('en', keys))};`,
        `export const loaders = {${loaders.join(', ')}};`,
      ].join('\n');
    },
  };
}
