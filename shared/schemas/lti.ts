/**
 * LTI 1.3 Advantage (issue 27; decision 044): the platforms a tenant registered, the values a platform's
 * administrator pastes, the courses and their member sync, the score posts, and what a launch opens.
 */
import { z } from 'zod';
import { DateTime, Id } from './common';
import { entities } from './entities';

const Url = z
  .url({ error: 'must be an https address' })
  .max(2000, 'must be at most 2000 characters')
  .refine((u) => /^https?:\/\//i.test(u), 'must be an https address');
const Text = (max: number) =>
  z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

export const LTI_STATUSES = ['ACTIVE', 'PAUSED'] as const;
export const ATTEMPT_POLICIES = ['BEST', 'LATEST'] as const;

export const LtiRegistration = z.object({
  _id: Id,
  label: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  deploymentIds: z.array(z.string()),
  authLoginUrl: z.string(),
  tokenUrl: z.string(),
  jwksUrl: z.string(),
  authServer: z.string().nullable(),
  status: z.enum(LTI_STATUSES),
  via: z.enum(['DYNAMIC', 'MANUAL']),
  emailsVerified: z.boolean(),
  attemptPolicy: z.enum(ATTEMPT_POLICIES),
  scopes: z.array(z.string()),
  /** What the platform said of itself at registration (product, version), when it did. */
  platform: z.object({ product: z.string().nullable(), version: z.string().nullable() }),
  createdAt: DateTime,
  /** Score posts: waiting or retrying, failed for good, delivered. */
  deliveries: z.object({ pending: z.number().int(), failed: z.number().int(), delivered: z.number().int() }),
});
entities.add(LtiRegistration, { id: 'LtiRegistration' });
export type LtiRegistration = z.infer<typeof LtiRegistration>;

export const CreateLtiRegistrationInput = z.object({
  label: Text(100).describe('A name the mentor knows the platform by'),
  issuer: Url.describe("The platform's issuer (iss)"),
  clientId: Text(255).describe('The client id the platform gave Waymark'),
  deploymentIds: z
    .array(Text(255), { error: 'must be a list of deployment ids' })
    .min(1, 'must name at least one deployment id')
    .max(50, 'must be at most 50 deployment ids'),
  authLoginUrl: Url.describe("The platform's OIDC authorisation (login) address"),
  tokenUrl: Url.describe("The platform's OAuth 2 token address"),
  jwksUrl: Url.describe("The platform's public key set (JWKS) address"),
  authServer: Url.nullable()
    .optional()
    .describe('The audience of token requests, when the platform names one'),
  emailsVerified: z.boolean().default(false),
  attemptPolicy: z.enum(ATTEMPT_POLICIES, { error: 'must be BEST or LATEST' }).default('LATEST'),
});
entities.add(CreateLtiRegistrationInput, { id: 'CreateLtiRegistrationInput' });

export const UpdateLtiRegistrationInput = z.object({
  label: Text(100).optional(),
  status: z.enum(LTI_STATUSES, { error: 'must be ACTIVE or PAUSED' }).optional(),
  emailsVerified: z.boolean().optional(),
  attemptPolicy: z.enum(ATTEMPT_POLICIES, { error: 'must be BEST or LATEST' }).optional(),
  deploymentIds: z.array(Text(255)).min(1, 'must name at least one deployment id').max(50).optional(),
});
entities.add(UpdateLtiRegistrationInput, { id: 'UpdateLtiRegistrationInput' });

/** The values a platform's administrator pastes (or the one URL of Dynamic Registration). */
export const LtiToolConfig = z.object({
  clientName: z.string(),
  domain: z.string(),
  loginUrl: z.string(),
  launchUrl: z.string(),
  redirectUrls: z.array(z.string()),
  jwksUrl: z.string(),
  deepLinkingUrl: z.string(),
  scopes: z.array(z.string()),
  customParameters: z.string(),
});
entities.add(LtiToolConfig, { id: 'LtiToolConfig' });

export const LtiRegistrationInvite = z.object({ url: z.string(), expiresAt: DateTime });
entities.add(LtiRegistrationInvite, { id: 'LtiRegistrationInvite' });

export const LtiContext = z.object({
  _id: Id,
  contextId: z.string(),
  title: z.string().nullable(),
  canSyncMembers: z.boolean(),
  lastLaunchAt: DateTime,
});
entities.add(LtiContext, { id: 'LtiContext' });

export const MEMBER_OUTCOMES = ['ADDED', 'PRESENT', 'NOT_ADDED'] as const;
/**
 * Why, by code (the portal says it in the reader's language): `WOULD_ADD`, a dry run's learner without a
 * seat; `NOT_YET_SUBSCRIBED`, `PAYMENT_REQUIRED`, `OFFER_LIMIT`, the seat rules' refusals (the add call's
 * outcomes); `REFUSED`, another refusal, in the server's words (`reason`).
 */
export const MEMBER_REASONS = [
  'WOULD_ADD',
  'NOT_YET_SUBSCRIBED',
  'PAYMENT_REQUIRED',
  'OFFER_LIMIT',
  'REFUSED',
] as const;
export const LtiMemberOutcome = z.object({
  subject: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  outcome: z.enum(MEMBER_OUTCOMES),
  /** Why a learner could not be added (the seat rules' words), or what a dry run would do, in English. */
  reason: z.string().nullable(),
  /** The same by code, null when there is none (added, or already seated). */
  reasonCode: z.enum(MEMBER_REASONS).nullable(),
});
entities.add(LtiMemberOutcome, { id: 'LtiMemberOutcome' });

export const LtiSyncResult = z.object({
  dryRun: z.boolean(),
  members: z.array(LtiMemberOutcome),
  counts: z.object({ added: z.number().int(), present: z.number().int(), notAdded: z.number().int() }),
  /** Members who are not learners (instructors and others), left alone. */
  skipped: z.number().int(),
});
entities.add(LtiSyncResult, { id: 'LtiSyncResult' });

export const DELIVERY_STATUSES = ['PENDING', 'SENDING', 'DELIVERED', 'FAILED', 'GAVE_UP'] as const;
/**
 * Why Waymark itself gave a score post up, by code, with the English the post keeps as its `lastError`;
 * any other error is the platform's answer or the network's, in their own words.
 */
export const POST_ERRORS = {
  TARGET_GONE: 'The grade column is no longer known.',
  EVALUATION_GONE: 'The evaluation is no longer known.',
} as const;
type PostError = keyof typeof POST_ERRORS;
/** The code of a post's stored error, when it is one of Waymark's own (older posts' too: the same English). */
export const postErrorCode = (error: string | null): PostError | null =>
  (Object.keys(POST_ERRORS) as PostError[]).find((k) => POST_ERRORS[k] === error) ?? null;
export const LtiDelivery = z.object({
  _id: Id,
  registrationId: Id,
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  learner: z.object({ _id: Id, name: z.string().nullable(), email: z.string() }),
  eventType: z.string(),
  lineItemUrl: z.string(),
  scoreGiven: z.number().nullable(),
  scoreMaximum: z.number().nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** `lastError` by code when Waymark gave up by itself (TARGET_GONE, EVALUATION_GONE), else null. */
  lastErrorCode: z.enum(['TARGET_GONE', 'EVALUATION_GONE']).nullable(),
  createdAt: DateTime,
  nextAttemptAt: DateTime.nullable(),
  deliveredAt: DateTime.nullable(),
});
entities.add(LtiDelivery, { id: 'LtiDelivery' });

export const LtiDeliveryQuery = z.object({
  status: z
    .enum(['PENDING', 'FAILED', 'DELIVERED', 'ALL'], { error: 'must be PENDING, FAILED, DELIVERED or ALL' })
    .default('ALL')
    .describe('PENDING: waiting or being sent; FAILED: retried or given up; DELIVERED; ALL'),
  limit: z.coerce
    .number({ error: 'must be a number from 1 to 200' })
    .int('must be a number from 1 to 200')
    .min(1, 'must be a number from 1 to 200')
    .max(200, 'must be a number from 1 to 200')
    .default(50)
    .describe('How many posts, newest first (1 to 200)'),
});

/** What a launch opens in the frame. */
export const LtiOpens = z.discriminatedUnion('page', [
  z.object({ page: z.literal('test'), linkId: z.string() }),
  z.object({ page: z.literal('roadmap'), assignedRoadmapId: Id }),
  z.object({ page: z.literal('deep-linking') }),
  z.object({ page: z.literal('course') }),
  z.object({ page: z.literal('home') }),
]);
entities.add(LtiOpens, { id: 'LtiOpens' });

export const LtiSession = z.object({
  role: z.enum(['LEARNER', 'INSTRUCTOR']),
  tenantName: z.string(),
  contextTitle: z.string().nullable(),
  opens: LtiOpens,
  /** The bearer of the launch's own calls (the picker, the course view): X-LTI-Launch. */
  launchToken: z.string(),
  /** A learner's Waymark session, limited to what a learner of this tenant may do. */
  session: z
    .object({
      token: z.string(),
      refreshToken: z.string(),
      user: z.object({ _id: Id, name: z.string().nullable() }),
    })
    .nullable(),
});
entities.add(LtiSession, { id: 'LtiSession' });

export const LtiSessionInput = z.object({
  code: z
    .string()
    .min(20, 'is not a launch code')
    .max(100, 'is not a launch code')
    .regex(/^[A-Za-z0-9_-]+$/, 'is not a launch code'),
  /**
   * The state read back from platform storage, when the launch put it there: the login's signed state as
   * issued, `<random>.<expiry>.<HMAC>` (base64url parts joined by dots).
   */
  state: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'is not a state')
    .optional(),
});
entities.add(LtiSessionInput, { id: 'LtiSessionInput' });

