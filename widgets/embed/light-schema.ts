/**
 * A widget's props schema without zod, for the embed build: `vite.embed.config.ts` turns each
 * `widgets/<widget>/props.ts` into `lightSchema(<its JSON Schema>)`, so the element files do not carry
 * zod (a third of their size) nor its `new Function` probe, which strict page policies report.
 * It understands what attribute schemas use — an object of strings with required keys, minLength,
 * pattern and enum — and answers in the shape of zod's safeParse. `light-schema.test.ts` checks that it
 * accepts and refuses what zod does, naming the same attributes, on every widget's schema (its messages
 * say the rule where zod says 'Invalid input').
 */

export interface JsonSchemaString {
  type: 'string';
  minLength?: number;
  pattern?: string;
  enum?: string[];
  /** The message to show when the value is refused. */
  description?: string;
}

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, JsonSchemaString>;
  required?: string[];
}

export interface LightIssue {
  path: string[];
  message: string;
}

export type LightResult<T> = { success: true; data: T } | { success: false; error: { issues: LightIssue[] } };

export interface LightSchema<T = Record<string, string | undefined>> {
  shape: Record<string, JsonSchemaString>;
  safeParse(input: unknown): LightResult<T>;
  parse(input: unknown): T;
}

function check(value: unknown, rule: JsonSchemaString): string | null {
  if (typeof value !== 'string') return rule.description ?? 'must be text';
  if (rule.minLength !== undefined && value.length < rule.minLength)
    return rule.description ?? 'is too short';
  if (rule.pattern !== undefined && !new RegExp(rule.pattern).test(value))
    return rule.description ?? 'is not valid';
  if (rule.enum && !rule.enum.includes(value))
    return rule.description ?? `must be one of ${rule.enum.join(', ')}`;
  return null;
}

export function lightSchema<T = Record<string, string | undefined>>(json: JsonSchemaObject): LightSchema<T> {
  const required = new Set(json.required ?? []);
  const safeParse = (input: unknown): LightResult<T> => {
    const source = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
    const issues: LightIssue[] = [];
    const data: Record<string, string> = {};
    for (const [key, rule] of Object.entries(json.properties)) {
      const value = source[key];
      if (value === undefined) {
        if (required.has(key)) issues.push({ path: [key], message: rule.description ?? 'is required' });
        continue;
      }
      const problem = check(value, rule);
      if (problem) issues.push({ path: [key], message: problem });
      else data[key] = value as string;
    }
    return issues.length ? { success: false, error: { issues } } : { success: true, data: data as T };
  };
  return {
    shape: json.properties,
    safeParse,
    parse(input) {
      const result = safeParse(input);
      if (!result.success)
        throw new Error(result.error.issues.map((i) => `${i.path[0]} ${i.message}`).join('; '));
      return result.data;
    },
  };
}
