/**
 * LTI 1.3 Advantage (issue 27; decision 044). The tenant's calls — the values a platform's administrator
 * pastes, the platforms registered (by hand, or by a one-time Dynamic Registration address) — and the call
 * of the page a launch opened inside the LMS: the session it starts. The protocol's own endpoints
 * (login initiation, the launch, the key set, Dynamic Registration) are not JSON calls: server/integrations/
 * lti/routes.ts serves them under /lti.
 */
import { z } from 'zod';
import { ErrorBody, envelope, errors, Id } from '../schemas/common';
import {
  CreateLtiRegistrationInput,
  LtiContext,
  LtiCourseView,
  LtiDeepLinkingInput,
  LtiDeepLinkingResponse,
  LtiDelivery,
  LtiDeliveryQuery,
  LtiLaunchHeaders,
  LtiPickerOptions,
  LtiRegistration,
  LtiRegistrationInvite,
  LtiSession,
  LtiSessionInput,
  LtiSyncResult,
  LtiToolConfig,
  UpdateLtiRegistrationInput,
} from '../schemas/lti';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;
const MANAGE = ['integrations:manage'] as const;

export const ltiToolConfig = defineCall({
  method: 'GET',
  path: '/tenant/lti/tool',
  summary:
    "What a platform's administrator pastes to add Waymark by hand: the login (OIDC initiation) address, the launch (redirect) address, the key set (JWKS) address, the deep-linking address, the scopes Waymark asks for and its custom parameters.",
  tags: ['integrations'],
  access: TENANT,
  scopes: MANAGE,
  responses: { 200: envelope(LtiToolConfig), ...errors },
});

export const ltiRegistrationList = defineCall({
  method: 'GET',
  path: '/tenant/lti/registrations',
  summary:
    "The tenant's LMS platforms, newest first: issuer, client id, deployments, addresses, status, and how many score posts wait, failed or were delivered.",
  tags: ['integrations'],
  access: TENANT,
  scopes: MANAGE,
  responses: { 200: envelope(z.array(LtiRegistration)), ...errors },
});

export const createLtiRegistration = defineCall({
  method: 'POST',
  path: '/tenant/lti/registrations',
  summary:
    'Adds a platform by hand: its issuer, the client id it gave Waymark, its deployment ids and its login, token and key set addresses. An issuer and client id belong to one tenant (409 when registered already). Recorded in the activity log.',
  tags: ['integrations'],
  access: TENANT,
  scopes: MANAGE,
  body: CreateLtiRegistrationInput,
  responses: { 201: envelope(LtiRegistration), ...errors },
});

export const updateLtiRegistration = defineCall({
  method: 'PATCH',
  path: '/tenant/lti/registrations/{id}',
  summary:
    'Changes a platform: pause it (launches are refused and nothing is posted until it is resumed) or resume it, rename it, say whether its e-mail addresses are verified, which attempt a retake sends (BEST or LATEST), its deployment ids.',
  tags: ['integrations'],
  access: TENANT,
  scopes: MANAGE,
  params: z.object({ id: Id }),
  body: UpdateLtiRegistrationInput,
  responses: { 200: envelope(LtiRegistration), ...errors },
});

export const removeLtiRegistration = defineCall({
  method: 'DELETE',
  path: '/tenant/lti/registrations/{id}',
  summary:
    'Removes a platform with its courses, grade columns and waiting score posts. The learners keep their accounts, seats and results.',
  tags: ['integrations'],
  access: TENANT,
  scopes: MANAGE,
  params: z.object({ id: Id }),
  responses: { 200: envelope(z.object({ removed: z.boolean() })), ...errors },
});

export const createLtiRegistrationInvite = defineCall({
  method: 'POST',
  path: '/tenant/lti/registration-invites',
  summary:
    'A Dynamic Registration address for one platform: paste it into the LMS (Moodle: Register tool; Canvas: LTI Registration). It works once, for 7 days, and registers the platform to this tenant.',
  tags: ['integrations'],
  access: TENANT,
  scopes: MANAGE,
  body: z.object({
    label: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  }),
  responses: { 201: envelope(LtiRegistrationInvite), ...errors },
});

export const ltiContextList = defineCall({
  method: 'GET',
  path: '/tenant/lti/registrations/{id}/contexts',
  summary:
    "A platform's courses Waymark was launched from, newest launch first, with whether their members can be read (NRPS).",
  tags: ['integrations'],
  access: TENANT,
  scopes: MANAGE,
  params: z.object({ id: Id }),
  responses: { 200: envelope(z.array(LtiContext)), ...errors },
});

