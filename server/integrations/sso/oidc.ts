/**
 * Waymark as an OpenID Connect relying party (OIDC Core 1.0 §3.1, the authorization code flow, with PKCE,
 * RFC 7636): the provider's discovery document (OIDC Discovery §4), the code exchanged at its token endpoint
 * with the client secret (client_secret_basic), and the ID token checked with jose against the provider's
 * key set — signature, `iss`, `aud`, `exp`, and the `nonce` we sent. Every request to the provider goes
 * through the outbound guard (server/lib/outbound.ts): the provider's address is one a tenant typed.
 */
import { createRemoteJWKSet, customFetch, type JWTPayload, jwtVerify } from 'jose';
import { SaidError } from '../../lib/i18n';
import { guardedFetch } from '../../lib/outbound';

export interface OidcEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  /** Where the claims the ID token leaves out are read (OIDC Core §5.3); not every provider has one. */
  userinfoEndpoint?: string;
}

const TIMEOUT_MS = 8000;
const MAX_BYTES = 256 * 1024;

async function getJson(
  url: string,
  allowLoopbackHttp: boolean,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const res = await guardedFetch(url, {
    ...init,
    headers: { accept: 'application/json', ...init.headers },
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_BYTES,
    allowLoopbackHttp,
  });
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(new TextDecoder().decode(res.body));
  } catch {
    throw new SaidError('errors.sso.discovery.notJson', { host: new URL(url).host, status: res.status });
  }
  return { status: res.status, body };
}

const httpsOrLocal = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || !/^https?:\/\//.test(value))
    throw new SaidError('errors.sso.discovery.missing', { name });
  return value;
};

/** The provider's endpoints, from its discovery document; its `issuer` must be the one configured. */
export async function discover(issuer: string, allowLoopbackHttp: boolean): Promise<OidcEndpoints> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const { status, body } = await getJson(url, allowLoopbackHttp);
  if (status !== 200) throw new SaidError('errors.sso.discovery.answered', { url, status });
  if (body.issuer !== issuer)
    throw new SaidError('errors.sso.discovery.wrongIssuer', { given: JSON.stringify(body.issuer), issuer });
  return {
    authorizationEndpoint: httpsOrLocal(body.authorization_endpoint, 'authorization_endpoint'),
    tokenEndpoint: httpsOrLocal(body.token_endpoint, 'token_endpoint'),
    jwksUri: httpsOrLocal(body.jwks_uri, 'jwks_uri'),
    ...(typeof body.userinfo_endpoint === 'string'
      ? { userinfoEndpoint: httpsOrLocal(body.userinfo_endpoint, 'userinfo_endpoint') }
      : {}),
  };
}

/** The authorization request's URL (OIDC Core §3.1.2.1). */
export function authorizationUrl(
  endpoints: OidcEndpoints,
  p: {
    clientId: string;
    redirectUri: string;
    state: string;
    nonce: string;
    codeChallenge: string;
    loginHint: string;
  },
): string {
  const url = new URL(endpoints.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  url.searchParams.set('scope', 'openid email profile');
  url.searchParams.set('state', p.state);
  url.searchParams.set('nonce', p.nonce);
  url.searchParams.set('code_challenge', p.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('login_hint', p.loginHint);
  return url.toString();
}

/**
 * The code exchanged for tokens and the ID token checked: its claims. Throws an Error saying what failed
 * (shown to the person as "your organisation's sign-in did not complete", logged in full).
 */
export async function redeemCode(
  settings: OidcEndpoints & { issuer: string; clientId: string },
  p: { code: string; redirectUri: string; codeVerifier: string; nonce: string; clientSecret: string },
  allowLoopbackHttp: boolean,
): Promise<JWTPayload> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: p.code,
    redirect_uri: p.redirectUri,
    code_verifier: p.codeVerifier,
  });
  // client_secret_basic: both parts form-encoded first (RFC 6749 §2.3.1)
  const basic = Buffer.from(
    `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(p.clientSecret)}`,
  ).toString('base64');
  const { status, body } = await getJson(settings.tokenEndpoint, allowLoopbackHttp, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: form.toString(),
  });
  if (status !== 200 || typeof body.id_token !== 'string')
    throw new Error(
      `the token endpoint answered ${status} ${String(body.error ?? '')} ${String(body.error_description ?? '')}`.trim(),
    );
  const keys = createRemoteJWKSet(new URL(settings.jwksUri), {
    timeoutDuration: TIMEOUT_MS,
    // the key set is read through the outbound guard too
    [customFetch]: async (url: string) => {
      const res = await guardedFetch(url, { timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES, allowLoopbackHttp });
      return new Response(new Uint8Array(res.body), {
        status: res.status,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  const { payload } = await jwtVerify(body.id_token, keys, {
    issuer: settings.issuer,
    audience: settings.clientId,
    clockTolerance: 60,
  });
  if (payload.nonce !== p.nonce) throw new Error('the ID token does not carry the nonce of this sign-in');
  if (typeof payload.sub !== 'string' || !payload.sub) throw new Error('the ID token has no subject');
  // a provider may give the e-mail address only at its UserInfo endpoint (OIDC Core §5.4: claims requested
  // by scope go there when an access token is issued); its `sub` must be the ID token's (§5.3.2)
  if (
    typeof payload.email !== 'string' &&
    settings.userinfoEndpoint &&
    typeof body.access_token === 'string'
  ) {
    const info = await getJson(settings.userinfoEndpoint, allowLoopbackHttp, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    if (info.status !== 200) throw new Error(`the UserInfo endpoint answered ${info.status}`);
    if (info.body.sub !== payload.sub) throw new Error('the UserInfo answer is about another subject');
    return {
      ...payload,
      email: info.body.email,
      email_verified: info.body.email_verified,
      name: payload.name ?? info.body.name,
    };
  }
  return payload;
}
