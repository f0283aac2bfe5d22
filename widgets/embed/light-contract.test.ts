import { type CallDef, isCallDef } from '@shared/contract/define';
import { contractModules } from '@shared/contract/registry';
import { describe, expect, it } from 'vitest';
import { lightCallModule, lightContract } from './light-contract';

const dataUrl = (source: string) => `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;

/** Evaluates a contract module's light twin as the browser would, each call's module by its own URL. */
async function load(mod: Record<string, unknown>): Promise<Record<string, unknown>> {
  const source = lightContract(mod, (name) => dataUrl(lightCallModule(name, mod[name] as CallDef)));
  return import(/* @vite-ignore */ dataUrl(source));
}

describe('the contract without zod (what the element files carry)', () => {
  it.each(Object.keys(contractModules))(
    '%s: every call, with the method, path, access and download of the contract',
    async (group) => {
      const mod = contractModules[group]!;
      const light = await load(mod);
      const calls = Object.entries(mod).filter(([, v]) => isCallDef(v));
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
    const light = await load(contractModules.assessments!);
    expect(contractModules.assessments!.LinkIdParam).toBeDefined();
    expect(light.LinkIdParam).toBeUndefined();
  });
});
