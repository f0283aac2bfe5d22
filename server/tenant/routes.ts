/**
 * The tenant calls (shared/contract/tenant.ts) except billing's: seats (seats.ts, seat-lists.ts),
 * invitations, statistics and tables (reports.ts), one learner's analytics, tests and roadmaps
 * (learners.ts), and every table as a file (exports.ts) — each a call to those, in groups. Every call is TENANT-only (the contract's
 * access) and every learner-scoped call first finds the learner among the caller's own seats (404
 * otherwise). A learner's figures come from the functions the learner's own calls use: activity reports,
 * the catalogue's assignment and views, the assessment engine's review. The statistics, the learner's
 * analytics and the exports read `reads()` — the read replica while it is in use (decision 035) — after
 * the seat check, which like everything a mentor changes and reads back reads the primary.
 */
import { invitationsRouter } from '@shared/contract/invitations';
import { tenantRouter } from '@shared/contract/tenant';
import { tenantExportsRouter } from '@shared/contract/tenant-exports';
import { CSV_CONTENT_TYPE, downloadName } from '@shared/rules/csv';
import { TENANT_MESSAGES } from '@shared/schemas/tenant';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { learningDays, timeByDay, timeByResource, timeByTopic } from '../activity/reports';
import { toApiLinks } from '../assessments/queries';
import {
  CATALOGUE_MESSAGES,
  learnerRoadmap,
  learnerRoadmaps,
  type RoadmapTests,
} from '../catalogue/learning';
import { listRoadmaps, loadRoadmap } from '../catalogue/queries';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { fileResponse } from '../http/download';
import { notFound } from '../http/errors';
import { answer, type Caller, created, type Handlers, ok, serve } from '../http/routes';
import type { SeatPlans } from './accounting';
import { requireCohort } from './cohorts';
import {
  awardsExport,
  type Export,
  learningExport,
  resourceReportExport,
  serialise,
  testLinksExport,
  usersExport,
} from './exports';
import { cancelInvitation, checkInvitation, invitationsOf, invite, toInvitation } from './invitations';
import {
  assignRoadmapFor,
  learnerAssignment,
  learnerTestLinks,
  learnerTestReview,
  resourceTests,
} from './learners';
import { achievements, awardsByType, learningReport, tenantStats } from './reports';
import { searchSeats, seatCard, seatPage } from './seat-lists';
import {
  addLearner,
  beforeCheck,
  beforeCheckMany,
  EmailNotFound,
  removeLearner,
  requireLearner,
} from './seats';

const AWARD_FILE_NAMES = { ROADMAP: 'certificates', SECTION: 'badges', RESOURCE: 'feathers' } as const;

const range = (q: { startTime?: number; endTime?: number }) =>
  q.startTime !== undefined && q.endTime !== undefined
    ? { startTime: q.startTime, endTime: q.endTime }
    : undefined;

export interface TenantDeps {
  db: Db;
  /**
   * Where the reports, the learner's analytics and the exports are read: the read replica while it is in
   * use (decision 035). Seats, invitations, test links and roadmaps — what a mentor changes and reads
   * back at once — and every seat check read the primary (`db`).
   */
  reads: () => Db;
  config: Config;
  /** The tenant's plan as seat accounting sees it: billing's. */
  seatPlans: SeatPlans;
  /** A learner's test links on their roadmaps: the assessments'. */
  roadmapTests: RoadmapTests;
}

/** 'Email Not Found' answers with its own body (isAllowToInvite); anything else is thrown on. */
async function emailNotFoundAware<T>(fn: () => Promise<T>) {
  try {
    return { ok: true as const, value: await fn() };
  } catch (err) {
    if (err instanceof EmailNotFound) return { ok: false as const, body: err.body() };
    throw err;
  }
}

type TenantHandlers = Handlers<typeof tenantRouter> &
  Handlers<typeof invitationsRouter> &
  Handlers<typeof tenantExportsRouter>;

/** What the groups of calls share: the database, the settings, the tenant's plans and one clock. */
interface Tenancy {
  db: Db;
  /** The reports' and exports' connection (the replica while it is in use). */
  reads: () => Db;
  config: Config;
  plans: () => SeatPlans;
  clock: () => Date;
  roadmapTests: RoadmapTests;
  /** One of the caller's learners (404 for anyone else). */
  learner: (tenantId: string, userId: string) => ReturnType<typeof requireLearner>;
}

