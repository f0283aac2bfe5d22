/**
 * Every schema a module of shared/schemas exports under a PascalCase name is a named entity of the API
 * document: registered in `entities` at its definition (an export that re-exports or aliases a registered
 * schema counts). A new schema that forgets it would be written inline in docs/openapi.json, its
 * component silently gone.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { entities } from './entities';

/**
 * Schemas the document never writes as JSON: a download's body is the file (its content types say so).
 * Parameters (…Param, …Query, …Headers) are written as the call's parameters, not as components.
 */
const NOT_ENTITIES = new Set(['FileBody']);

const dir = fileURLToPath(new URL('.', import.meta.url));
const modules = readdirSync(dir).filter(
  (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'entities.ts',
);

describe('the named entities', () => {
  it.each(modules)('%s registers every PascalCase schema it exports', async (file) => {
    const mod = (await import(`./${file}`)) as Record<string, unknown>;
    const unnamed = Object.entries(mod)
      .filter(([name, value]) => /^[A-Z][A-Za-z0-9]+$/.test(name) && value instanceof z.ZodType)
      .filter(([name]) => !/Param$|Query$|Headers$/.test(name) && !NOT_ENTITIES.has(name))
      .filter(([, value]) => !entities.has(value as z.ZodType))
      .map(([name]) => name);
    expect(unnamed).toEqual([]);
  });
});
