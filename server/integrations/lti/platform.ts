/**
 * Talking to a platform (decision 044), every request through the outbound guard (server/lib/outbound.ts,
 * decision 030): its key set (cached per process, fetched again once on an unknown `kid`), the id_token's
 * strict check, the client-credentials token (a JWT assertion signed with our key, kept in the database
 * until it expires so every process shares it), and the AGS and NRPS services.
 */
import { createHash } from 'node:crypto';
import type { UiLocale } from '@shared/i18n/locales';
import { type LocalMessage, localMessage } from '@shared/i18n/message';
import type { Translator } from '@shared/i18n/translator';
import { and, eq, gt } from 'drizzle-orm';
import { decodeProtectedHeader, importJWK, type JWK, type JWTPayload, jwtVerify } from 'jose';
import type { Db } from '../../db/client';
import { english } from '../../lib/i18n';
import { guardedFetch, type OutboundOptions } from '../../lib/outbound';
import { TtlCache } from '../../lib/ttl-cache';
import type { SecretBox } from '../core/sealed';
import type { ToolKeys } from './keys';
import { ltiPlatformTokens, type ltiRegistrations } from './tables';

export type Registration = typeof ltiRegistrations.$inferSelect;

/** What a refusal says: a message of the catalogues, or words put together in the reader's language. */
export type RefusalWords = LocalMessage | ((t: Translator) => string);

/**
 * A launch refused, with the words a person reads (`kind` picks the page's heading): a message of the
 * catalogues, said in the launching person's language by the page (pages.ts); `message` is the English
 * (logs). `locale` is the person's language once a verified launch has told it (launch.ts).
 */
export class LaunchRefused extends Error {
  locale: UiLocale | null = null;
  constructor(
    readonly kind:
      | 'expired'
      | 'replayed'
      | 'unknown-platform'
      | 'unknown-deployment'
      | 'wrong-audience'
      | 'invalid'
      | 'paused'
      | 'seats'
      | 'not-allowed',
    readonly words: RefusalWords,
  ) {
    super(saidIn(words, english()));
    this.name = 'LaunchRefused';
  }
  /** The refusal's words in `t`'s language. */
  saidIn(t: Translator): string {
    return saidIn(this.words, t);
  }
}

const saidIn = (words: RefusalWords, t: Translator) =>
  typeof words === 'function' ? words(t) : t.t(words.key, words.values);

/** A platform's service answered something other than success. */
export class PlatformError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/** The clock skew allowed on `iat`/`exp`/`nbf` (seconds). */
export const CLOCK_SKEW_SECONDS = 30;
/** An id_token issued longer ago than this is refused, whatever its `exp` says. */
export const MAX_TOKEN_AGE_SECONDS = 600;
/** A key set is kept this long; an unknown kid fetches it again, at most once per kid per REFETCH_MS. */
const JWKS_TTL_MS = 10 * 60_000;
const REFETCH_MS = 5_000;

export const LTI = {
  messageType: 'https://purl.imsglobal.org/spec/lti/claim/message_type',
  version: 'https://purl.imsglobal.org/spec/lti/claim/version',
  deploymentId: 'https://purl.imsglobal.org/spec/lti/claim/deployment_id',
  targetLinkUri: 'https://purl.imsglobal.org/spec/lti/claim/target_link_uri',
  resourceLink: 'https://purl.imsglobal.org/spec/lti/claim/resource_link',
  roles: 'https://purl.imsglobal.org/spec/lti/claim/roles',
  context: 'https://purl.imsglobal.org/spec/lti/claim/context',
  custom: 'https://purl.imsglobal.org/spec/lti/claim/custom',
  ags: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  deepLinkingData: 'https://purl.imsglobal.org/spec/lti-dl/claim/data',
  contentItems: 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items',
  toolConfiguration: 'https://purl.imsglobal.org/spec/lti-tool-configuration',
  platformConfiguration: 'https://purl.imsglobal.org/spec/lti-platform-configuration',
} as const;

export const SCOPES = {
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  resultRead: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  memberships: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
} as const;

export interface PlatformOptions {
  db: Db;
  secrets: SecretBox;
  keys: ToolKeys;
  /** Plain http to this machine (development and tests only; the guard ignores it in production). */
  devLoopback: boolean;
  /** Tests' clock (seconds since the epoch are taken from it). */
  now?: () => Date;
}

