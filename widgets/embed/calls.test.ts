import * as Catalogue from '@shared/contract/catalogue';
import { describe, expect, it } from 'vitest';
import { widgetCalls } from './calls';

describe('the calls of the embeddable widgets', () => {
  it.each(Object.entries(widgetCalls))('%s has the method, path and access of the contract', (name, call) => {
    const real = (Catalogue as unknown as Record<string, typeof call>)[name];
    expect(real, `${name} is in the contract`).toBeDefined();
    expect({ method: call.method, path: call.path, access: call.access }).toEqual({
      method: real!.method,
      path: real!.path,
      access: real!.access,
    });
  });
});
