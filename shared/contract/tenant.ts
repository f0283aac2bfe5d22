/**
 * The mentor / organisation side (mentor §2.3–2.6, §4, §7 "Tenant portal"; learner §7 tenant calls):
 * seats (add, check, remove, list, search), statistics and award tables, and a learner's analytics, tests
 * and roadmaps. Invitations are in ./invitations.ts, the tables as files in ./tenant-exports.ts, cohorts in
 * ./cohorts.ts (all published as `tenant.*`); the subscription, its checkout and the offer code in
 * ./billing.ts.
 *
 * Every /tenant/* call is for TENANT callers only and answers only about the caller's own learners: a
 * learner who is not one of the caller's seats is 404 ('This learner is not one of your users.'), never
 * data. A disabled seat (removed, waiting for the end of the billing cycle) stays readable until removed.
 * `userId` and `learnerId` are the learner's user id (`learnerId._id` of a list entry), not the seat's id.
 * Times are unix seconds with UTC day bounds, as on the learner's dashboard, whose figures these are.
 */
import { z } from 'zod';
import { DailyTime } from '../schemas/activity';
import { TestLink, TestView } from '../schemas/assessment';
import { AssignedRoadmap, AssignedRoadmapSummary, Roadmap, RoadmapSummary } from '../schemas/catalogue';
import {
  envelope,
  errors,
  Id,
  PageNumber,
  PageQuery,
  TimeRangeQuery,
  UnixSecondsInput,
} from '../schemas/common';
import { ReportRange } from '../schemas/report-range';
import {
  AddUserInput,
  AddUserResult,
  AwardRow,
  BeforeCheckManyInput,
  BeforeCheckManyResult,
  BeforeCheckResult,
  EmailNotFoundBody,
  LearningReportRow,
  Stats,
  TenantUserInfo,
  TenantUserRow,
  TenantUserSearchEntry,
  UserAchievement,
} from '../schemas/tenant';
import { LearningDays, ResourceTimePage, SubjectTime } from './activity';
import { RoadmapFilter } from './catalogue';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;
const userParam = z.object({ userId: Id });

// ---- seats

export const tenantUsersList = defineCall({
  method: 'GET',
  path: '/tenant/users/list',
  summary: "The tenant's learner seats, paged and searchable by name or e-mail.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  query: z.object({
    page: PageNumber.default(1),
    // a literal set, not a refinement: the OpenAPI document shows the values (a refine is invisible there)
    limit: z.coerce
      .number()
      .min(5, 'must be 5, 10 or 15')
      .max(15, 'must be 5, 10 or 15')
      .pipe(z.literal([5, 10, 15], 'must be 5, 10 or 15'))
      .default(5),
    searchText: z.string().trim().max(100).optional(),
    cohortId: Id.optional().describe("Only the members of this cohort (one of the tenant's)"),
  }),
  responses: {
    200: envelope(z.object({ tenantUserList: z.array(TenantUserRow), totalUserCount: z.number().int() })),
    ...errors,
  },
});

export const tenantUsersSearchList = defineCall({
  method: 'GET',
  path: '/tenant/users/search-list',
  summary:
    "The tenant's learners whose e-mail or name contains searchText (all of them, up to 50, when it is empty): user id, e-mail and name, for choosing learners (sharing an assessment).",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  query: z.object({ searchText: z.string().trim().max(100).optional() }),
  responses: { 200: envelope(z.array(TenantUserSearchEntry)), ...errors },
});

export const tenantUserInfo = defineCall({
  method: 'GET',
  path: '/tenant/users/user-info/{id}',
  summary: "One of the tenant's learners by user id (the learner-name layout), with the seat's state.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  params: z.object({ id: Id }),
  responses: { 200: envelope(TenantUserInfo), ...errors },
});

export const tenantBeforeCheckAddUser = defineCall({
  method: 'POST',
  path: '/tenant/users/before-check-add-user',
  summary:
    "The check before adding a learner by e-mail; writes nothing. 404 'Email Not Found' (no learner account) carries isAllowToInvite: whether a seat is free for an invitation. 409 with code 11000 'Email Already Assigned For You' when the learner is already a seat of the caller.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  body: AddUserInput,
  responses: { 200: envelope(BeforeCheckResult), ...errors, 404: EmailNotFoundBody },
});

