/**
 * The embed build checks attributes with widgets/embed/light-schema.ts, compiled from each widget's zod
 * props schema (widgets/vite.embed.config.ts): both must accept and refuse the same values, naming the
 * same attributes, for every props module of the widgets. (The messages may differ: the light schema says
 * 'must be one of 1, 2' where zod says 'Invalid input'.)
 */

import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { lightSchema } from './light-schema';
import widgets from './widgets.json';

const modules = import.meta.glob<Record<string, unknown>>('../*/props.ts', { eager: true });

/** Values an attribute may be given: empty, odd, and the sorts of valid values the widgets take. */
const SAMPLES = [
  undefined,
  '',
  ' ',
  'x',
  '0',
  '1',
  '2',
  '6',
  '10000',
  'feather',
  'certificate',
  'auto',
  'live',
  'Yesterday',
  'Past 7 days',
  'Last 28 Days',
  'Programming',
  '1faffdfc-4502-44d4-a71f-a6ab1ba23f4e',
  'hHmNU4pIjn34jsi16PDBEA',
  'short_id!',
  'a'.repeat(65),
];

function outcome(result: {
  success: boolean;
  error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
}) {
  return result.success ? 'ok' : (result.error?.issues ?? []).map((i) => String(i.path[0])).sort();
}

describe('light schemas agree with the zod props schemas', () => {
  const propsFiles = Object.values(widgets).map((w) => `../${w.entry.split('/')[0]}/props.ts`);
  it('every widget has a props module', () => {
    for (const file of propsFiles) expect(modules[file], file).toBeDefined();
  });

  for (const file of propsFiles) {
    for (const [name, schema] of Object.entries(modules[file] ?? {})) {
      if (!(schema instanceof z.ZodMiniObject)) continue;
      it(`${file} ${name}`, () => {
        const light = lightSchema(z.toJSONSchema(schema) as Parameters<typeof lightSchema>[0]);
        const keys = Object.keys(schema.def.shape);
        // every key alone with every sample, and every key given a sample at once
        const inputs: Record<string, string | undefined>[] = [{}];
        for (const key of keys) for (const v of SAMPLES) inputs.push({ [key]: v });
        for (const v of SAMPLES) inputs.push(Object.fromEntries(keys.map((k) => [k, v])));
        for (const input of inputs) {
          const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
          const lightResult = light.safeParse(defined);
          expect(outcome(lightResult), JSON.stringify(defined)).toEqual(outcome(schema.safeParse(defined)));
          for (const issue of lightResult.success ? [] : lightResult.error.issues) {
            expect(issue.message.length, JSON.stringify(defined)).toBeGreaterThan(0);
          }
        }
      });
    }
  }
});
