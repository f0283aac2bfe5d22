/**
 * The tenant calls (shared/contract/tenant.ts) except billing's: seats, invitations, statistics and
 * tables, one learner's analytics, tests and roadmaps, and every table as a file (./exports.ts). Every call is TENANT-only (the contract's
 * access) and every learner-scoped call first finds the learner among the caller's own seats (404
 * otherwise). A learner's figures come from the functions the learner's own calls use: activity reports,
 * the catalogue's assignment and views, the assessment engine's review. The statistics, the learner's
 * analytics and the exports read `reads()` — the read replica while it is in use (decision 035) — after
 * the seat check, which like everything a mentor changes and reads back reads the primary.
 */
import {
  invitationCheck,
  tenantAddUser,
  tenantAddUserV2,
  tenantAssignedRoadmap,
  tenantAssignedRoadmaps,
  tenantAssignRoadmap,
  tenantAwardsByType,
  tenantBeforeCheckAddUser,
  tenantCancelInvitation,
  tenantCheckRoadmapAssigned,
  tenantDashboardStats,
  tenantExportAwards,
  tenantExportLearningReport,
  tenantExportResourceReport,
  tenantExportTestlinks,
  tenantExportUsers,
  tenantGetResource,
  tenantInvitations,
  tenantInviteUser,
  tenantLearningDays,
  tenantLearningReport,
  tenantRemoveUser,
  tenantRoadmap,
  tenantRoadmapList,
  tenantTestlinkList,
  tenantTestlinkView,
  tenantTimeSpentByTopic,
  tenantTimeSpentDaywise,
  tenantTimeSpentOnResource,
  tenantUserAchievements,
  tenantUserInfo,
  tenantUsersList,
  tenantUsersSearchList,
} from '@shared/contract/tenant';
import { CSV_CONTENT_TYPE, downloadName } from '@shared/rules/csv';
import { TENANT_MESSAGES } from '@shared/schemas/tenant';
import { and, asc, count, desc, eq, gte, ilike, lte, ne, or, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { learningDays, timeByDay, timeByResource, timeByTopic } from '../activity/reports';
import { findLink } from '../assessments/engine/link-life';
import { linksOf, toApiLinks } from '../assessments/queries';
import { testReview } from '../assessments/review';
import { roadmapTests } from '../assessments/roadmap-tests';
import { testLinks } from '../assessments/tables';
import { assignToLearner, CATALOGUE_MESSAGES, learnerRoadmap, learnerRoadmaps } from '../catalogue/learning';
import { listRoadmaps, loadRoadmap } from '../catalogue/queries';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { escapeLike } from '../db/like';
import { tenantUsers, users } from '../db/schema';
import { fileResponse } from '../http/download';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors';
import { answer, created, ok, serve } from '../http/routes';
import { seatPlansOf, visibleSeat } from './accounting';
import {
  awardsExport,
  type Export,
  learningExport,
  resourceReportExport,
  serialise,
  testLinksExport,
  usersExport,
} from './exports';
import { achievements, awardsByType, learningReport, tenantStats } from './reports';
import {
  addLearner,
  beforeCheck,
  cancelInvitation,
  checkInvitation,
  EmailNotFound,
  invitationsOf,
  invite,
  removeLearner,
  requireLearner,
  toEntry,
  toInvitation,
} from './seats';

const RESOURCE_LINK_TYPES = ['RESOURCE', 'RESOURCE-FROM-WHATSAPP'] as const;

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
  reads?: () => Db;
  config: Config;
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

export function tenantRoutes(app: FastifyInstance, deps: TenantDeps) {
  const { db, config } = deps;
  const reads = deps.reads ?? (() => db);
  // the tenant's plan (billing's), and one clock for seats and billing (tests move it through
  // app.services.billing.now)
  const plans = () => seatPlansOf(app);
  const clock = () => plans().now();
  const learner = (tenantId: string, userId: string) => requireLearner(db, tenantId, userId, clock());

  /** A learner's test links, newest first: created in the window, and of one assigned roadmap when asked. */
  const learnerLinks = (
    userId: string,
    q: { startTime?: number; endTime?: number; assignedRoadmapId?: string },
    from = db,
  ) =>
    from
      .select()
      .from(testLinks)
      .where(
        and(
          eq(testLinks.userId, userId),
          ne(testLinks.type, 'INITIAL-ASSESSMENT'),
          q.assignedRoadmapId ? eq(testLinks.assignedRoadmapId, q.assignedRoadmapId) : undefined,
          q.startTime === undefined ? undefined : gte(testLinks.createdAt, new Date(q.startTime * 1000)),
          q.endTime === undefined ? undefined : lte(testLinks.createdAt, new Date(q.endTime * 1000 + 999)),
        ),
      )
      .orderBy(desc(testLinks.createdAt), desc(testLinks.id));

  /** A table as a file to download. */
  const file = (reply: FastifyReply, what: string, format: 'csv' | 'ndjson', e: Export) =>
    fileResponse(reply, {
      filename: downloadName(what, format === 'csv' ? 'csv' : 'json').replace(/\.json$/, '.ndjson'),
      contentType: format === 'csv' ? CSV_CONTENT_TYPE : 'application/x-ndjson; charset=utf-8',
      chunks: serialise(e, format),
    });

  async function addUser({ body, caller }: { body: { email: string }; caller: { id: string } }) {
    const result = await emailNotFoundAware(() => addLearner(db, plans(), caller.id, body.email, clock()));
    return result.ok ? ok(result.value) : answer(404, result.body);
  }

  serve(
    app,
    {
      tenantUsersList,
      tenantUsersSearchList,
      tenantUserInfo,
      tenantBeforeCheckAddUser,
      tenantAddUserV2,
      tenantAddUser,
      tenantRemoveUser,
      tenantInviteUser,
      tenantInvitations,
      tenantCancelInvitation,
      invitationCheck,
      tenantDashboardStats,
      tenantAwardsByType,
      tenantLearningReport,
      tenantUserAchievements,
      tenantTestlinkList,
      tenantTimeSpentDaywise,
      tenantTimeSpentOnResource,
      tenantGetResource,
      tenantLearningDays,
      tenantTimeSpentByTopic,
      tenantTestlinkView,
      tenantAssignedRoadmaps,
      tenantCheckRoadmapAssigned,
      tenantAssignRoadmap,
      tenantRoadmapList,
      tenantRoadmap,
      tenantAssignedRoadmap,
      tenantExportUsers,
      tenantExportLearningReport,
      tenantExportAwards,
      tenantExportResourceReport,
      tenantExportTestlinks,
    },
    {
      // ---- seats

      async tenantUsersList({ query, caller }) {
        const conditions: SQL[] = [visibleSeat(caller.id, clock())];
        if (query.searchText) {
          const pattern = `%${escapeLike(query.searchText)}%`;
          conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern))!);
        }
        const where = and(...conditions);
        const [rows, [total]] = await Promise.all([
          db
            .select({ seat: tenantUsers, learner: users })
            .from(tenantUsers)
            .innerJoin(users, eq(users.id, tenantUsers.learnerId))
            .where(where)
            .orderBy(asc(tenantUsers.createdAt), asc(tenantUsers.id))
            .limit(query.limit)
            .offset((query.page - 1) * query.limit),
          db
            .select({ n: count() })
            .from(tenantUsers)
            .innerJoin(users, eq(users.id, tenantUsers.learnerId))
            .where(where),
        ]);
        return ok({
          data: {
            tenantUserList: rows.map(({ seat, learner }) => toEntry(seat, learner)),
            totalUserCount: total?.n ?? 0,
          },
        });
      },

      async tenantUsersSearchList({ query, caller }) {
        const conditions: SQL[] = [visibleSeat(caller.id, clock())];
        if (query.searchText) {
          const pattern = `%${escapeLike(query.searchText.toLowerCase())}%`;
          conditions.push(or(ilike(users.email, pattern), ilike(users.name, pattern))!);
        }
        const rows = await db
          .select({ _id: users.id, email: users.email, name: users.name })
          .from(tenantUsers)
          .innerJoin(users, eq(users.id, tenantUsers.learnerId))
          .where(and(...conditions))
          .orderBy(asc(users.email))
          .limit(50);
        return ok({ data: rows });
      },

      async tenantUserInfo({ params, caller }) {
        const { seat, learner: l } = await learner(caller.id, params.id);
        return ok({
          data: {
            _id: l.id,
            name: l.name,
            email: l.email,
            phoneNumber: l.phoneNumber,
            countrycode: l.countrycode,
            picture: l.picture,
            isDisabled: seat.isDisabled,
            accessUntil: seat.accessUntil?.toISOString() ?? null,
            createdAt: seat.createdAt.toISOString(),
          },
        });
      },

      async tenantBeforeCheckAddUser({ body, caller }) {
        const result = await emailNotFoundAware(() =>
          beforeCheck(db, plans(), caller.id, body.email, clock()),
        );
        return result.ok ? ok({ data: result.value }) : answer(404, result.body);
      },

      tenantAddUserV2: addUser,
      tenantAddUser: addUser,

      async tenantRemoveUser({ params, caller }) {
        return ok({ data: await removeLearner(db, plans(), caller.id, params.learnerId, clock()) });
      },

      // ---- invitations

      async tenantInviteUser({ body, caller }) {
        const row = await invite(db, plans(), caller.id, body.email, clock());
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

      async tenantCancelInvitation({ params, caller }) {
        return ok({ data: toInvitation(await cancelInvitation(db, caller.id, params.id), clock()) });
      },

      async invitationCheck({ query }) {
        return ok({ data: await checkInvitation(db, query.tenantId, query.email, clock()) });
      },

      // ---- statistics and tables

      async tenantDashboardStats({ caller }) {
        return ok({ data: await tenantStats(reads(), caller.id, clock()) });
      },

      async tenantAwardsByType({ query, caller }) {
        return ok({ data: await awardsByType(reads(), caller.id, query.certificateType, clock()) });
      },

      async tenantLearningReport({ query, caller }) {
        return ok({ data: await learningReport(reads(), caller.id, clock(), range(query)) });
      },

      // ---- one learner's analytics

      async tenantUserAchievements({ params, query, caller }) {
        await learner(caller.id, params.userId);
        return ok({ data: await achievements(reads(), params.userId, query) });
      },

      async tenantTestlinkList({ params, query, caller }) {
        await learner(caller.id, params.userId);
        return ok({
          data: await toApiLinks(
            db,
            await learnerLinks(params.userId, query),
            config.retakeCooldownMs,
            clock(),
          ),
        });
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
        const rows = (await linksOf(db, params.userId)).filter(
          (l) =>
            l.resourceId === params.resourceId && (RESOURCE_LINK_TYPES as readonly string[]).includes(l.type),
        );
        return ok({
          data: {
            assessmentIds: rows.map((r) => r.linkId),
            testLinks: await toApiLinks(db, rows, config.retakeCooldownMs, clock()),
          },
        });
      },

      async tenantTestlinkView({ params, caller }) {
        await learner(caller.id, params.userId);
        const found = await findLink(db, params.linkId);
        if (!found || found.userId !== params.userId) throw notFound('Test link not found');
        return ok({ data: await testReview(db, found, clock(), config.retakeCooldownMs) });
      },

      // ---- every table as a file

      async tenantExportUsers({ query, caller, reply }) {
        const { format, ...filter } = query;
        return file(reply, 'users', format, usersExport(reads(), caller.id, clock(), filter));
      },

      async tenantExportLearningReport({ query, caller, reply }) {
        return file(
          reply,
          'learning-report',
          query.format,
          learningExport(reads(), caller.id, clock(), range(query)),
        );
      },

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
        const rows = await learnerLinks(params.userId, query, from);
        const answers = (linkId: string) =>
          `${config.publicUrl}/portal/users/${params.userId}/testlink/${encodeURIComponent(linkId)}`;
        return file(reply, 'assessments', query.format, testLinksExport(from, rows, clock(), answers));
      },

      // ---- roadmaps for a learner

      async tenantAssignedRoadmaps({ params, caller }) {
        await learner(caller.id, params.userId);
        return ok({ data: await learnerRoadmaps(db, params.userId) });
      },

      async tenantCheckRoadmapAssigned({ params, caller }) {
        await learner(caller.id, params.userId);
        const mine = (await learnerRoadmaps(db, params.userId)).find((r) => r.roadmapId === params.roadmapId);
        return ok({ data: { assigned: Boolean(mine), assignedRoadmapId: mine?._id ?? null } });
      },

      async tenantAssignRoadmap({ body, caller }) {
        const { seat } = await learner(caller.id, body.userId);
        if (seat.isDisabled) {
          throw forbidden(
            "This learner's seat has been removed: it can be read until the end of the billing cycle, not changed.",
            'SEAT_DISABLED',
          );
        }
        try {
          const { row, created: isNew } = await assignToLearner(db, {
            userId: body.userId,
            roadmapId: body.roadmapId,
            source: 'TENANT',
            assignedBy: caller.id,
            prerequisites: body.prerequisites,
            refuseWith: () =>
              badRequest(CATALOGUE_MESSAGES.prerequisitesChoice, 'prerequisites', {
                errorCode: 'PREREQUISITES_CHOICE_REQUIRED',
              }),
          });
          return created({ data: { assignedRoadmapId: row.id, created: isNew } });
        } catch (err) {
          if (err instanceof HttpError && err.extra.errorCode === 'ROADMAP_LIMIT') {
            throw new HttpError(400, TENANT_MESSAGES.roadmapLimit, {
              errorCode: 'ROADMAP_LIMIT',
              field: 'userId',
            });
          }
          throw err;
        }
      },

      async tenantRoadmapList({ query }) {
        return ok({ data: await listRoadmaps(db, query) });
      },

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
    },
  );
}
