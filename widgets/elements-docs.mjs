#!/usr/bin/env node
/**
 * Writes the tables of docs/embed.md (attributes and properties, events, parts, custom properties of each
 * element) from the Custom Elements Manifest, which the analyzer makes from the elements' header
 * comments: the one place they are written (widgets/elements-manifest.mjs).
 *   node widgets/elements-docs.mjs           rewrite them
 *   node widgets/elements-docs.mjs --check   exit 1 when docs/embed.md says something else (CI)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { analyze, withDocTables } from './elements-manifest.mjs';

const file = new URL('../docs/embed.md', import.meta.url);
const before = readFileSync(file, 'utf8');
const after = withDocTables(before, analyze());
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
