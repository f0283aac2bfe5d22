/**
 * The schemas of the OpenAPI document: each zod schema as JSON Schema, its named entities (registered in
 * shared/schemas/entities.ts) as $refs to components.schemas.
 */
import { entities } from '@shared/schemas/entities';
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * Collects the named schemas met while converting, under components.schemas: `X` is what the server sends
 * (the output side), `XInput` what a caller sends where that differs (defaults, coercion, extra keys).
 * Refs point at placeholders (`#/components/schemas/<io>:X`) until `finish()` names them.
 */
export class Components {
  private readonly defs = { input: new Map<string, JsonSchema>(), output: new Map<string, JsonSchema>() };

  /** The JSON Schema of `schema`, its named parts as $refs to components.schemas. */
  toJson(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    // zod refuses two schemas of one id within a conversion; `named` below, across conversions
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      metadata: entities,
      reused: 'inline',
      cycles: 'ref',
    }) as JsonSchema;
    const { $schema: _s, $defs, ...rest } = json as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const place = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(place);
      if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.$ref === 'string' && o.$ref.startsWith('#/$defs/')) {
          return { ...o, $ref: `#/components/schemas/${io}:${o.$ref.slice('#/$defs/'.length)}` };
        }
        return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, place(x)]));
      }
      return v;
    };
    for (const [id, def] of Object.entries($defs ?? {})) {
      const placed = place(stripIds(def)) as JsonSchema;
      const known = this.defs[io].get(id);
      if (known && !same(known, placed)) throw new Error(`Two schemas are registered as the entity ${id}`);
      this.defs[io].set(id, placed);
    }
    return place(stripIds(rest)) as JsonSchema;
  }

  /** The JSON Schema of an object of parameters: inline (its properties become the parameters). */
  plainJson(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const { $schema: _s, ...rest } = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      metadata: z.registry<{ id: string }>(),
    }) as JsonSchema;
    return rest;
  }

  /** Names every schema met and rewrites the placeholder refs of `doc` (the schemas included). */
  finish<T>(doc: T): { doc: T; schemas: Record<string, JsonSchema> } {
    const names = new Map<string, string>();
    const schemas: Record<string, JsonSchema> = {};
    for (const [id, def] of this.defs.output) {
      names.set(`output:${id}`, id);
      schemas[id] = def;
    }
    for (const [id, def] of this.defs.input) {
      const output = this.defs.output.get(id);
      // the same schema both ways once its refs say the same thing
      const sameAsOutput =
        output && same(output, JSON.parse(JSON.stringify(def).replaceAll('/input:', '/output:')));
      const name = !output ? id : sameAsOutput ? id : `${id}Input`;
      names.set(`input:${id}`, name);
      if (!sameAsOutput) schemas[name] = def;
    }
    const rename = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(rename);
      if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.$ref === 'string' && o.$ref.startsWith('#/components/schemas/')) {
          const key = o.$ref.slice('#/components/schemas/'.length);
          return { ...o, $ref: `#/components/schemas/${names.get(key) ?? key}` };
        }
        return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, rename(x)]));
      }
      return v;
    };
    const sorted = Object.fromEntries(
      Object.entries(schemas)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, rename(v) as JsonSchema]),
    );
    return { doc: rename(doc) as T, schemas: sorted };
  }
}

const stripIds = (def: JsonSchema): JsonSchema => {
  const { id: _id, ...rest } = def;
  return rest;
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
