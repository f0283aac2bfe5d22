/** Every router of the contract: for the OpenAPI document, the widgets' build and checks that every call is served. */

import { activityRouter } from './activity';
import { analysisRouter, renewalsRouter } from './analysis';
import { assessmentsRouter, uploadRouter } from './assessments';
import { authRouter } from './auth';
import { questionEditorRouter, tenantAssessmentsRouter } from './authoring';
import { awardsRouter } from './awards';
import { billingRouter } from './billing';
import { catalogueRouter, initialAssessmentRouter } from './catalogue';
import { cohortsRouter } from './cohorts';
import { credentialsRouter } from './credentials';
import type { CallDef, Router } from './define';
import { apiKeysRouter, auditRouter, scimRouter, ssoRouter } from './integrations';
import { invitationsRouter } from './invitations';
import { listsRouter } from './lists';
import { ltiLaunchRouter, ltiTenantRouter } from './lti';
import { profileRouter } from './profile';
import { questionImportRouter } from './question-import';
import { sandboxRouter } from './sandbox';
import { systemRouter } from './system';
import { tenantRouter } from './tenant';
import { tenantExportsRouter } from './tenant-exports';
import { webhooksRouter } from './webhooks';
import { xapiRouter } from './xapi';

/**
 * The routers of each contract module, by the module's file name (`activity` is ./activity.ts): a module's
 * calls are its routers' calls. The widgets' build lightens these modules (widgets/embed/light-contract.ts).
 */
export const contractModules: Record<string, readonly Router[]> = {
  activity: [activityRouter],
  analysis: [analysisRouter, renewalsRouter],
  assessments: [assessmentsRouter, uploadRouter],
  auth: [authRouter],
  authoring: [questionEditorRouter, tenantAssessmentsRouter],
  awards: [awardsRouter],
  billing: [billingRouter],
  catalogue: [catalogueRouter, initialAssessmentRouter],
  cohorts: [cohortsRouter],
  credentials: [credentialsRouter],
  integrations: [apiKeysRouter, auditRouter, scimRouter, ssoRouter],
  invitations: [invitationsRouter],
  lists: [listsRouter],
  lti: [ltiTenantRouter, ltiLaunchRouter],
  profile: [profileRouter],
  'question-import': [questionImportRouter],
  sandbox: [sandboxRouter],
  system: [systemRouter],
  tenant: [tenantRouter],
  'tenant-exports': [tenantExportsRouter],
  webhooks: [webhooksRouter],
  xapi: [xapiRouter],
};

/**
 * The group a module's calls are published under, where it is not the module's own name. A call's name — its
 * operationId in the OpenAPI document, its example's folder — keeps the group it was published under when
 * its file moved to mirror the server's folders: awards' calls stay assessments_*, billing's tenant_*
 * (decision 018); or when a module's calls were put in files of their own (cohorts', invitations', the tenant's exports', the question import's).
 */
const PUBLISHED_AS: Record<string, string> = {
  awards: 'assessments',
  billing: 'tenant',
  cohorts: 'tenant',
  invitations: 'tenant',
  'question-import': 'authoring',
  'tenant-exports': 'tenant',
  webhooks: 'integrations',
  xapi: 'integrations',
};

/** A module's calls, by name. */
export function callsOf(module: string): [string, CallDef][] {
  return (contractModules[module] ?? []).flatMap((router) => Object.entries(router));
}

/** Code-unit order, as a module namespace lists its names. */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every call, named `group.call`: by group, then by name. */
export function allCalls(): { name: string; call: CallDef }[] {
  const groups = new Map<string, [string, CallDef][]>();
  for (const module of Object.keys(contractModules)) {
    const group = PUBLISHED_AS[module] ?? module;
    groups.set(group, [...(groups.get(group) ?? []), ...callsOf(module)]);
  }
  return [...groups.keys()].sort(byName).flatMap((group) =>
    groups
      .get(group)!
      .sort(([a], [b]) => byName(a, b))
      .map(([name, call]) => ({ name: `${group}.${name}`, call })),
  );
}
