/**
 * A tenant's cohorts (issue 28 item 2; decision 043): named groups of learners, made in the portal or pushed
 * as Groups by the organisation's directory over SCIM, and the roadmaps each gives its members. Served by
 * server/tenant/cohort-routes.ts, and published under the tenant's group (`tenant.*`).
 */
import { z } from 'zod';
import { envelope, errors, Id, Ok } from '../schemas/common';
import {
  Cohort,
  CohortAssignment,
  CohortDetail,
  CohortMembersInput,
  CohortNameInput,
  CohortRoadmapInput,
} from '../schemas/tenant';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;

export const cohortList = defineCall({
  method: 'GET',
  path: '/tenant/cohorts',
  summary:
    "The tenant's cohorts by name — named groups of learners, made here or pushed as Groups by the organisation's directory over SCIM — with their member counts and the roadmaps each gives its members.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  responses: { 200: envelope(z.array(Cohort)), ...errors },
});

export const cohortShow = defineCall({
  method: 'GET',
  path: '/tenant/cohorts/{id}',
  summary:
    "One cohort with its members by name (each one's seat removed or not), and whether the organisation's directory manages it over SCIM (then its name and members are read-only here: 409 COHORT_MANAGED_BY_SCIM).",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  params: z.object({ id: Id }),
  responses: { 200: envelope(CohortDetail), ...errors },
});

export const createCohort = defineCall({
  method: 'POST',
  path: '/tenant/cohorts',
  summary: 'Makes a cohort (its name unique within the tenant, in any case: 409 otherwise).',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  body: CohortNameInput,
  responses: { 201: envelope(Cohort), ...errors },
});

export const renameCohort = defineCall({
  method: 'PUT',
  path: '/tenant/cohorts/{id}',
  summary: 'Renames a cohort.',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  params: z.object({ id: Id }),
  body: CohortNameInput,
  responses: { 200: envelope(Cohort), ...errors },
});

export const deleteCohort = defineCall({
  method: 'DELETE',
  path: '/tenant/cohorts/{id}',
  summary: 'Deletes a cohort; its members keep their seats and the roadmaps they were given.',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  params: z.object({ id: Id }),
  responses: { 200: Ok, ...errors },
});

export const addCohortMembers = defineCall({
  method: 'POST',
  path: '/tenant/cohorts/{id}/members',
  summary:
    "Adds learners holding one of the tenant's seats to a cohort (404 naming `learnerIds` for one who does not); each new member gets the cohort's roadmaps, as far as the assignment rules allow.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  params: z.object({ id: Id }),
  body: CohortMembersInput,
  responses: { 200: envelope(z.object({ added: z.array(Id) })), ...errors },
});

export const removeCohortMembers = defineCall({
  method: 'POST',
  path: '/tenant/cohorts/{id}/members/remove',
  summary: 'Takes learners out of a cohort; they keep their seats and the roadmaps they were given.',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  params: z.object({ id: Id }),
  body: CohortMembersInput,
  responses: { 200: envelope(z.object({ removed: z.array(Id) })), ...errors },
});

export const assignCohortRoadmap = defineCall({
  method: 'POST',
  path: '/tenant/cohorts/{id}/roadmaps',
  summary:
    'Assigns a roadmap to a whole cohort: each member with an active seat gets it now (the outcome per member: ASSIGNED, ALREADY_ASSIGNED, ROADMAP_LIMIT when two are ongoing), each later member when they join. A roadmap with prerequisites needs `prerequisites` (400 PREREQUISITES_CHOICE_REQUIRED otherwise), as for one learner.',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  params: z.object({ id: Id }),
  body: CohortRoadmapInput,
  responses: { 200: envelope(CohortAssignment), ...errors },
});

/** The cohorts' calls, served by server/tenant/cohort-routes.ts. */
export const cohortsRouter = defineRouter({
  cohortList,
  cohortShow,
  createCohort,
  renameCohort,
  deleteCohort,
  addCohortMembers,
  removeCohortMembers,
  assignCohortRoadmap,
});