export const tenantBeforeCheckAddUsers = defineCall({
  method: 'POST',
  path: '/tenant/users/before-check-add-users',
  summary:
    "The check before adding, for up to 1,000 addresses at once (a roster); writes nothing. Each address gets the answer the single check would give — ADD (a learner account, not a seat of the caller's yet: adding it takes a seat), ALREADY_ASSIGNED (code 11000), EMAIL_NOT_FOUND (no learner account; `invitable` when nobody has the address, `invited` when a pending invitation of the caller's keeps a seat for it already) — and `seats` says what the allowance is and what uses it, so the seats a roster needs can be counted before adding anyone.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  body: BeforeCheckManyInput,
  responses: { 200: envelope(BeforeCheckManyResult), ...errors },
});

const addUserResponses = {
  200: envelope(AddUserResult),
  ...errors,
  404: EmailNotFoundBody,
} as const;

const addUserSummary =
  "Adds an existing learner by e-mail as a seat, or says why not (nothing written then) — the subscription flow of mentor §4: outcome ADDED (message 'User added'); NOT_YET_SUBSCRIBED (message 'not yet subscribed': open the payment modal for `quantity` = seats + 1); PAYMENT_REQUIRED (subscribed, every paid seat used: the Payment Required modal); OFFER_LIMIT (subscribed on an offer, every seat used: the alert). 404 'Email Not Found' with isAllowToInvite; 409 code 11000 'Email Already Assigned For You'.";

export const tenantAddUserV2 = defineCall({
  method: 'POST',
  path: '/tenant/users/add-user-v2',
  summary: addUserSummary,
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  body: AddUserInput,
  responses: addUserResponses,
});

export const tenantAddUser = defineCall({
  method: 'POST',
  path: '/tenant/users/add-user',
  summary: `The helper that adds one learner; same rules and answers as add-user-v2. ${addUserSummary}`,
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  body: AddUserInput,
  responses: addUserResponses,
});

export const tenantRemoveUser = defineCall({
  method: 'DELETE',
  path: '/tenant/users/remove-user/{learnerId}',
  summary:
    "Removes a learner's seat. Not subscribed: removed at once (removed true). Subscribed: the seat is disabled and stays readable until the end of the billing cycle (accessUntil), then a scheduled job removes it and the next period is billed without it. Removing a disabled seat again changes nothing.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  params: z.object({ learnerId: Id }),
  responses: {
    200: envelope(
      z.object({ removed: z.boolean(), isDisabled: z.boolean(), accessUntil: z.string().nullable() }),
    ),
    ...errors,
  },
});

// ---- statistics and tables

export const tenantDashboardStats = defineCall({
  method: 'GET',
  path: '/tenant/dashboard/stats',
  summary:
    "The statistics cards over the tenant's learners: seats, test links, completed ones, certificates, badges and feathers earned (status GENERATE_CERTIFICATE or VIEW_CERTIFICATE), and the average learning time in seconds per learner per day of learning.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  responses: { 200: envelope(Stats), ...errors },
});

export const CERTIFICATE_TYPES = ['ROADMAP', 'SECTION', 'RESOURCE'] as const;

export const tenantAwardsByType = defineCall({
  method: 'GET',
  path: '/tenant/dashboard/get-tenant-user-awards-by-type',
  summary:
    "The awards earned by the tenant's learners, newest first: certificateType ROADMAP (certificates, roadmap and subject tests), SECTION (badges) or RESOURCE (feathers).",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  query: z.object({
    certificateType: z.enum(CERTIFICATE_TYPES, { error: 'must be ROADMAP, SECTION or RESOURCE' }),
  }),
  responses: { 200: envelope(z.array(AwardRow)), ...errors },
});

export const tenantLearningReport = defineCall({
  method: 'GET',
  path: '/tenant/dashboard/get-tenant-user-learning-report',
  summary:
    'The Learning Report table: per learner, the days with learning (TotalDayReports), seconds learnt (TotalTimeSpent) and seconds per day of learning (averageTimeSpent) — over all time, or over startTime..endTime when both are given. createdAt is when the seat was added.',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  query: z
    .object({
      startTime: UnixSecondsInput.optional(),
      endTime: UnixSecondsInput.optional(),
    })
    .refine((q) => (q.startTime === undefined) === (q.endTime === undefined), {
      message: 'give both startTime and endTime, or neither',
      path: ['endTime'],
    })
    .refine((q) => q.startTime === undefined || q.endTime === undefined || q.endTime >= q.startTime, {
      message: 'must not be before startTime',
      path: ['endTime'],
    }),
  responses: { 200: envelope(z.array(LearningReportRow)), ...errors },
});