/** A table as a file to download. */
const file = (reply: FastifyReply, what: string, format: 'csv' | 'ndjson', e: Export) =>
  fileResponse(reply, {
    filename: downloadName(what, format === 'csv' ? 'csv' : 'json').replace(/\.json$/, '.ndjson'),
    contentType: format === 'csv' ? CSV_CONTENT_TYPE : 'application/x-ndjson; charset=utf-8',
    chunks: serialise(e, format),
  });

const seatCalls = ({ db, plans, clock, learner }: Tenancy) => {
  async function addUser({ body, caller }: { body: { email: string }; caller: Caller }) {
    const result = await emailNotFoundAware(() =>
      addLearner(db, plans(), caller.id, body.email, clock(), caller.actor),
    );
    return result.ok ? ok(result.value) : answer(404, result.body);
  }
  return {
    async tenantUsersList({ query, caller }) {
      if (query.cohortId) await requireCohort(db, caller.id, query.cohortId);
      return ok({ data: await seatPage(db, caller.id, query, clock()) });
    },
    tenantUsersSearchList: async ({ query, caller }) =>
      ok({ data: await searchSeats(db, caller.id, query.searchText, clock()) }),
    tenantUserInfo: async ({ params, caller }) => ok({ data: seatCard(await learner(caller.id, params.id)) }),
    async tenantBeforeCheckAddUser({ body, caller }) {
      const result = await emailNotFoundAware(() => beforeCheck(db, plans(), caller.id, body.email, clock()));
      return result.ok ? ok({ data: result.value }) : answer(404, result.body);
    },
    tenantBeforeCheckAddUsers: async ({ body, caller }) =>
      ok({ data: await beforeCheckMany(db, plans(), caller.id, body.emails, clock()) }),
    tenantAddUserV2: addUser,
    tenantAddUser: addUser,
    tenantRemoveUser: async ({ params, caller }) =>
      ok({ data: await removeLearner(db, plans(), caller.id, params.learnerId, clock(), caller.actor) }),
  } satisfies Partial<TenantHandlers>;
};

const invitationCalls = ({ db, config, plans, clock }: Tenancy) =>
  ({
    async tenantInviteUser({ body, caller }) {
      const row = await invite(db, plans(), caller.id, body.email, clock(), caller.actor);
      const continueUrl = new URL('/learner', config.publicUrl);
      continueUrl.searchParams.set('tenantId', caller.id);
      continueUrl.searchParams.set('email', row.email);
      return ok({
        data: { ...toInvitation(row, clock()), tenantId: caller.id, continueUrl: continueUrl.toString() },
        message: TENANT_MESSAGES.invited,
      });
    },
    async tenantInvitations({ caller }) {
      const now = clock();
      return ok({ data: (await invitationsOf(db, caller.id)).map((r) => toInvitation(r, now)) });
    },
    tenantCancelInvitation: async ({ params, caller }) =>
      ok({ data: toInvitation(await cancelInvitation(db, caller.id, params.id, caller.actor), clock()) }),
    invitationCheck: async ({ query }) =>
      ok({ data: await checkInvitation(db, query.tenantId, query.email, clock()) }),
  }) satisfies Partial<TenantHandlers>;

const reportCalls = ({ reads, clock }: Tenancy) =>
  ({
    tenantDashboardStats: async ({ caller }) => ok({ data: await tenantStats(reads(), caller.id, clock()) }),
    tenantAwardsByType: async ({ query, caller }) =>
      ok({ data: await awardsByType(reads(), caller.id, query.certificateType, clock()) }),
    tenantLearningReport: async ({ query, caller }) =>
      ok({ data: await learningReport(reads(), caller.id, clock(), range(query)) }),
  }) satisfies Partial<TenantHandlers>;

const learnerCalls = ({ db, reads, config, clock, learner }: Tenancy) =>
  ({
    async tenantUserAchievements({ params, query, caller }) {
      await learner(caller.id, params.userId);
      return ok({ data: await achievements(reads(), params.userId, query) });
    },
    async tenantTestlinkList({ params, query, caller }) {
      await learner(caller.id, params.userId);
      const rows = await learnerTestLinks(db, params.userId, query);
      return ok({ data: await toApiLinks(db, rows, config.retakeCooldownMs, clock()) });
    },
    async tenantTimeSpentDaywise({ params, query, caller }) {
      await learner(caller.id, params.userId);
      return ok({ data: await timeByDay(reads(), params.userId, query) });
    },
    async tenantTimeSpentOnResource({ params, query, caller }) {
      await learner(caller.id, params.userId);
      return ok({ data: await timeByResource(reads(), params.userId, query) });
    },
    async tenantLearningDays({ params, caller }) {
      await learner(caller.id, params.userId);
      return ok({ data: await learningDays(reads(), params.userId, clock()) });
    },
    async tenantTimeSpentByTopic({ params, query, caller }) {
      await learner(caller.id, params.userId);
      return ok({ data: await timeByTopic(reads(), params.userId, query) });
    },
    async tenantGetResource({ params, caller }) {
      await learner(caller.id, params.userId);
      return ok({
        data: await resourceTests(db, params.userId, params.resourceId, config.retakeCooldownMs, clock()),
      });
    },
    async tenantTestlinkView({ params, caller }) {
      await learner(caller.id, params.userId);
      return ok({
        data: await learnerTestReview(db, params.userId, params.linkId, clock(), config.retakeCooldownMs),
      });
    },
  }) satisfies Partial<TenantHandlers>;