export class Platforms {
  private readonly keySets = new TtlCache<string, { keys: JWK[]; fetchedAt: number }>({ maxEntries: 1000 });
  /** Unknown kids the key set was fetched again for lately: once per kid per REFETCH_MS, not per launch. */
  private readonly refetched = new TtlCache<string, true>({ maxEntries: 10_000 });
  private readonly now: () => Date;

  constructor(private readonly opts: PlatformOptions) {
    this.now = opts.now ?? (() => new Date());
  }

  /** A guarded request to a platform's address. */
  async request(url: string, init: OutboundOptions = {}) {
    return guardedFetch(url, {
      timeoutMs: 10_000,
      maxBytes: 2 * 1024 * 1024,
      ...init,
      allowLoopbackHttp: this.opts.devLoopback,
    });
  }

  /** JSON from a platform's address, or PlatformError. */
  async json<T>(
    url: string,
    init: OutboundOptions = {},
  ): Promise<{ body: T; headers: Record<string, unknown> }> {
    const res = await this.request(url, init);
    if (res.status < 200 || res.status >= 300) {
      throw new PlatformError(
        `${new URL(url).host} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`,
        res.status,
      );
    }
    try {
      return { body: JSON.parse(res.body.toString('utf8')) as T, headers: res.headers };
    } catch {
      throw new PlatformError(`${new URL(url).host} answered something that is not JSON`, res.status);
    }
  }

  private async fetchKeySet(url: string): Promise<JWK[]> {
    const { body } = await this.json<{ keys?: JWK[] }>(url, { headers: { accept: 'application/json' } });
    if (!Array.isArray(body.keys)) throw new PlatformError('The platform key set has no keys', null);
    this.keySets.set(url, { keys: body.keys, fetchedAt: Date.now() }, Date.now() + JWKS_TTL_MS);
    return body.keys;
  }

  /** The platform's key of `kid`: from the cached key set, else fetched again once. */
  private async platformKey(registration: Registration, kid: string | undefined): Promise<JWK> {
    const find = (keys: JWK[]) =>
      keys.find((k) => (kid === undefined ? keys.length === 1 : k.kid === kid) && k.kty === 'RSA');
    const cached = this.keySets.get(registration.jwksUrl);
    let key = cached ? find(cached.keys) : undefined;
    const miss = `${registration.jwksUrl}\n${kid ?? ''}`;
    if (!key && (!cached || !this.refetched.get(miss))) {
      this.refetched.set(miss, true, Date.now() + REFETCH_MS);
      key = find(await this.fetchKeySet(registration.jwksUrl));
    }
    if (!key) {
      throw new LaunchRefused(
        'invalid',
        localMessage('errors.lti.launch.unpublishedKey', { kid: kid ?? '—' }),
      );
    }
    return key;
  }