// ---- one learner's analytics (the same figures as the learner's own dashboard)

export const tenantUserAchievements = defineCall({
  method: 'GET',
  path: '/tenant/dashboard/user-achievements/{userId}',
  summary:
    'Awards the learner earned between startTime and endTime (tests completed in the range), counted by level: RESOURCE (feathers), SECTION (badges), ROADMAP (certificates).',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  params: userParam,
  query: TimeRangeQuery,
  responses: { 200: envelope(z.array(UserAchievement)), ...errors },
});

/** A time window (TimeRangeQuery's rules), optional only when the list is of one assigned roadmap. */
const TestlinkListQuery = z
  .object({
    startTime: TimeRangeQuery.shape.startTime.optional(),
    endTime: TimeRangeQuery.shape.endTime.optional(),
    assignedRoadmapId: Id.optional(),
  })
  .superRefine((q, ctx) => {
    const missing = (['startTime', 'endTime'] as const).filter((field) => q[field] === undefined);
    if (missing.length === 2 && q.assignedRoadmapId) return;
    if (missing.length > 0) {
      for (const field of missing) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: q.assignedRoadmapId ? 'give both startTime and endTime, or neither' : 'Required',
        });
      }
      return;
    }
    const range = TimeRangeQuery.safeParse(q);
    if (!range.success) for (const issue of range.error.issues) ctx.addIssue({ ...issue, code: 'custom' });
  });

export const tenantTestlinkList = defineCall({
  method: 'GET',
  path: '/tenant/testlink/list/{userId}',
  summary:
    "The learner's test links created between startTime and endTime, newest first. With assignedRoadmapId, only that roadmap's links, and the window may be left out (then they are all of them, of any date).",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  params: userParam,
  query: TestlinkListQuery,
  responses: { 200: envelope(z.array(TestLink)), ...errors },
});

export const tenantTimeSpentDaywise = defineCall({
  method: 'GET',
  path: '/tenant/dashboard/time-spent-by-user-daywise/{userId}',
  summary: 'Seconds the learner learnt per UTC day from startTime to endTime (zero days included).',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  params: userParam,
  query: TimeRangeQuery,
  responses: { 200: envelope(z.array(DailyTime)), ...errors },
});

export const tenantTimeSpentOnResource = defineCall({
  method: 'GET',
  path: '/tenant/dashboard/time-spent-on-resource-by-user/{userId}',
  summary:
    'Seconds the learner learnt per resource from startTime to endTime, most first; skip is the page number (from 1), limit the page size (5 in the portal).',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  params: userParam,
  query: TimeRangeQuery.safeExtend(PageQuery.shape),
  responses: { 200: envelope(ResourceTimePage), ...errors },
});

export const tenantLearningDays = defineCall({
  method: 'GET',
  path: '/tenant/dashboard/learning-days/{userId}',
  summary:
    "The learner's calendar heatmap of the last 12 months and streaks of learning days: the same figures as the learner's GET /reports/dashboard/learning-days.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  params: userParam,
  responses: { 200: envelope(LearningDays), ...errors },
});

export const tenantTimeSpentByTopic = defineCall({
  method: 'GET',
  path: '/tenant/dashboard/time-spent-by-topic/{userId}',
  summary:
    "Seconds the learner learnt per subject and topic from startTime to endTime, most first: the same figures as the learner's GET /reports/dashboard/time-spent-by-topic.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  params: userParam,
  query: ReportRange,
  responses: { 200: envelope(z.array(SubjectTime)), ...errors },
});

export const tenantGetResource = defineCall({
  method: 'GET',
  path: '/tenant/dashboard/get-resource/{userId}/{resourceId}',
  summary:
    "The learner's assessments of one resource (the 'View report' modal): their link ids (assessmentIds) and the test links, newest first.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  params: z.object({ userId: Id, resourceId: Id }),
  responses: {
    200: envelope(z.object({ assessmentIds: z.array(z.string()), testLinks: z.array(TestLink) })),
    ...errors,
  },
});

export const tenantTestlinkView = defineCall({
  method: 'GET',
  path: '/tenant/testlink/user/{userId}/testlink/{linkId}',
  summary:
    "'Questions & Answers' of one of the learner's tests: the same review as the learner's GET /testlink/{id}/view, only after evaluation (409 errorCode TEST_NOT_EVALUATED before).",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['reports:read'],
  params: z.object({
    userId: Id,
    linkId: z
      .string()
      .min(10, 'is not a test link id')
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, 'is not a test link id'),
  }),
  responses: { 200: envelope(TestView), ...errors },
});