const exportCalls = ({ db, reads, config, clock, learner }: Tenancy) =>
  ({
    async tenantExportUsers({ query, caller, reply }) {
      const { format, ...filter } = query;
      if (filter.cohortId) await requireCohort(db, caller.id, filter.cohortId);
      return file(reply, 'users', format, usersExport(reads(), caller.id, clock(), filter));
    },
    tenantExportLearningReport: async ({ query, caller, reply }) =>
      file(reply, 'learning-report', query.format, learningExport(reads(), caller.id, clock(), range(query))),
    async tenantExportAwards({ query, caller, reply }) {
      const { format, ...filter } = query;
      const what = filter.certificateType ? AWARD_FILE_NAMES[filter.certificateType] : 'awards';
      return file(reply, what, format, awardsExport(reads(), caller.id, clock(), filter, config.publicUrl));
    },
    async tenantExportResourceReport({ params, query, caller, reply }) {
      await learner(caller.id, params.userId);
      const { format, ...r } = query;
      return file(reply, 'resource-report', format, resourceReportExport(reads(), params.userId, r));
    },
    async tenantExportTestlinks({ params, query, caller, reply }) {
      await learner(caller.id, params.userId);
      const from = reads();
      const rows = await learnerTestLinks(from, params.userId, query);
      const answers = (linkId: string) =>
        `${config.publicUrl}/portal/users/${params.userId}/testlink/${encodeURIComponent(linkId)}`;
      return file(reply, 'assessments', query.format, testLinksExport(from, rows, clock(), answers));
    },
  }) satisfies Partial<TenantHandlers>;

const roadmapCalls = ({ db, roadmapTests, learner }: Tenancy) =>
  ({
    async tenantAssignedRoadmaps({ params, caller }) {
      await learner(caller.id, params.userId);
      return ok({ data: await learnerRoadmaps(db, params.userId) });
    },
    async tenantCheckRoadmapAssigned({ params, caller }) {
      await learner(caller.id, params.userId);
      return ok({ data: await learnerAssignment(db, params.userId, params.roadmapId) });
    },
    async tenantAssignRoadmap({ body, caller }) {
      const { seat, learner: who } = await learner(caller.id, body.userId);
      return created({ data: await assignRoadmapFor(db, caller, { seat, learnerEmail: who.email }, body) });
    },
    tenantRoadmapList: async ({ query }) => ok({ data: await listRoadmaps(db, query) }),
    async tenantRoadmap({ params }) {
      const roadmap = await loadRoadmap(db, params.roadmapId);
      if (!roadmap) throw notFound(CATALOGUE_MESSAGES.roadmapNotFound);
      return ok({ data: roadmap });
    },
    async tenantAssignedRoadmap({ params, caller }) {
      await learner(caller.id, params.userId);
      const roadmap = await learnerRoadmap(db, params.userId, params.id, roadmapTests);
      if (!roadmap) throw notFound(CATALOGUE_MESSAGES.assignedNotFound);
      return ok({ data: roadmap });
    },
  }) satisfies Partial<TenantHandlers>;

export function tenantRoutes(app: FastifyInstance, deps: TenantDeps) {
  const { db } = deps;
  // the tenant's plan (billing's), and one clock for seats and billing (tests move it through
  // app.services.billing.now)
  const plans = () => deps.seatPlans;
  const clock = () => plans().now();
  const tenancy: Tenancy = {
    db,
    reads: deps.reads,
    config: deps.config,
    plans,
    clock,
    roadmapTests: deps.roadmapTests,
    learner: (tenantId, userId) => requireLearner(db, tenantId, userId, clock()),
  };
  serve(app, tenantRouter, {
    ...seatCalls(tenancy),
    ...reportCalls(tenancy),
    ...learnerCalls(tenancy),
    ...roadmapCalls(tenancy),
  });
  serve(app, invitationsRouter, invitationCalls(tenancy));
  serve(app, tenantExportsRouter, exportCalls(tenancy));
}