  /**
   * Checks an id_token strictly (LTI Core 1.3 §5.1.3; the Security Framework §5.1.3): RS256 only, signed by
   * the registration's platform key, `iss` the platform, `aud` our client id (with `azp` when `aud` lists
   * more than one), `exp`/`iat` within a small skew, LTI 1.3.0, a deployment the registration knows.
   */
  async verifyIdToken(registration: Registration, idToken: string): Promise<JWTPayload> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(idToken);
    } catch {
      throw new LaunchRefused('invalid', localMessage('errors.lti.launch.unreadableToken'));
    }
    if (header.alg !== 'RS256') {
      throw new LaunchRefused(
        'invalid',
        localMessage('errors.lti.launch.wrongAlgorithm', { alg: String(header.alg) }),
      );
    }
    const jwk = await this.platformKey(registration, header.kid);
    const key = await importJWK({ ...jwk, alg: 'RS256' }, 'RS256');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, key, {
        algorithms: ['RS256'],
        issuer: registration.issuer,
        audience: registration.clientId,
        clockTolerance: CLOCK_SKEW_SECONDS,
        maxTokenAge: MAX_TOKEN_AGE_SECONDS,
        requiredClaims: ['iss', 'aud', 'sub', 'exp', 'iat', 'nonce'],
        currentDate: this.now(),
      }));
    } catch (err) {
      const code = (err as { code?: string }).code;
      const claim = (err as { claim?: string }).claim;
      if (code === 'ERR_JWT_EXPIRED' || (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'iat'))
        throw new LaunchRefused('expired', localMessage('errors.lti.launch.expired'));
      if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'aud')
        throw new LaunchRefused('wrong-audience', localMessage('errors.lti.launch.wrongAudience'));
      if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && claim === 'iss')
        throw new LaunchRefused('unknown-platform', localMessage('errors.lti.launch.unknownIssuer'));
      if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED')
        throw new LaunchRefused('invalid', localMessage('errors.lti.launch.badSignature'));
      throw new LaunchRefused(
        'invalid',
        localMessage('errors.lti.launch.unchecked', { reason: (err as Error).message }),
      );
    }
    // aud as a list: azp must name us (OIDC Core 3.1.3.7 items 4 and 5; LTI Security Framework 5.1.3)
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp === undefined) {
      throw new LaunchRefused('wrong-audience', localMessage('errors.lti.launch.severalAudiences'));
    }
    if (payload.azp !== undefined && payload.azp !== registration.clientId) {
      throw new LaunchRefused('wrong-audience', localMessage('errors.lti.launch.wrongParty'));
    }
    if (payload[LTI.version] !== '1.3.0') {
      throw new LaunchRefused('invalid', localMessage('errors.lti.launch.notLti13'));
    }
    const deployment = payload[LTI.deploymentId];
    if (typeof deployment !== 'string' || !registration.deploymentIds.includes(deployment)) {
      throw new LaunchRefused(
        'unknown-deployment',
        localMessage('errors.lti.launch.deploymentUnknownHere', {
          deployment: typeof deployment === 'string' ? deployment : '—',
        }),
      );
    }
    return payload;
  }

  /**
   * An access token for `scopes` from the platform's token endpoint (client credentials with a signed JWT
   * assertion, the Security Framework §4.1), kept sealed in the database until a minute before it expires.
   */
  async accessToken(registration: Registration, scopes: readonly string[]): Promise<string> {
    const scopeKey = [...scopes].sort().join(' ');
    const now = this.now();
    const [cached] = await this.opts.db
      .select()
      .from(ltiPlatformTokens)
      .where(
        and(
          eq(ltiPlatformTokens.registrationId, registration.id),
          eq(ltiPlatformTokens.scopes, scopeKey),
          gt(ltiPlatformTokens.expiresAt, new Date(now.getTime() + 60_000)),
        ),
      )
      .limit(1);
    const sealContext = `lti_platform_tokens:${registration.id}:${hash(scopeKey)}`;
    if (cached) return this.opts.secrets.openText(cached.token, sealContext);
    const assertion = await this.opts.keys.sign(
      {
        iss: registration.clientId,
        sub: registration.clientId,
        aud: registration.authServer ?? registration.tokenUrl,
      },
      now,
    );
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope: scopeKey,
    });
    const { body } = await this.json<{ access_token?: string; expires_in?: number; token_type?: string }>(
      registration.tokenUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      },
    );
    if (typeof body.access_token !== 'string' || !body.access_token) {
      throw new PlatformError('The platform token endpoint gave no access_token', null);
    }
    const lifetime = Math.min(Math.max(Number(body.expires_in) || 3600, 60), 86_400);
    const expiresAt = new Date(now.getTime() + lifetime * 1000);
    const sealed = this.opts.secrets.seal(body.access_token, sealContext);
    await this.opts.db
      .insert(ltiPlatformTokens)
      .values({ registrationId: registration.id, scopes: scopeKey, token: sealed, expiresAt })
      .onConflictDoUpdate({
        target: [ltiPlatformTokens.registrationId, ltiPlatformTokens.scopes],
        set: { token: sealed, expiresAt },
      });
    return body.access_token;
  }

  /** Forgets a token the platform refused (401), so the next request asks for another. */
  async forgetToken(registration: Registration, scopes: readonly string[]) {
    await this.opts.db
      .delete(ltiPlatformTokens)
      .where(
        and(
          eq(ltiPlatformTokens.registrationId, registration.id),
          eq(ltiPlatformTokens.scopes, [...scopes].sort().join(' ')),
        ),
      );
  }

  /** A service call with the registration's token for `scopes`; a 401 asks for a new token once. */
  async service(
    registration: Registration,
    scopes: readonly string[],
    url: string,
    init: OutboundOptions = {},
  ) {
    for (let round = 0; ; round++) {
      const token = await this.accessToken(registration, scopes);
      const res = await this.request(url, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${token}` },
      });
      if (res.status === 401 && round === 0) {
        await this.forgetToken(registration, scopes);
        continue;
      }
      return res;
    }
  }
}

const hash = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 16);
