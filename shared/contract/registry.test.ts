/**
 * The routers are the one list of calls: the server serves them, the document and the widgets' build read
 * them. Nothing may be declared beside them — a call a module exports but no router holds would be neither
 * served nor documented — and a router names each call as its module exports it (the widgets' light modules
 * export the routers' names).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allCalls, callsOf, contractModules } from './registry';

const DIR = fileURLToPath(new URL('.', import.meta.url));
/** Files of the folder that declare no calls (events.ts: the events Waymark sends, not calls it answers). */
const NOT_MODULES = new Set(['define.ts', 'registry.ts', 'events.ts']);

const looksLikeCall = (value: unknown) =>
  !!value && typeof value === 'object' && 'method' in value && 'path' in value && 'responses' in value;

describe('the contract registry', () => {
  it('lists every contract module', () => {
    const files = readdirSync(DIR).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !NOT_MODULES.has(f),
    );
    expect(Object.keys(contractModules).sort()).toEqual(files.map((f) => f.slice(0, -3)).sort());
  });

  it.each(Object.keys(contractModules))(
    '%s: every call it exports is in one of its routers, under its export name',
    async (module) => {
      const exported = (await import(/* @vite-ignore */ join(DIR, `${module}.ts`))) as Record<
        string,
        unknown
      >;
      const declared = Object.entries(exported)
        .filter(([, value]) => looksLikeCall(value))
        .map(([name]) => name)
        .sort();
      const routed = callsOf(module);
      expect(routed.map(([name]) => name).sort()).toEqual(declared);
      for (const [name, call] of routed) expect(exported[name], name).toBe(call);
    },
  );

  it('names every call once, in group and name order', () => {
    const names = allCalls().map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(names).toContain('assessments.certificateInfo');
    expect(names).toContain('tenant.stripeWebhook');
    expect(names).toContain('catalogue.initialAssessment');
  });
});
