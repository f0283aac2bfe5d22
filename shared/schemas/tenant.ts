import { z } from 'zod';
import { DateTime, ErrorBody, Id } from './common';
import { entities } from './entities';

export const Stats = z.object({
  totalUserCount: z.number().int(),
  totalTestLink: z.number().int(),
  totalTestLinkCompleted: z.number().int(),
  totalCertificateGenerated: z.number().int(),
  totalBadgeGenerated: z.number().int(),
  totalFeatherGenerated: z.number().int(),
  /** Seconds per learner per day of learning. */
  totalUserAverageLearningTime: z.number(),
});
entities.add(Stats, { id: 'Stats' });

export const TenantUserEntry = z.object({
  _id: Id,
  learnerId: z.object({
    _id: Id,
    name: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    countrycode: z.string().nullable(),
    email: z.string(),
  }),
  isDisabled: z.boolean(),
});
entities.add(TenantUserEntry, { id: 'TenantUserEntry' });

/**
 * GET /tenant/subscription/info. Amounts are rupees; dates ISO. The first FREE_SEATS (10) seats are free;
 * each further seat is paid per period (periodType, from the plan's price) by subscription.
 */
export const SubscriptionInfo = z.object({
  /** An active subscription exists (paid seats beyond the free ones). */
  isSubscribed: z.boolean(),
  /** A seat is free now: seats held + pending invitations < free seats + paid seats. */
  isAccessToAddUser: z.boolean(),
  /** An offer code is applied to the tenant's account. */
  isOffered: z.boolean(),
  /** Paid seats in the subscription now (0 when not subscribed). */
  subscriptionQuantity: z.number().int(),
  /** The price of one seat for one period, after the offer's discount. */
  planAmount: z.number(),
  /** subscriptionQuantity × planAmount: what one period of the subscription costs. */
  subscriptionAmount: z.number(),
  /** Credit on the account that the next invoice uses first (0 when none). */
  startingBalance: z.number(),
  /** When the current period ends and the next is charged (null when not subscribed). */
  subscriptionNextDue: DateTime.nullable(),
  /** What subscriptionNextDue will charge for the seats still held then (removed seats left out), less the credit. */
  nextDueAmount: z.number(),
  /** When the subscription started (null when not subscribed). */
  startDate: DateTime.nullable(),
  /** Seats the tenant may hold now: free seats + paid seats. */
  totalQuantity: z.number().int(),
  /**
   * What adding one more seat costs now: the rest of the current period for one seat when subscribed,
   * one whole period when not (the Payment Required modal's "Now").
   */
  totalAmount: z.number(),
  /** The billing period of the plan: 'month' or 'year' (from the price). */
  periodType: z.string(),
  /** The plan's price id, to send to POST /tenant/stripe/create-subscription. */
  priceId: z.string(),
  currency: z.string(),
  /** Seats every tenant holds without paying (10). */
  freeSeats: z.number().int(),
  /** Seats held now (disabled ones included until they are removed). */
  seatCount: z.number().int(),
  /** Invitations sent and not yet accepted: each keeps a seat. */
  pendingInvitations: z.number().int(),
  /** The offer code applied, if any. */
  offer: z.object({ code: z.string(), percentOff: z.number(), description: z.string() }).nullable(),
});
entities.add(SubscriptionInfo, { id: 'SubscriptionInfo' });

/** A row of the certificate, badge and feather tables; the award page is /{kind}/{linkId}. */
export const AwardRow = z.object({
  /** The learner's user id. */
  userId: Id,
  name: z.string().nullable(),
  email: z.string(),
  testlinks: z.object({
    assignedRoadMapName: z.string().nullable(),
    assignedSectionName: z.string().nullable(),
    assignedResourceName: z.string().nullable(),
    percentage: z.number().nullable(),
    linkId: z.string(),
    /** ROADMAP, SUBJECT, SECTION or RESOURCE. */
    type: z.string(),
    /** Whether the award image exists yet (the learner generates it on first view). */
    certificateGenerated: z.boolean(),
    /** When the test was completed. */
    completedAt: DateTime.nullable(),
  }),
});
entities.add(AwardRow, { id: 'AwardRow' });

export const LearningReportRow = z.object({
  name: z.string().nullable(),
  email: z.string(),
  countrycode: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  createdAt: DateTime,
  TotalDayReports: z.number().int(),
  TotalTimeSpent: z.number(),
  averageTimeSpent: z.number(),
});
entities.add(LearningReportRow, { id: 'LearningReportRow' });

export const UserAchievement = z.object({
  _id: z.enum(['RESOURCE', 'SECTION', 'ROADMAP']),
  count: z.number().int(),
});
entities.add(UserAchievement, { id: 'UserAchievement' });