/** One thing the picker offers: `target` is what the link opens. */
export const LtiPickable = z.object({
  target: z.string(),
  title: z.string(),
  kind: z.enum(['ROADMAP', 'FINAL', 'SECTION', 'RESOURCE', 'SUBJECT', 'ASSESSMENT']),
  /** The roadmap (or subject) it belongs to, for grouping. */
  group: z.string().nullable(),
});
entities.add(LtiPickable, { id: 'LtiPickable' });

export const LtiPickerOptions = z.object({
  acceptMultiple: z.boolean(),
  items: z.array(LtiPickable),
});
entities.add(LtiPickerOptions, { id: 'LtiPickerOptions' });

export const LtiDeepLinkingInput = z.object({
  items: z
    .array(
      z.object({
        target: z
          .string()
          .min(1)
          .max(300)
          .regex(/^(roadmap|test|subject|assessment):[A-Za-z0-9:_-]+$/, 'is not something the picker offers'),
        title: Text(200),
      }),
    )
    .min(1, 'choose at least one')
    .max(20, 'choose at most 20'),
});
entities.add(LtiDeepLinkingInput, { id: 'LtiDeepLinkingInput' });

export const LtiDeepLinkingResponse = z.object({ returnUrl: z.string(), jwt: z.string() });
entities.add(LtiDeepLinkingResponse, { id: 'LtiDeepLinkingResponse' });

