import * as Awards from '@shared/contract/awards';
import * as Credentials from '@shared/contract/credentials';
import { describe, expect, it } from 'vitest';
import { awardCalls } from './calls';

describe('the calls of <wm-award>', () => {
  it.each(Object.entries(awardCalls))('%s has the method, path and access of the contract', (name, call) => {
    const real = ({ ...Awards, ...Credentials } as unknown as Record<string, typeof call>)[name];
    expect(real, `${name} is in the contract`).toBeDefined();
    expect({ method: call.method, path: call.path, access: call.access }).toEqual({
      method: real!.method,
      path: real!.path,
      access: real!.access,
    });
  });
});
