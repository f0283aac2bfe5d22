/** Every declared call, for the OpenAPI document and for checks that every call is served. */

import * as activity from './activity';
import * as assessments from './assessments';
import * as auth from './auth';
import * as authoring from './authoring';
import * as awards from './awards';
import * as billing from './billing';
import * as catalogue from './catalogue';
import * as credentials from './credentials';
import type { CallDef } from './define';
import * as lists from './lists';
import * as profile from './profile';
import * as system from './system';
import * as tenant from './tenant';

const groups: Record<string, Record<string, unknown>> = {
  activity,
  // a call's name — its operationId in the OpenAPI document, its example's folder — keeps the group it was
  // published under when its file moved to mirror the server's folders: awards' calls stay assessments_*,
  // billing's tenant_* (decision 018)
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
