/**
 * An LTI 1.3 launch (decision 044): the OIDC third-party login initiation, the id_token's arrival, and the
 * page's exchange of the launch's one-time code for what it opens.
 *
 * State without a cookie: the `state` value is signed (HMAC under the server's secret) with its expiry, and
 * stored (its SHA-256) with the nonce, so any process finishes the launch, once. Where the platform offers
 * `lti_storage_target`, the state is also put in the platform's storage (the LTI Client Side postMessages
 * spec) and the launch page reads it back before the code is exchanged: only the browser that started the
 * login can finish it. Otherwise the state's single use, its 10-minute life and the nonce bound to it stand
 * in for the cookie a framed page cannot keep.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isLocale, type Locale, type UiLocale } from '@shared/i18n/locales';
import { localMessage } from '@shared/i18n/message';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx } from '../../db/helpers';
import { HttpError } from '../../http/errors';
import type { QuestionCounts } from '../../questions/load';
import type { SeatPlans } from '../../tenant/accounting';
import { addLearner } from '../../tenant/seats';
import type { Actor } from '../core/principal';
import { provisionLearner } from '../core/provisioning';
import { frameOrigins, learnFrameOrigins } from './frame';
import { launchLocale } from './language';
import { LaunchRefused, LTI, type Platforms, type Registration } from './platform';
import { registrationFor } from './registrations';
import { ltiContextMembers, ltiContexts, ltiLaunches, ltiRegistrations, ltiStates } from './tables';
import { openLink } from './targets';

/** How long a login initiation waits for its launch. */
export const STATE_TTL_MS = 10 * 60_000;
/** How long the launch page's one-time code works. */
export const CODE_TTL_MS = 2 * 60_000;
/** How long an instructor's launch token (picker, course view) works. */
export const LAUNCH_SESSION_TTL_MS = 2 * 3600_000;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export const random = (n = 32) => randomBytes(n).toString('base64url');

export interface LaunchDeps {
  db: Db;
  platforms: Platforms;
  plans: SeatPlans;
  /** Signs the state values (derived from JWT_SECRET). */
  stateKey: Buffer;
  publicUrl: string;
  /** The bank's draw counts (a custom test's questions are drawn at its first launch). */
  questionCounts: QuestionCounts;
  /** Tells the mentor their seats ran out for a launch (at most once a day per platform). */
  notifySeats: (registration: Registration, learnerEmail: string) => Promise<void>;
}

// ---- state: <random>.<expiry, seconds, base 36>.<HMAC>

export function signState(key: Buffer, expiresAt: Date) {
  const body = `${random(24)}.${Math.floor(expiresAt.getTime() / 1000).toString(36)}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url').slice(0, 32)}`;
}

/** 'ok', or why the state is refused before anything is read: not ours, or past its time. */
export function checkState(key: Buffer, state: string, now: Date): 'ok' | 'invalid' | 'expired' {
  const parts = state.split('.');
  if (parts.length !== 3) return 'invalid';
  const [rand, exp, mac] = parts as [string, string, string];
  const want = createHmac('sha256', key).update(`${rand}.${exp}`).digest('base64url').slice(0, 32);
  if (mac.length !== want.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(want))) return 'invalid';
  return Number.parseInt(exp, 36) * 1000 < now.getTime() ? 'expired' : 'ok';
}

/** The key under which the state sits in platform storage (the launch page asks for it again). */
export const storageKey = (state: string) => `waymark_state_${sha256(state).slice(0, 16)}`;

export interface LoginParams {
  iss?: string;
  login_hint?: string;
  target_link_uri?: string;
  lti_message_hint?: string;
  client_id?: string;
  lti_deployment_id?: string;
  lti_storage_target?: string;
}

export type LoginAnswer =
  | { kind: 'redirect'; url: string }
  | {
      kind: 'storage';
      url: string;
      target: string;
      origin: string;
      key: string;
      state: string;
      /** Who may frame the storage step: the registration's platform (frame.ts). */
      ancestors: string[];
    };