export const syncLtiMembers = defineCall({
  method: 'POST',
  path: '/tenant/lti/contexts/{id}/sync',
  summary:
    "Reads a course's members from the platform (Names and Role Provisioning Services) and gives each active learner a seat by the seat rules of adding a learner: who was added, who was there already, who could not be added and why. With dryRun nothing is written. Running it again adds nobody twice. 502 LTI_PLATFORM_ERROR when the platform does not answer.",
  tags: ['integrations'],
  access: TENANT,
  scopes: ['integrations:manage', 'seats:write'],
  params: z.object({ id: Id }),
  body: z.object({ dryRun: z.boolean().default(false) }),
  responses: { 200: envelope(LtiSyncResult), ...errors, 502: ErrorBody },
});

export const ltiDeliveryList = defineCall({
  method: 'GET',
  path: '/tenant/lti/deliveries',
  summary:
    "Score posts to the platforms' gradebooks, newest first: the learner, the score, the status (PENDING, SENDING, DELIVERED, FAILED while retried, GAVE_UP), attempts and the platform's last answer.",
  tags: ['integrations'],
  access: TENANT,
  scopes: MANAGE,
  query: LtiDeliveryQuery,
  responses: { 200: envelope(z.array(LtiDelivery)), ...errors },
});

export const retryLtiDelivery = defineCall({
  method: 'POST',
  path: '/tenant/lti/deliveries/{id}/retry',
  summary:
    'Sends a score post that failed again now (its job is queued with the change), with its attempts counted afresh; a delivered one is not sent twice (409).',
  tags: ['integrations'],
  access: TENANT,
  scopes: MANAGE,
  params: z.object({ id: Id }),
  responses: { 200: envelope(LtiDelivery), ...errors },
});

// ---- the pages a launch opened inside the LMS

export const ltiStartSession = defineCall({
  method: 'POST',
  path: '/lti/session',
  summary:
    "Exchanges a launch's one-time code (and, when the launch kept its state in the platform's storage, that state) for what the launch opens: a learner's Waymark session — limited to what a learner of the tenant may do — or an instructor's launch token for the picker and the course view. A code works once, for 2 minutes (404 LTI_CODE_INVALID after; 400 LTI_STATE_MISMATCH when the state read back is not the launch's).",
  tags: ['lti'],
  access: 'public',
  rateLimit: 'strict',
  body: LtiSessionInput,
  responses: { 200: envelope(LtiSession), ...errors },
});

export const ltiTenantRouter = defineRouter({
  ltiToolConfig,
  ltiRegistrationList,
  createLtiRegistration,
  updateLtiRegistration,
  removeLtiRegistration,
  createLtiRegistrationInvite,
  ltiContextList,
  syncLtiMembers,
  ltiDeliveryList,
  retryLtiDelivery,
});

export const ltiDeepLinkingOptions = defineCall({
  method: 'GET',
  path: '/lti/deep-linking/options',
  summary:
    "What an instructor may add from the picker (a deep-linking launch's token in X-LTI-Launch): the tenant's own assessments. 404 LTI_LAUNCH_INVALID once the launch has expired or answered.",
  tags: ['lti'],
  access: 'public',
  headers: LtiLaunchHeaders,
  responses: { 200: envelope(LtiPickerOptions), ...errors },
});

export const ltiCourseView = defineCall({
  method: 'GET',
  path: '/lti/course',
  summary:
    "The instructor's view of the course an instructor, teaching assistant or administrator launched Waymark from (the launch's token in X-LTI-Launch): the learners of that course and tenant — linked by a launch from it or by its member sync — with their tests of the tenant's assessments, scores and awards. 404 LTI_LAUNCH_INVALID once the launch has expired or was not an instructor's.",
  tags: ['lti'],
  access: 'public',
  headers: LtiLaunchHeaders,
  responses: { 200: envelope(LtiCourseView), ...errors },
});

export const ltiDeepLinkingRespond = defineCall({
  method: 'POST',
  path: '/lti/deep-linking/response',
  summary:
    'The signed LtiDeepLinkingResponse for what the instructor picked (ltiResourceLink items, each with its gradebook line item) and the platform address the browser posts it to (as JWT). A launch answers once (409 LTI_ANSWERED).',
  tags: ['lti'],
  access: 'public',
  headers: LtiLaunchHeaders,
  body: LtiDeepLinkingInput,
  responses: { 200: envelope(LtiDeepLinkingResponse), ...errors },
});

export const ltiLaunchRouter = defineRouter({
  ltiStartSession,
  ltiDeepLinkingOptions,
  ltiDeepLinkingRespond,
  ltiCourseView,
});