/** The header of the launch's own calls. */
export const LTI_LAUNCH_HEADER = 'x-lti-launch';
export const LtiLaunchHeaders = z.object({
  [LTI_LAUNCH_HEADER]: z
    .string()
    .min(20, 'is not a launch token')
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, 'is not a launch token'),
});

/** A learner of the course, as the instructor's view shows them: their tests of the tenant, scores and awards. */
export const LtiCourseLearner = z.object({
  _id: Id,
  name: z.string().nullable(),
  /** Null when the platform gave no address Waymark may show (an address under users.invalid). */
  email: z.string().nullable(),
  tests: z.array(
    z.object({
      /** The test's row (not its link id, which would open the learner's test). */
      _id: Id,
      title: z.string(),
      status: z.string(),
      completed: z.boolean(),
      /** 0–100, once evaluated. */
      score: z.number().nullable(),
      /** The award's id when one was earned (its page: /verify/{awardId}). */
      awardId: z.string().nullable(),
    }),
  ),
});
entities.add(LtiCourseLearner, { id: 'LtiCourseLearner' });

/** The instructor's view of a course launched from the LMS: its learners, limited to that tenant and course. */
export const LtiCourseView = z.object({
  course: z.string().nullable(),
  tenantName: z.string(),
  learners: z.array(LtiCourseLearner),
});
entities.add(LtiCourseView, { id: 'LtiCourseView' });