/** LTI Core 1.3 §5.1.1 / the Security Framework §5.1.1.1: the third-party login initiation. */
export async function initiateLogin(deps: LaunchDeps, p: LoginParams, now: Date): Promise<LoginAnswer> {
  if (!p.iss || !p.login_hint || !p.target_link_uri) {
    throw new LaunchRefused('invalid', localMessage('errors.lti.launch.loginIncomplete'));
  }
  const registration = await registrationFor(deps.db, p.iss, p.client_id || undefined);
  if (!registration) {
    throw new LaunchRefused('unknown-platform', localMessage('errors.lti.launch.notRegistered'));
  }
  if (registration.status === 'PAUSED') {
    throw new LaunchRefused('paused', localMessage('errors.lti.launch.paused'));
  }
  if (p.lti_deployment_id && !registration.deploymentIds.includes(p.lti_deployment_id)) {
    throw new LaunchRefused('unknown-deployment', localMessage('errors.lti.launch.deploymentUnknown'));
  }
  // the launch may only come back to our own launch address (no open redirect through the login)
  const base = deps.publicUrl.replace(/\/+$/, '');
  if (!p.target_link_uri.startsWith(`${base}/lti/`)) {
    throw new LaunchRefused('invalid', localMessage('errors.lti.launch.targetElsewhere'));
  }
  const expiresAt = new Date(now.getTime() + STATE_TTL_MS);
  const state = signState(deps.stateKey, expiresAt);
  const nonce = random(24);
  const storageTarget = p.lti_storage_target?.trim() || null;
  await deps.db.insert(ltiStates).values({
    stateHash: sha256(state),
    nonce,
    registrationId: registration.id,
    targetLinkUri: p.target_link_uri,
    storageTarget,
    createdAt: now,
    expiresAt,
  });
  const auth = new URL(registration.authLoginUrl);
  const params: Record<string, string> = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: registration.clientId,
    redirect_uri: `${base}/lti/launch`,
    login_hint: p.login_hint,
    state,
    nonce,
  };
  if (p.lti_message_hint) params.lti_message_hint = p.lti_message_hint;
  for (const [k, v] of Object.entries(params)) auth.searchParams.set(k, v);
  if (storageTarget) {
    return {
      kind: 'storage',
      url: auth.toString(),
      target: storageTarget,
      origin: auth.origin,
      key: storageKey(state),
      state,
      ancestors: frameOrigins(registration),
    };
  }
  return { kind: 'redirect', url: auth.toString() };
}

type Claims = Record<string, unknown>;
const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Claims) : {});
const strOf = (v: unknown) => (typeof v === 'string' && v ? v : null);

