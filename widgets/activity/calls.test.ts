import * as Activity from '@shared/contract/activity';
import * as Assessments from '@shared/contract/assessments';
import type { CallDef } from '@shared/contract/define';
import * as System from '@shared/contract/system';
import { describe, expect, it } from 'vitest';
import { activityCalls } from './calls';

const contract = { ...Activity, ...Assessments, ...System } as unknown as Record<string, CallDef>;

describe('the calls of the learning-time widgets', () => {
  it.each(Object.entries(activityCalls))(
    '%s has the method, path and access of the contract',
    (name, call) => {
      const real = contract[name];
      expect(real, `${name} is in the contract`).toBeDefined();
      expect({ method: call.method, path: call.path, access: call.access }).toEqual({
        method: real!.method,
        path: real!.path,
        access: real!.access,
      });
    },
  );
});
