/**
 * "Continue with your organisation" (issue 28 item 1; decisions 043, 047), from the address typed to the
 * session:
 * 1. `startSso`: the address's verified domain names the organisation; a sign-in row keeps the state, nonce
 *    and PKCE verifier — for SAML, the AuthnRequest's ID — (in the database, so the answer may reach any
 *    process); the answer is the provider's authorization URL, or the AuthnRequest's redirect.
 * 2. `finishCallback` (OIDC): the provider sends the browser back with `code` and `state`; the row is taken
 *    once, the code redeemed and the ID token checked (oidc.ts). `finishSamlResponse` (SAML): the Response
 *    POSTed to the ACS takes the row its InResponseTo names, once, and is checked (saml.ts). Then `signInAs`,
 *    for both: the e-mail address must be on one of the
 *    organisation's verified domains — that is what makes the provider's word on it good. The learner is
 *    found or made through `provisionLearner` (the one way every integration makes learners, so a person
 *    provisioned by SCIM and signing in by SSO is one learner), and given a seat just in time through the
 *    tenant's seat rules; when none is free, no session, a clear page and (hourly at most) a mail to the mentor.
 * 3. `takeHandoff`: the sign-in page exchanges the one-time handoff code for the user, once, within two
 *    minutes; the auth domain issues the session's tokens.
 */

import { createHash, randomBytes } from 'node:crypto';
import { localMessage } from '@shared/i18n/message';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { MailService } from '../../adapters/mail';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { HttpError } from '../../http/errors';
import type { SeatPlans } from '../../tenant/accounting';
import { noticeNoSeat } from '../../tenant/notices';
import { addLearner } from '../../tenant/seats';
import type { Actor } from '../core/principal';
import { provisionLearner } from '../core/provisioning';
import type { SecretBox } from '../core/sealed';
import { authorizationUrl, redeemCode } from './oidc';
import { authnRequest, checkResponse, inResponseToOf, type SamlSettings, serviceProvider } from './saml';
import { type OidcSettings, organisationFor, SECRET_CONTEXT, verifiedDomainsOf } from './service';
import { samlAssertions, ssoConnections, ssoLogins } from './tables';

const LOGIN_TTL_MS = 10 * 60_000;
const HANDOFF_TTL_MS = 2 * 60_000;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const random = () => randomBytes(32).toString('base64url');

export interface SsoDeps {
  db: Db;
  secrets: SecretBox;
  seatPlans: SeatPlans;
  mail: MailService;
  publicUrl: string;
  allowLoopbackHttp: boolean;
}

export const callbackUrl = (publicUrl: string) => `${publicUrl.replace(/\/$/, '')}/api/login/sso/callback`;

export const noSso = () =>
  new HttpError(404, localMessage('errors.sso.noSso'), {
    field: 'email',
    errorCode: 'NO_SSO',
  });

/** Step 1: where to send the browser for this address (its provider's sign-in, OIDC or SAML). */
export async function startSso(deps: SsoDeps, input: { email: string; device: string }) {
  const email = input.email.trim().toLowerCase();
  const connection = await organisationFor(deps.db, email);
  if (!connection?.enabled) throw noSso();
  const row = { tenantId: connection.tenantId, email, device: input.device };
  const expiresAt = new Date(Date.now() + LOGIN_TTL_MS);
  if (connection.protocol === 'saml') {
    // the AuthnRequest's ID stands for the state: the Response must name it (InResponseTo)
    const settings = connection.settings as unknown as SamlSettings;
    const { url, requestId } = await authnRequest(
      settings,
      serviceProvider(deps.publicUrl, connection.tenantId),
    );
    await deps.db
      .insert(ssoLogins)
      .values({ ...row, stateHash: sha(requestId), nonce: '', codeVerifier: '', expiresAt });
    return { organisation: connection.displayName, redirectUrl: url };
  }
  const settings = connection.settings as unknown as OidcSettings;
  const state = random();
  const nonce = random();
  const codeVerifier = random();
  await deps.db.insert(ssoLogins).values({ ...row, stateHash: sha(state), nonce, codeVerifier, expiresAt });
  return {
    organisation: connection.displayName,
    redirectUrl: authorizationUrl(settings, {
      clientId: settings.clientId,
      redirectUri: callbackUrl(deps.publicUrl),
      state,
      nonce,
      codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
      loginHint: email,
    }),
  };
}