const INSTRUCTOR = /(#|\/)(Instructor|TeachingAssistant|Administrator|ContentDeveloper)$/;
const LEARNER = /(#|\/)Learner$/;

/** Instructor, teaching assistant or administrator: the mentor's view; learner: the learner's page. */
export function roleOf(roles: unknown): 'INSTRUCTOR' | 'LEARNER' | null {
  const list = Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
  if (list.some((r) => INSTRUCTOR.test(r))) return 'INSTRUCTOR';
  if (list.some((r) => LEARNER.test(r))) return 'LEARNER';
  return null;
}

export interface Launched {
  code: string;
  /** The launch's row: the portal's page for it is /lti/app/{launchId}. */
  launchId: string;
  deepLinking: boolean;
  storage: { target: string; origin: string; key: string } | null;
  /** Who may frame the pages of this launch (frame.ts). */
  ancestors: string[];
  /** The course's title, as the launch names it. */
  contextTitle: string | null;
  /** The launching person's language (language.ts): the pages' words. */
  locale: UiLocale;
}

type Form = { id_token?: string; state?: string; error?: string; error_description?: string };
type From = { ip: string | null; userAgent: string | null };
/** The browser's Accept-Language, for the pages' language when the launch names none. */
type Asked = string | string[] | undefined;

const REPLAYED = localMessage('errors.lti.launch.replayed');

/** The login's state, checked and used once: the statement that reads it marks it used, in any process. */
async function claimState(deps: LaunchDeps, form: Form, now: Date) {
  if (form.error) {
    throw new LaunchRefused(
      'invalid',
      localMessage('errors.lti.launch.signInFailed', { reason: form.error_description || form.error }),
    );
  }
  if (!form.state || !form.id_token) {
    throw new LaunchRefused('invalid', localMessage('errors.lti.launch.noSignIn'));
  }
  const checked = checkState(deps.stateKey, form.state, now);
  if (checked === 'invalid') throw new LaunchRefused('invalid', localMessage('errors.lti.launch.notOurs'));
  if (checked === 'expired')
    throw new LaunchRefused('expired', localMessage('errors.lti.launch.tookTooLong'));
  const stateHash = sha256(form.state);
  const [state] = await deps.db
    .update(ltiStates)
    .set({ usedAt: now })
    .where(and(eq(ltiStates.stateHash, stateHash), isNull(ltiStates.usedAt), gt(ltiStates.expiresAt, now)))
    .returning();
  if (state) return { state, stateHash, idToken: form.id_token, rawState: form.state };
  const [seen] = await deps.db.select().from(ltiStates).where(eq(ltiStates.stateHash, stateHash)).limit(1);
  if (seen?.usedAt) throw new LaunchRefused('replayed', REPLAYED);
  throw new LaunchRefused('expired', localMessage('errors.lti.launch.expired'));
}

/** The registration the state was made for, and the id_token checked strictly against it (platform.ts). */
async function verifiedLaunch(deps: LaunchDeps, state: typeof ltiStates.$inferSelect, idToken: string) {
  const [registration] = await deps.db
    .select()
    .from(ltiRegistrations)
    .where(eq(ltiRegistrations.id, state.registrationId))
    .limit(1);
  if (!registration)
    throw new LaunchRefused('unknown-platform', localMessage('errors.lti.launch.noLongerRegistered'));
  if (registration.status === 'PAUSED')
    throw new LaunchRefused('paused', localMessage('errors.lti.launch.paused'));
  const claims = (await deps.platforms.verifyIdToken(registration, idToken)) as Claims;
  if (claims.nonce !== state.nonce) throw new LaunchRefused('replayed', REPLAYED);
  const messageType = claims[LTI.messageType];
  if (messageType !== 'LtiResourceLinkRequest' && messageType !== 'LtiDeepLinkingRequest') {
    throw new LaunchRefused('invalid', localMessage('errors.lti.launch.unsupportedMessage'));
  }
  if (claims[LTI.targetLinkUri] !== state.targetLinkUri) {
    throw new LaunchRefused('invalid', localMessage('errors.lti.launch.otherTarget'));
  }
  const resourceLink = obj(claims[LTI.resourceLink]);
  if (messageType === 'LtiResourceLinkRequest' && !strOf(resourceLink.id)) {
    throw new LaunchRefused('invalid', localMessage('errors.lti.launch.noResourceLink'));
  }
  const role = roleOf(claims[LTI.roles]);
  if (!role) {
    throw new LaunchRefused('not-allowed', localMessage('errors.lti.launch.rolesOnly'));
  }
  if (messageType === 'LtiDeepLinkingRequest' && role !== 'INSTRUCTOR') {
    throw new LaunchRefused('not-allowed', localMessage('errors.lti.launch.instructorsOnly'));
  }
  const subject = strOf(claims.sub);
  if (!subject) throw new LaunchRefused('invalid', localMessage('errors.lti.launch.noSubject'));
  return {
    registration,
    claims,
    messageType: messageType as 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest',
    role,
    subject,
    resourceLinkId: strOf(resourceLink.id),
  };
}

/**
 * The platform's POST to the launch address: the state used once, the id_token checked strictly
 * (platform.ts), the nonce the state was given, the target it asked for; then the person (a learner is
 * linked or made and given a seat by the seat rules, in one transaction: refused a seat, nothing of them
 * stays) and a one-time code for the launch page.
 */
export async function acceptLaunch(
  deps: LaunchDeps,
  form: Form,
  now: Date,
  from: From,
  asked?: Asked,
): Promise<Launched> {
  const { state, stateHash, idToken, rawState } = await claimState(deps, form, now);
  const launch = await verifiedLaunch(deps, state, idToken);
  const { registration, claims, subject } = launch;
  const locale = await launchLocale(deps.db, { ...registration, subject }, claims, asked);
  try {
    return await launched(deps, { ...launch, state, stateHash, rawState, locale }, now, from);
  } catch (err) {
    // refused once the launch is known: said in its person's language
    if (err instanceof LaunchRefused) err.locale = locale;
    throw err;
  }
}

/** A verified launch's person, course and target recorded, and its one-time code. */
async function launched(
  deps: LaunchDeps,
  launch: Awaited<ReturnType<typeof verifiedLaunch>> & {
    state: typeof ltiStates.$inferSelect;
    stateHash: string;
    rawState: string;
    locale: UiLocale;
  },
  now: Date,
  from: From,
): Promise<Launched> {
  const { registration, claims, messageType, role, subject, state, stateHash, rawState } = launch;
  const ancestors = await learnFrameOrigins(deps.db, registration, claims);
  // a first launch's account reads Waymark in the language the launch was said in (not the pseudo-locale)
  const language = isLocale(launch.locale) ? launch.locale : null;
  const userId =
    role === 'LEARNER'
      ? await seatedLearner(deps, registration, { claims, subject, language }, now, from)
      : null;
  const context = obj(claims[LTI.context]);
  await recordContext(deps, registration, claims, userId, now);
  // what a learner's link opens: the custom parameter `waymark_target` (put there by Deep Linking, or typed by
  // the LMS administrator; targets.ts)
  const target = strOf(obj(claims[LTI.custom]).waymark_target);
  const opens =
    userId && target
      ? await openLink(deps, registration, { id: userId, subject }, from, now, {
          target,
          resourceLinkId: launch.resourceLinkId,
          lineItem: strOf(obj(claims[LTI.ags]).lineitem),
        })
      : null;
  const code = random(32);
  const [row] = await deps.db
    .insert(ltiLaunches)
    .values({
      registrationId: registration.id,
      tenantId: registration.tenantId,
      deploymentId: String(claims[LTI.deploymentId]),
      messageType,
      role,
      subject,
      userId,
      contextId: strOf(context.id),
      contextTitle: strOf(context.title),
      resourceLinkId: launch.resourceLinkId,
      target,
      opens,
      deepLinking: messageType === 'LtiDeepLinkingRequest' ? obj(claims[LTI.deepLinkingSettings]) : null,
      storageTarget: state.storageTarget,
      stateHash: state.storageTarget ? stateHash : null,
      codeHash: sha256(code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    })
    .returning({ id: ltiLaunches.id });
  const origin = new URL(registration.authLoginUrl).origin;
  return {
    code,
    launchId: row!.id,
    deepLinking: messageType === 'LtiDeepLinkingRequest',
    storage: state.storageTarget ? { target: state.storageTarget, origin, key: storageKey(rawState) } : null,
    ancestors,
    contextTitle: strOf(context.title),
    locale: launch.locale,
  };
}

/** The course the launch came from (its service addresses), and the learner as one of its members. */
async function recordContext(
  deps: LaunchDeps,
  registration: Registration,
  claims: Claims,
  userId: string | null,
  now: Date,
) {
  const context = obj(claims[LTI.context]);
  const contextId = strOf(context.id);
  if (!contextId) return;
  const ags = obj(claims[LTI.ags]);
  const nrps = obj(claims[LTI.nrps]);
  const [ctx] = await deps.db
    .insert(ltiContexts)
    .values({
      registrationId: registration.id,
      contextId,
      title: strOf(context.title),
      membershipsUrl: strOf(nrps.context_memberships_url),
      lineItemsUrl: strOf(ags.lineitems),
      lastLaunchAt: now,
    })
    .onConflictDoUpdate({
      target: [ltiContexts.registrationId, ltiContexts.contextId],
      set: {
        title: sql`coalesce(excluded.title, ${ltiContexts.title})`,
        membershipsUrl: sql`coalesce(excluded.memberships_url, ${ltiContexts.membershipsUrl})`,
        lineItemsUrl: sql`coalesce(excluded.line_items_url, ${ltiContexts.lineItemsUrl})`,
        lastLaunchAt: now,
      },
    })
    .returning({ id: ltiContexts.id });
  if (userId && ctx) {
    await deps.db.insert(ltiContextMembers).values({ contextRowId: ctx.id, userId }).onConflictDoNothing();
  }
}

/** A first launch refused a seat: the transaction that made the account is undone. */
class NoSeat extends Error {
  constructor(readonly email: string) {
    super('no seat');
  }
}

/**
 * The learner of a launch, linked or made (provisionLearner) and holding a seat of the registering tenant
 * by the seat rules of adding a learner by e-mail (present already, or added now), in one transaction:
 * refused a seat (seats exhausted, payment first), the account, its identity link and everything else of
 * the launch are undone — the learner sees why and the mentor is told.
 */
async function seatedLearner(
  deps: LaunchDeps,
  registration: Registration,
  who: { claims: Claims; subject: string; language: Locale | null },
  now: Date,
  from: From,
): Promise<string> {
  const { claims, subject } = who;
  const actor: Actor = { kind: 'ltiPlatform', id: registration.id, label: registration.label, ...from };
  const name =
    strOf(claims.name) ??
    ([strOf(claims.given_name), strOf(claims.family_name)].filter(Boolean).join(' ') || null);
  try {
    return await inTx(deps.db, async (tx) => {
      const person = await provisionLearner(tx, {
        tenantId: registration.tenantId,
        issuer: registration.issuer,
        subject,
        source: 'lti',
        email: strOf(claims.email),
        emailVerified: registration.emailsVerified,
        name,
        language: who.language,
      });
      try {
        const added = await addLearner(tx, deps.plans, registration.tenantId, person.email, now, actor);
        if (added.data.outcome !== 'ADDED') throw new NoSeat(person.email);
      } catch (err) {
        // already holding a seat of this tenant (the seat's own savepoint is undone, nothing else)
        if (!(err instanceof HttpError && err.statusCode === 409)) throw err;
      }
      return person.userId;
    });
  } catch (err) {
    if (!(err instanceof NoSeat)) throw err;
    await deps.notifySeats(registration, err.email);
    throw new LaunchRefused('seats', localMessage('errors.lti.launch.noSeat'));
  }
}
