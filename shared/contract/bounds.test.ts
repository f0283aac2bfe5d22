/**
 * Every number, list and text a caller sends has a sensible upper bound in the contract, so an extreme value
 * (9007199254740991 seconds, a page number of 10^15, a million-item list) is a 400 naming the field, never
 * a crash in a handler ('Invalid time value') or an unbounded query. It reads each call's params, query and
 * body as the JSON Schema the OpenAPI document shows (what callers are told), so a new call or field without
 * bounds fails here, not in production. Bounds belong in the shared schemas (shared/schemas/common.ts:
 * UnixSecondsInput, PageQuery, TimeRangeQuery, …) so that every call using them is bounded at once.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallDef } from './define';
import { allCalls } from './registry';

type Json = Record<string, unknown>;

/**
 * Above this a bound is no bound: the largest sensible number is a millisecond time in year 9999
 * (2.5 × 10^14); zod's own default for an integer is 2^53 − 1.
 */
const LARGEST_NUMBER = 10 ** 15;

const jsonOf = (schema: z.ZodType): Json =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;

/** Where a schema leaves a number, a list or a text unbounded, by field path. */
function unbounded(schema: Json, path: string, root: Json = schema, out: string[] = []): string[] {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace(/^#\/\$defs\//, '');
    const target = (root.$defs as Record<string, Json> | undefined)?.[name];
    if (target) unbounded(target, path, root, out);
    return out;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const branch of (schema[key] as Json[] | undefined) ?? []) unbounded(branch, path, root, out);
  }
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (types.includes('integer') || types.includes('number')) {
    const max = (schema.maximum ?? schema.exclusiveMaximum) as number | undefined;
    const min = (schema.minimum ?? schema.exclusiveMinimum) as number | undefined;
    if (max === undefined || max > LARGEST_NUMBER) out.push(`${path}: number without a sensible maximum`);
    if (min === undefined || min < -LARGEST_NUMBER) out.push(`${path}: number without a sensible minimum`);
  }
  if (types.includes('string') && schema.enum === undefined && schema.const === undefined) {
    if (schema.maxLength === undefined && schema.format !== 'uuid')
      out.push(`${path}: text without a maximum length`);
  }
  if (types.includes('array')) {
    if (schema.maxItems === undefined && !Array.isArray(schema.prefixItems))
      out.push(`${path}: list without a maximum number of items`);
    if (schema.items && typeof schema.items === 'object')
      unbounded(schema.items as Json, `${path}[]`, root, out);
    for (const [i, item] of ((schema.prefixItems as Json[] | undefined) ?? []).entries())
      unbounded(item, `${path}[${i}]`, root, out);
  }
  if (types.includes('object') || schema.properties) {
    for (const [name, prop] of Object.entries((schema.properties as Record<string, Json>) ?? {}))
      unbounded(prop, path ? `${path}.${name}` : name, root, out);
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object') {
      if (schema.maxProperties === undefined) out.push(`${path}: map without a maximum number of entries`);
      unbounded(extra as Json, `${path}.*`, root, out);
    }
  }
  return out;
}

/** The raw upload call is bounded by its byte limit, not by a schema. */
const inputsOf = (call: CallDef) =>
  (['params', 'query', 'body'] as const)
    .map((where) => [where, where === 'body' && call.rawBody ? undefined : call[where]] as const)
    .filter((e): e is readonly ['params' | 'query' | 'body', z.ZodType] => Boolean(e[1]));

describe('the bounds of what callers send', () => {
  it('the check itself finds an unbounded number, text, list and map', () => {
    const found = unbounded(
      jsonOf(
        z.object({
          at: z.coerce.number().int().nonnegative(),
          name: z.string(),
          tags: z.array(z.string().max(5)),
          extra: z.record(z.string().max(5), z.number().int().min(0).max(5)),
          fine: z.number().int().min(0).max(10),
          id: z.uuid(),
        }),
      ),
      '',
    );
    expect(found).toEqual([
      'at: number without a sensible maximum',
      'name: text without a maximum length',
      'tags: list without a maximum number of items',
      'extra: map without a maximum number of entries',
    ]);
  });

  it('every call bounds every number, text and list it takes', () => {
    const problems: string[] = [];
    for (const { name, call } of allCalls()) {
      for (const [where, schema] of inputsOf(call)) {
        for (const p of unbounded(jsonOf(schema), ''))
          problems.push(`${name} ${where}.${p}`.replace('.: ', ': '));
      }
    }
    expect(problems).toEqual([]);
  });
});