// ---- roadmaps for a learner

/** What a mentor decides in place of the prerequisite assessment (decision 011). */
export const PREREQUISITE_CHOICES = ['INCLUDE', 'WAIVE'] as const;

export const tenantAssignedRoadmaps = defineCall({
  method: 'GET',
  path: '/tenant/roadmap/assigned-roadmaps/{userId}',
  summary: "The learner's assigned roadmaps, ongoing first.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  params: userParam,
  responses: { 200: envelope(z.array(AssignedRoadmapSummary)), ...errors },
});

export const tenantCheckRoadmapAssigned = defineCall({
  method: 'GET',
  path: '/tenant/roadmap/{roadmapId}/check-roadmap-assigned-to-user/{userId}',
  summary: 'Whether the learner has this roadmap (and the id of their copy).',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  params: z.object({ roadmapId: Id, userId: Id }),
  responses: {
    200: envelope(z.object({ assigned: z.boolean(), assignedRoadmapId: Id.nullable() })),
    ...errors,
  },
});

export const tenantAssignRoadmap = defineCall({
  method: 'POST',
  path: '/tenant/roadmap/assign-roadmap',
  summary:
    "Assigns a catalogue roadmap to one of the tenant's learners (201; assigning again answers with the existing copy). 400 message 'Already two Roadmaps are assigned' (errorCode ROADMAP_LIMIT) when two are ongoing. A disabled seat cannot be assigned to (403). A roadmap with prerequisites needs `prerequisites`, what the mentor decides in place of the learner's prerequisite assessment (decision 011): INCLUDE puts every prerequisite's sections first, WAIVE vouches for the learner (the roadmap's own sections only); without it, 400 naming `prerequisites` (errorCode PREREQUISITES_CHOICE_REQUIRED).",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:write'],
  body: z.object({
    roadmapId: Id,
    userId: Id,
    prerequisites: z
      .enum(PREREQUISITE_CHOICES, { error: 'must be INCLUDE or WAIVE' })
      .optional()
      .describe(
        'For a roadmap with prerequisites: INCLUDE (their sections first) or WAIVE (the mentor vouches for them). Ignored for a roadmap without.',
      ),
  }),
  responses: { 201: envelope(z.object({ assignedRoadmapId: Id, created: z.boolean() })), ...errors },
});

export const tenantRoadmapList = defineCall({
  method: 'GET',
  path: '/tenant/roadmap/list',
  summary: "The catalogue ('Roadmap List'), filtered by language, subject and topic (ids or names).",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  query: RoadmapFilter,
  responses: { 200: envelope(z.array(RoadmapSummary)), ...errors },
});

export const tenantRoadmap = defineCall({
  method: 'GET',
  path: '/tenant/roadmap/{roadmapId}',
  summary: 'One catalogue roadmap with sections, resources, tasks and curators.',
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  params: z.object({ roadmapId: Id }),
  responses: { 200: envelope(Roadmap), ...errors },
});

export const tenantAssignedRoadmap = defineCall({
  method: 'GET',
  path: '/tenant/roadmap/assigned-roadmap/{userId}/{id}',
  summary:
    "One of the learner's assigned roadmaps (id: the copy's id) with sections, resources, best scores, test link ids and tasks — the learner's own view.",
  tags: ['tenant'],
  access: TENANT,
  scopes: ['seats:read'],
  params: z.object({ userId: Id, id: Id }),
  responses: { 200: envelope(AssignedRoadmap), ...errors },
});

/** The seats', tables' and learners' calls, served by server/tenant/routes.ts. */
export const tenantRouter = defineRouter({
  tenantUsersList,
  tenantUsersSearchList,
  tenantUserInfo,
  tenantBeforeCheckAddUser,
  tenantBeforeCheckAddUsers,
  tenantAddUserV2,
  tenantAddUser,
  tenantRemoveUser,
  tenantDashboardStats,
  tenantAwardsByType,
  tenantLearningReport,
  tenantUserAchievements,
  tenantTestlinkList,
  tenantTimeSpentDaywise,
  tenantTimeSpentOnResource,
  tenantLearningDays,
  tenantTimeSpentByTopic,
  tenantGetResource,
  tenantTestlinkView,
  tenantAssignedRoadmaps,
  tenantCheckRoadmapAssigned,
  tenantAssignRoadmap,
  tenantRoadmapList,
  tenantRoadmap,
  tenantAssignedRoadmap,
});