// ---- seats

/** Add User, Invite and the check before adding: one e-mail address (mentor §5). */
export const addUserMessages = {
  required: 'Required',
  invalid: 'Invalid email address',
} as const;
export const AddUserInput = z.object({
  email: z
    .string({ error: addUserMessages.required })
    .trim()
    .min(1, addUserMessages.required)
    .max(254, addUserMessages.invalid)
    .pipe(z.email({ error: addUserMessages.invalid }))
    .transform((e) => e.toLowerCase()),
});
entities.add(AddUserInput, { id: 'AddUserInput' });
export type AddUserInput = z.input<typeof AddUserInput>;

/**
 * The stable codes (`errorCode`) of the tenant calls' refusals the portal acts on (mentor §5, §8): 'Email
 * Not Found' (with isAllowToInvite: Invite instead of Add), the two-roadmaps limit, an unknown offer code. The
 * portal decides by these and says its own message from the catalogue in the reader's language; the English
 * `message` beside each is for other callers and may be reworded without changing what the portal does.
 */
export const TENANT_ERROR_CODES = {
  emailNotFound: 'EMAIL_NOT_FOUND',
  roadmapLimit: 'ROADMAP_LIMIT',
  invalidOffer: 'INVALID_OFFER_CODE',
} as const;

/**
 * The English messages of the tenant calls (mentor §5, §8). A duplicate is code 11000; 'not yet subscribed'
 * opens the payment modal (the add call's `outcome` says so); a refusal the portal acts on has its code in
 * TENANT_ERROR_CODES.
 */
export const TENANT_MESSAGES = {
  emailNotFound: 'Email Not Found',
  alreadyAssigned: 'Email Already Assigned For You',
  notALearner: 'This e-mail address belongs to a mentor account, not a learner.',
  notYetSubscribed: 'not yet subscribed',
  paymentRequired: 'payment required',
  offerLimit: 'You already have all the users your offer includes. Extra users must be paid for.',
  added: 'User added',
  learnerNotFound: 'This learner is not one of your users.',
  roadmapLimit: 'Already two Roadmaps are assigned',
  invalidOffer: 'inValid Offer Code',
  invited: 'Invitation recorded',
} as const;

/** The body of 'Email Not Found' (404): whether the portal may offer Invite instead of Add. */
export const EmailNotFoundBody = ErrorBody.extend({ isAllowToInvite: z.boolean() });
entities.add(EmailNotFoundBody, { id: 'EmailNotFoundBody' });

/** One seat: the learner as GET /tenant/users/list shows them, plus when a removed seat goes away. */
export const TenantSeat = TenantUserEntry.extend({
  /** Set on a removed seat of a subscribed tenant: readable until then, removed by a job at that time. */
  accessUntil: DateTime.nullable(),
  createdAt: DateTime,
});
entities.add(TenantSeat, { id: 'TenantSeat' });