/** Why a sign-in through the organisation did not end in a session (the sign-in page says each). */
export type SsoFailure = 'EXPIRED' | 'DENIED' | 'FAILED' | 'WRONG_DOMAIN' | 'NOT_A_LEARNER' | 'NO_SEAT';

export class SsoRefused extends Error {
  constructor(
    readonly reason: SsoFailure,
    readonly organisation: string | null,
    detail: string,
  ) {
    super(detail);
  }
}

type LoginRow = typeof ssoLogins.$inferSelect;
type ConnectionRow = typeof ssoConnections.$inferSelect;

/** The sign-in a provider's answer names, taken once (a replayed answer finds it consumed), and its connection. */
async function takeLogin(
  deps: SsoDeps,
  key: string,
  protocol: ConnectionRow['protocol'],
  tenantId?: string,
): Promise<{ login: LoginRow; connection: ConnectionRow }> {
  const [login] = await deps.db
    .update(ssoLogins)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(ssoLogins.stateHash, sha(key)),
        isNull(ssoLogins.consumedAt),
        gt(ssoLogins.expiresAt, sql`now()`),
        tenantId ? eq(ssoLogins.tenantId, tenantId) : undefined,
      ),
    )
    .returning();
  if (!login) throw new SsoRefused('EXPIRED', null, 'unknown, used or expired sign-in');
  const [connection] = await deps.db
    .select()
    .from(ssoConnections)
    .where(eq(ssoConnections.tenantId, login.tenantId));
  if (!connection?.enabled || connection.protocol !== protocol)
    throw new SsoRefused('FAILED', null, 'the connection was removed, switched off or changed');
  return { login, connection };
}

/** Step 2 (OIDC): the provider's answer at the redirect URI; the handoff code for the sign-in page. */
export async function finishCallback(
  deps: SsoDeps,
  query: { state?: string; code?: string; error?: string },
): Promise<{ handoff: string; organisation: string }> {
  if (!query.state) throw new SsoRefused('EXPIRED', null, 'no state');
  const { login, connection } = await takeLogin(deps, query.state, 'oidc');
  const org = connection.displayName;
  if (query.error || !query.code)
    throw new SsoRefused('DENIED', org, `the provider answered ${query.error ?? 'no code'}`);
  const settings = connection.settings as unknown as OidcSettings;
  let claims: Awaited<ReturnType<typeof redeemCode>>;
  try {
    claims = await redeemCode(
      settings,
      {
        code: query.code,
        redirectUri: callbackUrl(deps.publicUrl),
        codeVerifier: login.codeVerifier,
        nonce: login.nonce,
        clientSecret: deps.secrets.openText(settings.clientSecretSealed, SECRET_CONTEXT(login.tenantId)),
      },
      deps.allowLoopbackHttp,
    );
  } catch (err) {
    throw new SsoRefused('FAILED', org, (err as Error).message);
  }
  return signInAs(deps, login, connection, {
    issuer: settings.issuer,
    subject: claims.sub!,
    email: typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '',
    name: typeof claims.name === 'string' ? claims.name : null,
  });
}

/**
 * Step 2 (SAML): the Response POSTed to the organisation's assertion consumer service. The request it
 * answers is taken once first (any process; a replayed Response finds it used), then the Response checked
 * in full (saml.ts), then its assertion's ID recorded: an assertion seen before is refused.
 */
export async function finishSamlResponse(
  deps: SsoDeps,
  tenantId: string,
  samlResponse: string | undefined,
): Promise<{ handoff: string; organisation: string }> {
  const requestId = samlResponse ? inResponseToOf(samlResponse) : null;
  if (!samlResponse || !requestId)
    throw new SsoRefused('EXPIRED', null, 'no SAMLResponse answering a request');
  const { login, connection } = await takeLogin(deps, requestId, 'saml', tenantId);
  const org = connection.displayName;
  const settings = connection.settings as unknown as SamlSettings;
  let who: Awaited<ReturnType<typeof checkResponse>>;
  try {
    who = await checkResponse(settings, serviceProvider(deps.publicUrl, tenantId), samlResponse, {
      id: requestId,
      createdAt: login.createdAt,
      ttlMs: LOGIN_TTL_MS,
    });
  } catch (err) {
    throw new SsoRefused('FAILED', org, (err as Error).message);
  }
  const [fresh] = await deps.db
    .insert(samlAssertions)
    .values({ tenantId, assertionId: who.assertionId, expiresAt: who.expiresAt })
    .onConflictDoNothing()
    .returning({ id: samlAssertions.assertionId });
  if (!fresh) throw new SsoRefused('FAILED', org, `assertion ${who.assertionId} was used before`);
  return signInAs(deps, login, connection, {
    issuer: settings.idpEntityId,
    subject: who.subject,
    email: who.email,
    name: who.name,
  });
}

