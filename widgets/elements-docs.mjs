#!/usr/bin/env node
/**
 * Writes the tables of docs/embed.md (attributes and properties, events, parts, custom properties and
 * slots of each element) from the Custom Elements Manifest, which the analyzer makes from the elements'
 * header comments: the one place they are written (widgets/elements-manifest.mjs); and the design tokens'
 * table from widgets/ui/styles.css (widgets/embed/tokens.mjs).
 *   node widgets/elements-docs.mjs           rewrite them
 *   node widgets/elements-docs.mjs --check   exit 1 when docs/embed.md says something else (CI)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { analyze, withDocTables } from './elements-manifest.mjs';
import { designTokens, tokenTable } from './embed/tokens.mjs';

const file = new URL('../docs/embed.md', import.meta.url);
const before = readFileSync(file, 'utf8');
// the design tokens' table, from widgets/ui/styles.css, between its markers
const BEGIN = '<!-- wm-tokens: generated from widgets/ui/styles.css (node widgets/elements-docs.mjs) -->';
const END = '<!-- /wm-tokens -->';
const tokens = tokenTable(designTokens(readFileSync(new URL('./ui/styles.css', import.meta.url), 'utf8')));
const start = before.indexOf(BEGIN);
const end = before.indexOf(END);
if (start < 0 || end < 0) {
  console.error('✗ docs/embed.md has no place for the design tokens (their markers)');
  process.exit(1);
}
const withTokens = `${before.slice(0, start)}${BEGIN}\n${tokens}\n${END}${before.slice(end + END.length)}`;
const after = withDocTables(withTokens, analyze());
if (process.argv.includes('--check')) {
  if (after !== before) {
    console.error(
      "✗ docs/embed.md's element tables differ from the elements' header comments: run node widgets/elements-docs.mjs",
    );
    process.exit(1);
  }
  console.log("✓ docs/embed.md's element tables match custom-elements.json");
} else if (after !== before) {
  writeFileSync(file, after);
  console.log('✓ docs/embed.md: element tables rewritten from custom-elements.json');
} else console.log('✓ docs/embed.md is up to date');