/** GET /tenant/users/user-info/{id}: the learner (by user id) with their seat. */
export const TenantUserInfo = z.object({
  _id: Id,
  name: z.string().nullable(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  countrycode: z.string().nullable(),
  picture: z.string().nullable(),
  isDisabled: z.boolean(),
  accessUntil: DateTime.nullable(),
  /** When the seat was added. */
  createdAt: DateTime,
});
entities.add(TenantUserInfo, { id: 'TenantUserInfo' });

/** GET /tenant/users/search-list: learners of the tenant (user id, e-mail, name). */
export const TenantUserSearchEntry = z.object({ _id: Id, email: z.string(), name: z.string().nullable() });
entities.add(TenantUserSearchEntry, { id: 'TenantUserSearchEntry' });

export const ADD_USER_OUTCOMES = ['ADDED', 'OFFER_LIMIT', 'PAYMENT_REQUIRED', 'NOT_YET_SUBSCRIBED'] as const;
/**
 * The answer to adding a learner. ADDED carries the seat; otherwise nothing was written and `message`
 * says why ('not yet subscribed' → open the payment modal for `quantity` seats).
 */
export const AddUserResult = z.object({
  outcome: z.enum(ADD_USER_OUTCOMES),
  user: TenantSeat.nullable(),
  /** The learner's user id (for create-subscription's learnerId when a payment is needed). */
  learnerId: Id,
  /**
   * The seats the tenant would hold in total with this learner (seats held + pending invitations + 1): the
   * checkout's quantity (mentor §4: list length + 1). Not the number to buy: see seatsNeeded.
   */
  quantity: z.number().int(),
  /** When a payment is needed: the seats to buy, beyond those held now, to add this learner (0 when added). */
  seatsNeeded: z.number().int(),
});
entities.add(AddUserResult, { id: 'AddUserResult' });

/** The answer to the check before adding: the learner exists and is not a seat of this tenant yet. */
export const BeforeCheckResult = z.object({
  isExist: z.literal(true),
  learnerId: Id,
  name: z.string().nullable(),
  email: z.string(),
  /** Same as subscription info's isAccessToAddUser: a seat is free now. */
  isAccessToAddUser: z.boolean(),
});
entities.add(BeforeCheckResult, { id: 'BeforeCheckResult' });

/** The most addresses one check of a list (POST /tenant/users/before-check-add-users) takes. */
export const CHECK_MANY_MAX = 1000;

/** The check before adding, for a list of addresses at once (a roster): writes nothing. */
export const BeforeCheckManyInput = z.object({
  emails: z.array(AddUserInput.shape.email).min(1).max(CHECK_MANY_MAX),
});
entities.add(BeforeCheckManyInput, { id: 'BeforeCheckManyInput' });
export type BeforeCheckManyInput = z.input<typeof BeforeCheckManyInput>;

/**
 * What the check says of one address, as the single check and Add User would: ADD (a learner account that
 * is not the caller's seat yet: adding it takes a seat), ALREADY_ASSIGNED (code 11000: a seat of the
 * caller's already, removed ones included), EMAIL_NOT_FOUND (no learner account).
 */
export const CHECK_OUTCOMES = ['ADD', 'ALREADY_ASSIGNED', 'EMAIL_NOT_FOUND'] as const;
export const BeforeCheckEntry = z.object({
  /** As sent, lower-cased. */
  email: z.string(),
  outcome: z.enum(CHECK_OUTCOMES),
  /** The learner's user id (ADD, ALREADY_ASSIGNED); null for EMAIL_NOT_FOUND. */
  learnerId: Id.nullable(),
  name: z.string().nullable(),
  /**
   * EMAIL_NOT_FOUND and nobody has an account with the address (not a mentor's, not a deleted one): it can
   * be invited, and the invitation keeps a seat for 7 days.
   */
  invitable: z.boolean(),
  /** A pending invitation of the caller's keeps a seat for this address already (inviting again renews it). */
  invited: z.boolean(),
});
entities.add(BeforeCheckEntry, { id: 'BeforeCheckEntry' });

/** The caller's seats when the check ran: what the allowance is and what uses it. */
export const SeatCounts = z.object({
  /** Seats the tenant may hold now: free seats + paid seats (subscription info's totalQuantity). */
  allowance: z.number().int(),
  /** Seats held and not removed (subscription info's seatCount). */
  active: z.number().int(),
  /** Pending invitations, each keeping a seat (subscription info's pendingInvitations). */
  pending: z.number().int(),
});
entities.add(SeatCounts, { id: 'SeatCounts' });

export const BeforeCheckManyResult = z.object({
  /** One entry per address, in the order sent (a repeated address is answered each time). */
  results: z.array(BeforeCheckEntry),
  seats: SeatCounts,
});
entities.add(BeforeCheckManyResult, { id: 'BeforeCheckManyResult' });

// ---- invitations

export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'EXPIRED', 'CANCELED'] as const;
export const Invitation = z.object({
  _id: Id,
  email: z.string(),
  status: z.enum(INVITATION_STATUSES),
  createdAt: DateTime,
  expiresAt: DateTime,
  acceptedAt: DateTime.nullable(),
});
entities.add(Invitation, { id: 'Invitation' });

/**
 * The answer to recording an invitation. The portal then sends the e-mail sign-in link itself (Firebase
 * sendSignInLinkToEmail) with `continueUrl` as the link's return URL: the learner sign-up page
 * (/learner?tenantId=…&email=…), where GET /invitation/check validates it on load.
 */
export const InvitationCreated = Invitation.extend({
  tenantId: Id,
  continueUrl: z.string(),
});
entities.add(InvitationCreated, { id: 'InvitationCreated' });

/** The public check of an invitation link on load (the sign-up page with tenantId and email). */
export const InvitationCheck = z.object({
  valid: z.boolean(),
  tenantName: z.string().nullable(),
  expiresAt: DateTime.nullable(),
});
entities.add(InvitationCheck, { id: 'InvitationCheck' });

// ---- billing

export const CHECKOUT_STATUSES = ['OPEN', 'COMPLETE', 'EXPIRED', 'CANCELED'] as const;
/** A checkout session: send the browser to `url` (the sandbox page, or Stripe Checkout). */
export const CheckoutSession = z.object({
  id: z.string(),
  url: z.string(),
  status: z.enum(CHECKOUT_STATUSES),
  /** Seats the tenant will hold once paid (free ones included). */
  quantity: z.number().int(),
  /** Rupees charged now. */
  amount: z.number(),
  currency: z.string(),
  expiresAt: DateTime,
});
entities.add(CheckoutSession, { id: 'CheckoutSession' });