/**
 * What both protocols share once the provider has said who the person is: the address on a verified
 * domain, the learner found or made, a seat just in time, and the one-time handoff code.
 */
async function signInAs(
  deps: SsoDeps,
  login: LoginRow,
  connection: ConnectionRow,
  person: { issuer: string; subject: string; email: string; name: string | null },
): Promise<{ handoff: string; organisation: string }> {
  const org = connection.displayName;
  const { email } = person;
  const domain = email.split('@')[1] ?? '';
  if (!email || !(await verifiedDomainsOf(deps.db, login.tenantId)).includes(domain))
    throw new SsoRefused(
      'WRONG_DOMAIN',
      org,
      `the provider's address ${email || '(none)'} is not on a verified domain`,
    );
  const learner = await provisionLearner(deps.db, {
    tenantId: login.tenantId,
    issuer: person.issuer,
    subject: person.subject,
    source: 'sso',
    email,
    // the organisation proved it owns the domain, and its provider vouches for its own people
    emailVerified: true,
    name: person.name,
  });
  const [account] = await deps.db.select().from(users).where(eq(users.id, learner.userId));
  if (account?.role !== 'USER' || account.isDeleted || learner.email !== email)
    throw new SsoRefused(
      'NOT_A_LEARNER',
      org,
      `${email} belongs to an account that cannot sign in as a learner`,
    );
  const actor: Actor = {
    kind: 'person',
    id: account.id,
    label: `${email} (single sign-on through ${org})`,
    ip: null,
    userAgent: null,
  };
  try {
    const added = await addLearner(
      deps.db,
      deps.seatPlans,
      login.tenantId,
      email,
      deps.seatPlans.now(),
      actor,
    );
    if (added.data.outcome !== 'ADDED') {
      await noticeNoSeat(deps.db, deps.mail, {
        tenantId: login.tenantId,
        kind: 'sso',
        who: email,
        publicUrl: deps.publicUrl,
        now: deps.seatPlans.now(),
      }).catch(() => false);
      throw new SsoRefused('NO_SEAT', org, added.data.outcome);
    }
  } catch (err) {
    // a seat held already is the usual case
    if (!(err instanceof HttpError && err.statusCode === 409)) throw err;
  }
  const handoff = random();
  await deps.db
    .update(ssoLogins)
    .set({
      userId: account.id,
      handoffHash: sha(handoff),
      handoffExpiresAt: new Date(Date.now() + HANDOFF_TTL_MS),
    })
    .where(eq(ssoLogins.id, login.id));
  await deps.db
    .update(users)
    .set({ lastLoginAt: new Date(), signInProvider: 'sso' })
    .where(eq(users.id, account.id));
  return { handoff, organisation: org };
}

/** Step 3: the user a handoff code stands for, once, within two minutes. */
export async function takeHandoff(db: Db, handoff: string): Promise<{ userId: string; device: string }> {
  const [row] = await db
    .update(ssoLogins)
    .set({ handedOffAt: sql`now()` })
    .where(
      and(
        eq(ssoLogins.handoffHash, sha(handoff)),
        isNull(ssoLogins.handedOffAt),
        gt(ssoLogins.handoffExpiresAt, sql`now()`),
      ),
    )
    .returning({ userId: ssoLogins.userId, device: ssoLogins.device });
  if (!row?.userId)
    throw new HttpError(401, localMessage('errors.sso.handoffInvalid'), {
      errorCode: 'SSO_HANDOFF_INVALID',
    });
  return { userId: row.userId, device: row.device };
}

/**
 * The daily sweep (a pg-boss job, once per tick across processes): sign-ins a day past their time, and SAML
 * assertion ids past the time their assertion could still be presented — a replay of those is refused by
 * their own NotOnOrAfter already.
 */
export async function sweepSso(db: Db, now = new Date()) {
  const logins = await db
    .delete(ssoLogins)
    .where(lt(ssoLogins.expiresAt, new Date(now.getTime() - 86_400_000)))
    .returning({ id: ssoLogins.id });
  const assertions = await db
    .delete(samlAssertions)
    .where(lt(samlAssertions.expiresAt, now))
    .returning({ id: samlAssertions.assertionId });
  return { logins: logins.length, assertions: assertions.length };
}
