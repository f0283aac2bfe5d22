/** Every declared call, for the OpenAPI document and for checks that every call is served. */

import * as activity from './activity';
import * as analysis from './analysis';
import * as assessments from './assessments';
import * as auth from './auth';
import * as authoring from './authoring';
import * as awards from './awards';
import * as billing from './billing';
import * as catalogue from './catalogue';
import * as credentials from './credentials';
import { type CallDef, isCallDef } from './define';
import * as lists from './lists';
import * as profile from './profile';
import * as system from './system';
import * as tenant from './tenant';

/** Each contract module by its file name (`activity` is ./activity.ts): what the widgets' build lightens. */
export const contractModules: Record<string, Record<string, unknown>> = {
  activity,
  analysis,
  assessments,
  auth,
  authoring,
  awards,
  billing,
  catalogue,
  credentials,
  lists,
  profile,
  system,
  tenant,
};

/**
 * The calls by the group they are published under. A call's name — its operationId in the OpenAPI document,
 * its example's folder — keeps the group it was published under when its file moved to mirror the server's
 * folders: awards' calls stay assessments_*, billing's tenant_* (decision 018).
 */
const groups: Record<string, Record<string, unknown>> = {
  activity,
  analysis,
  assessments: { ...assessments, ...awards },
  auth,
  authoring,
  catalogue,
  credentials,
  lists,
  profile,
  system,
  tenant: { ...tenant, ...billing },
};

export function allCalls(): { name: string; call: CallDef }[] {
  const out: { name: string; call: CallDef }[] = [];
  for (const [group, mod] of Object.entries(groups)) {
    // in the order of a module's namespace (by name, code unit order), whether or not the group spreads two
    for (const [name, value] of Object.entries(mod).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (isCallDef(value)) out.push({ name: `${group}.${name}`, call: value });
    }
  }
  return out;
}
