#!/usr/bin/env node
/**
 * The elements' public surface and the versioning policy of widgets/package/CHANGELOG.md, checked:
 * `widgets/package/api.json` records the surface of the latest release — each element's attributes (with
 * the values they take), properties, events (their `detail` fields and cancelability), parts, slots and
 * custom properties, and the design tokens — read from custom-elements.json and widgets/ui/styles.css.
 *
 *   node widgets/api-surface.mjs --check   (CI, scripts/check-published.mjs) fails when
 *       - a recorded name is gone, and the version's major number is the recorded one (a breaking change
 *         needs a major release);
 *       - the surface differs from the record, and the version is still the recorded one (a change needs
 *         a release: bump widgets/package/package.json, then --write);
 *       - CHANGELOG.md has no entry for the version.
 *   node widgets/api-surface.mjs --write   records the surface under the current version
 */
import { readFileSync, writeFileSync } from 'node:fs';

const here = (p) => new URL(p, import.meta.url);

/** The custom element declarations of a manifest (as elements-manifest.mjs reads them). */
const elementsOf = (manifest) =>
  manifest.modules.flatMap((mod) => (mod.declarations ?? []).filter((d) => d.customElement));

/** The quoted values of a type such as `'light' | 'dark'` (none for a plain string). */
const valuesOf = (type) => [...(type ?? '').matchAll(/'([^']*)'/g)].map((m) => m[1]);

/** The fields of an event's `CustomEvent<{ a: string; b?: number }>`, each with its type's literal values. */
function detailOf(typeText) {
  const body = /^CustomEvent<\{([\s\S]*)\}>$/.exec((typeText ?? '').trim())?.[1] ?? '';
  return Object.fromEntries(
    body
      .split(';')
      .map((f) => f.trim())
      .filter(Boolean)
      .map((f) => {
        const m = /^(\w+)\??:\s*([\s\S]+)$/.exec(f);
        return m ? [m[1], valuesOf(m[2])] : [f, []];
      }),
  );
}

/** The surface of a manifest and the tokens: names as sorted lists, so two surfaces compare as text. */
export function surfaceOf(manifest, tokens) {
  const elements = {};
  for (const el of elementsOf(manifest).sort((a, b) => a.tagName.localeCompare(b.tagName))) {
    elements[el.tagName] = {
      attributes: Object.fromEntries(
        (el.attributes ?? [])
          .map((a) => [a.name, valuesOf(a.type?.text)])
          .sort(([a], [b]) => a.localeCompare(b)),
      ),
      properties: (el.members ?? [])
        .filter((m) => m.kind === 'field')
        .map((m) => m.name)
        .sort(),
      events: Object.fromEntries(
        (el.events ?? [])
          .map((e) => [
            e.name,
            { detail: detailOf(e.type?.text), cancelable: /\*\*Cancelable\*\*/.test(e.description ?? '') },
          ])
          .sort(([a], [b]) => a.localeCompare(b)),
      ),
      parts: (el.cssParts ?? []).map((p) => p.name).sort(),
      slots: (el.slots ?? []).map((s) => s.name).sort(),
      cssProperties: (el.cssProperties ?? []).map((p) => p.name).sort(),
    };
  }
  return { elements, tokens: tokens.public.map((t) => t.name).sort() };
}

/**
 * What `current` lacks of `recorded` (each a path such as `wm-award attribute kind value 'badge'` or
 * `wm-test-taker event wm-state detail state`), and what it adds.
 */
export function compare(recorded, current) {
  const removed = [];
  const added = [];
  const list = (path, was, now) => {
    for (const x of was) if (!now.includes(x)) removed.push(`${path} ${x}`);
    for (const x of now) if (!was.includes(x)) added.push(`${path} ${x}`);
  };
  list('token', recorded.tokens, current.tokens);
  list('element', Object.keys(recorded.elements), Object.keys(current.elements));
  for (const [tag, was] of Object.entries(recorded.elements)) {
    const now = current.elements[tag];
    if (!now) continue;
    list(`${tag} attribute`, Object.keys(was.attributes), Object.keys(now.attributes));
    for (const [name, values] of Object.entries(was.attributes)) {
      // an attribute that took any text and now takes a list of values accepts less
      if (!now.attributes[name]) continue;
      if (!values.length && now.attributes[name].length) removed.push(`${tag} attribute ${name} any value`);
      else if (values.length && now.attributes[name].length)
        list(`${tag} attribute ${name} value`, values, now.attributes[name]);
    }
    list(`${tag} property`, was.properties, now.properties);
    list(`${tag} event`, Object.keys(was.events), Object.keys(now.events));
    for (const [name, event] of Object.entries(was.events)) {
      const nowEvent = now.events[name];
      if (!nowEvent) continue;
      list(`${tag} event ${name} detail`, Object.keys(event.detail), Object.keys(nowEvent.detail));
      if (event.cancelable && !nowEvent.cancelable) removed.push(`${tag} event ${name} cancelable`);
    }
    list(`${tag} part`, was.parts, now.parts);
    list(`${tag} slot`, was.slots, now.slots);
    list(`${tag} custom property`, was.cssProperties, now.cssProperties);
  }
  return { removed, added };
}

/** The problems of releasing `version` with `current`, given the record and the changelog's text. */
export function releaseProblems(record, current, version, changelog) {
  const problems = [];
  const { removed, added } = compare(record.surface, current);
  const major = (v) => Number(v.split('.')[0]);
  if (removed.length && major(version) <= major(record.version))
    problems.push(
      `removed from the surface of ${record.version} without a major version (CHANGELOG.md, "Versions and what counts as breaking"): ${removed.join('; ')}`,
    );
  if ((removed.length || added.length) && version === record.version)
    problems.push(
      `the surface changed but the version is still ${version}: bump widgets/package/package.json, add its CHANGELOG.md entry, then node widgets/api-surface.mjs --write (${[...removed.map((r) => `- ${r}`), ...added.map((a) => `+ ${a}`)].join('; ')})`,
    );
  if (!new RegExp(`^## ${version.replace(/\./g, '\\.')}\\b`, 'm').test(changelog))
    problems.push(`widgets/package/CHANGELOG.md has no entry "## ${version}"`);
  return problems;
}

async function main() {
  // the analyzer and the token reader, for the command only (the functions above are tested on their own)
  const { analyze } = await import('./elements-manifest.mjs');
  const { designTokens } = await import('./embed/tokens.mjs');
  const RECORD = here('./package/api.json');
  const version = JSON.parse(readFileSync(here('./package/package.json'), 'utf8')).version;
  const current = surfaceOf(analyze(), designTokens(readFileSync(here('./ui/styles.css'), 'utf8')));
  if (process.argv.includes('--write')) {
    writeFileSync(RECORD, `${JSON.stringify({ version, surface: current }, null, 2)}\n`);
    console.log(`✓ widgets/package/api.json: the surface of ${version}`);
    return;
  }
  const record = JSON.parse(readFileSync(RECORD, 'utf8'));
  const problems = releaseProblems(
    record,
    current,
    version,
    readFileSync(here('./package/CHANGELOG.md'), 'utf8'),
  );
  if (problems.length) {
    for (const p of problems) console.error(`✗ ${p}`);
    process.exit(1);
  }
  console.log(`✓ the elements' surface keeps every name of ${record.version} (version ${version})`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