export const CreateSubscriptionInput = z.object({
  /** The plan's price id (subscription info's priceId). */
  priceId: z.string({ error: 'priceId is required' }).trim().min(1, 'priceId is required').max(100),
  /** Seats the tenant will hold in total, free ones included (the payment modal: list length + 1). */
  quantity: z.coerce
    .number({ error: 'must be a number of seats' })
    .int('must be a whole number of seats')
    .min(1, 'must be at least 1')
    .max(100_000, 'must be at most 100000'),
  /** The learner to add once the payment succeeds (optional: buying seats only). */
  learnerId: Id.optional(),
});
entities.add(CreateSubscriptionInput, { id: 'CreateSubscriptionInput' });

export const offerMessages = { required: 'Required' } as const;
export const OfferCodeInput = z.object({
  offerCode: z
    .string({ error: offerMessages.required })
    .trim()
    .min(1, offerMessages.required)
    .max(40, TENANT_MESSAGES.invalidOffer)
    .transform((c) => c.toUpperCase()),
});
entities.add(OfferCodeInput, { id: 'OfferCodeInput' });

export const OfferApplied = z.object({
  isOffered: z.literal(true),
  offerCode: z.string(),
  percentOff: z.number(),
  description: z.string(),
});
entities.add(OfferApplied, { id: 'OfferApplied' });

// ---- cohorts (issue 28 item 2; decision 043)

/** A named group of the tenant's learners (made in the portal, or a directory's SCIM Group). */
export const Cohort = z.object({
  _id: Id,
  name: z.string(),
  /** The directory's id of the group, when a directory made it over SCIM. */
  externalId: z.string().nullable(),
  /** The directory made or took over this cohort over SCIM: its name and members are read-only here. */
  scimManaged: z.boolean(),
  memberCount: z.number().int(),
  /** Roadmaps every member gets, and every new member when they join. */
  roadmaps: z.array(z.object({ _id: Id, name: z.string() })),
  createdAt: DateTime,
});
entities.add(Cohort, { id: 'Cohort' });
export type Cohort = z.infer<typeof Cohort>;

/** The longest name a cohort may have (a SCIM Group's displayName too). */
export const COHORT_NAME_MAX = 100;

export const CohortNameInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Required')
    .max(COHORT_NAME_MAX, `must be at most ${COHORT_NAME_MAX} characters`),
});
entities.add(CohortNameInput, { id: 'CohortNameInput' });

export const CohortMembersInput = z.object({
  learnerIds: z
    .array(Id)
    .min(1, 'choose at least one learner')
    .max(500, 'at most 500 learners at a time')
    .describe("The learners' user ids (learnerId._id of the seat list)"),
});
entities.add(CohortMembersInput, { id: 'CohortMembersInput' });

export const CohortRoadmapInput = z.object({
  roadmapId: Id,
  prerequisites: z
    .enum(['INCLUDE', 'WAIVE'], { error: 'must be INCLUDE or WAIVE' })
    .optional()
    .describe('For a roadmap with prerequisites: INCLUDE (their sections first) or WAIVE'),
});
entities.add(CohortRoadmapInput, { id: 'CohortRoadmapInput' });

export const CohortAssignment = z.object({
  roadmapId: Id,
  roadmapName: z.string(),
  /** What came of it for each member with a seat. */
  results: z.array(
    z.object({
      learnerId: Id,
      email: z.string(),
      outcome: z.enum(['ASSIGNED', 'ALREADY_ASSIGNED', 'ROADMAP_LIMIT', 'NO_ACTIVE_SEAT']),
    }),
  ),
});
entities.add(CohortAssignment, { id: 'CohortAssignment' });

/** One cohort and its members (learners holding, or having held, one of the tenant's seats). */
export const CohortDetail = Cohort.extend({
  members: z.array(
    z.object({
      _id: Id,
      name: z.string().nullable(),
      email: z.string(),
      /** The member's seat is removed (or no longer theirs). */
      isDisabled: z.boolean(),
      addedAt: DateTime,
    }),
  ),
});
entities.add(CohortDetail, { id: 'CohortDetail' });

/** A row of the Users page: the seat, and the cohorts its learner belongs to (by name). */
export const TenantUserRow = TenantUserEntry.extend({
  cohorts: z.array(z.object({ _id: Id, name: z.string() })),
});
entities.add(TenantUserRow, { id: 'TenantUserRow' });
