/** Every declared call, for the OpenAPI document and for checks that every call is served. */

import * as activity from './activity';
import * as assessments from './assessments';
import * as auth from './auth';
import * as authoring from './authoring';
import * as catalogue from './catalogue';
import * as credentials from './credentials';
import { type CallDef, isCallDef } from './define';
import * as lists from './lists';
import * as profile from './profile';
import * as system from './system';
import * as tenant from './tenant';

/** Each contract module by its file name (`activity` is ./activity.ts). */
export const contractModules: Record<string, Record<string, unknown>> = {
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
  for (const [group, mod] of Object.entries(contractModules)) {
    for (const [name, value] of Object.entries(mod)) {
      if (isCallDef(value)) out.push({ name: `${group}.${name}`, call: value });
    }
  }
  return out;
}
