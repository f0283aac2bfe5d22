/** Every declared call, for the OpenAPI document and for checks that every call is served. */

import * as activity from './activity';
import * as assessments from './assessments';
import * as auth from './auth';
import * as authoring from './authoring';
import * as catalogue from './catalogue';
import * as credentials from './credentials';
import type { CallDef } from './define';
import * as lists from './lists';
import * as profile from './profile';
import * as system from './system';
import * as tenant from './tenant';

const groups: Record<string, Record<string, unknown>> = {
  activity,
  assessments,
  auth,
  authoring,
  catalogue,
  credentials,
  lists,
  profile,
  system,
  tenant,
};

export function allCalls(): { name: string; call: CallDef }[] {
  const out: { name: string; call: CallDef }[] = [];
  for (const [group, mod] of Object.entries(groups)) {
    for (const [name, value] of Object.entries(mod)) {
      if (
        value &&
        typeof value === 'object' &&
        'method' in value &&
        'path' in value &&
        'responses' in value
      ) {
        out.push({ name: `${group}.${name}`, call: value as CallDef });
      }
    }
  }
  return out;
}
