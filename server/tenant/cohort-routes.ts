/**
 * The cohorts' calls (shared/contract/tenant.ts, `cohortsRouter`; decision 043): a tenant's named groups of
 * learners, through the cohort service (./cohorts.ts) — the same one a directory's SCIM Groups use.
 */
import { cohortsRouter } from '@shared/contract/cohorts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { created, ok, serve } from '../http/routes';
import { membersOfCohort } from './cohort-lists';
import {
  addLearnersToCohort,
  assignRoadmapToCohort,
  cohortNotFound,
  cohortsOf,
  createCohort,
  deleteOwnCohort,
  removeLearnersFromCohort,
  renameCohort,
} from './cohorts';

export function cohortRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  const one = async (tenantId: string, id: string) => {
    const found = (await cohortsOf(db, tenantId)).find((c) => c._id === id);
    if (!found) throw cohortNotFound();
    return found;
  };
  serve(app, cohortsRouter, {
    cohortList: async ({ caller }) => ok({ data: await cohortsOf(db, caller.id) }),
    async cohortShow({ params, caller }) {
      const members = await membersOfCohort(db, caller.id, params.id);
      return ok({ data: { ...(await one(caller.id, params.id)), members } });
    },
    async createCohort({ body, caller }) {
      const row = await createCohort(db, caller.id, { name: body.name }, caller.actor);
      return created({ data: await one(caller.id, row.id) });
    },
    async renameCohort({ params, body, caller }) {
      await renameCohort(db, caller.id, params.id, body.name, caller.actor);
      return ok({ data: await one(caller.id, params.id) });
    },
    async deleteCohort({ params, caller }) {
      await deleteOwnCohort(db, caller.id, params.id, caller.actor);
      return ok({ data: { ok: true } });
    },
    addCohortMembers: async ({ params, body, caller }) =>
      ok({ data: await addLearnersToCohort(db, caller.id, params.id, body.learnerIds, caller.actor) }),
    removeCohortMembers: async ({ params, body, caller }) =>
      ok({ data: await removeLearnersFromCohort(db, caller.id, params.id, body.learnerIds, caller.actor) }),
    assignCohortRoadmap: async ({ params, body, caller }) =>
      ok({ data: await assignRoadmapToCohort(db, caller.id, params.id, body, caller.actor) }),
  });
}
