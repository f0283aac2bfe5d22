import type { CallDef } from '@shared/contract/define';
import { callsOf, contractModules } from '@shared/contract/registry';
import { describe, expect, it } from 'vitest';
import { lightCallModule, lightContract } from './light-contract';

const dataUrl = (source: string) => `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;

/** Evaluates a contract module's light twin as the browser would, each call's module by its own URL. */
async function load(module: string): Promise<Record<string, unknown>> {
  const calls = new Map(callsOf(module));
  const source = lightContract(contractModules[module]!, (name) =>
    dataUrl(lightCallModule(name, calls.get(name)!)),
  );
  return import(/* @vite-ignore */ dataUrl(source));
}

describe('the contract without zod (what the element files carry)', () => {
  it.each(Object.keys(contractModules))(
    '%s: every call, with the method, path, access and download of the contract',
    async (module) => {
      const light = await load(module);
      const calls = callsOf(module);
      expect(calls.length).toBeGreaterThan(0);
      expect(Object.keys(light).sort()).toEqual(calls.map(([name]) => name).sort());
      for (const [name, real] of calls) {
        const call = real as CallDef;
        const { method, path, access, download, responses } = light[name] as CallDef;
        expect({ method, path, access, download }, name).toEqual({
          method: call.method,
          path: call.path,
          access: call.access,
          download: call.download,
        });
        expect(responses, `${name} carries no schema`).toEqual({});
      }
    },
  );

  it('keeps only the calls: a shared schema is not exported (the build then fails instead of bringing zod back)', async () => {
    const contract = await import('@shared/contract/assessments');
    expect(contract.LinkIdParam).toBeDefined();
    const light = await load('assessments');
    expect(light.LinkIdParam).toBeUndefined();
    expect(light.assessmentsRouter).toBeUndefined();
  });
});
