/**
 * A mock LMS written from the 1EdTech texts (LTI Core 1.3, the Security Framework 1.0, LTI Dynamic
 * Registration 1.0), served over real HTTP on 127.0.0.1 for the server tests (decision 044): its key set
 * (with rotation), an OIDC authorisation endpoint that mints id_tokens, an OpenID configuration and a
 * registration endpoint, and a token endpoint that checks Waymark's client assertion with `jsonwebtoken` —
 * an independent library, not the one (jose) that signed it.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { exportJWK, SignJWT } from 'jose';

const require = createRequire(import.meta.url);
/** jsonwebtoken 9 (no bundled types): the part used here. */
export const jsonwebtoken = require('jsonwebtoken') as {
  verify(
    token: string,
    key: KeyObject | string,
    options: { algorithms: string[]; audience?: string; issuer?: string; complete?: boolean },
  ): { header: Record<string, unknown>; payload: Record<string, unknown> } & Record<string, unknown>;
  decode(
    token: string,
    options: { complete: true },
  ): { header: Record<string, unknown>; payload: Record<string, unknown> } | null;
};

export const CLAIM = {
  messageType: 'https://purl.imsglobal.org/spec/lti/claim/message_type',
  version: 'https://purl.imsglobal.org/spec/lti/claim/version',
  deploymentId: 'https://purl.imsglobal.org/spec/lti/claim/deployment_id',
  targetLinkUri: 'https://purl.imsglobal.org/spec/lti/claim/target_link_uri',
  resourceLink: 'https://purl.imsglobal.org/spec/lti/claim/resource_link',
  roles: 'https://purl.imsglobal.org/spec/lti/claim/roles',
  context: 'https://purl.imsglobal.org/spec/lti/claim/context',
  toolConfiguration: 'https://purl.imsglobal.org/spec/lti-tool-configuration',
} as const;

export const ROLE = {
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
} as const;

interface Key {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
}

async function makeKey(): Promise<Key> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export class MockPlatform {
  server!: Server;
  base = '';
  keys: Key[] = [];
  clientId = 'waymark-client-1';
  deploymentId = 'deployment-1';
  /** The tool's key set address, for checking its client assertions. */
  toolJwksUrl = '';
  /** What the tool sent to the registration endpoint, and with which bearer. */
  registrations: { body: Record<string, unknown>; authorization: string | undefined }[] = [];
  /** Client assertions the token endpoint accepted (decoded by jsonwebtoken). */
  assertions: Record<string, unknown>[] = [];
  jwksFetches = 0;
  /** Access tokens the token endpoint issued. */
  tokens = new Set<string>();
  /** Scores the AGS endpoint accepted and recorded, by line item path. */
  scores: { lineItem: string; body: Record<string, unknown> }[] = [];
  /**
   * Scores it answered with success but did not record: their timestamp was not later than the one on
   * record for that line item and user (AGS §3.4.9: the platform MUST NOT update a result from it).
   */
  stale: { lineItem: string; body: Record<string, unknown> }[] = [];
  /** The timestamp on record per line item and user. */
  private latest = new Map<string, number>();
  /** Milliseconds the AGS endpoint takes to answer (0: at once). */
  scoreDelayMs = 0;
  /** The course's members the NRPS endpoint lists. */
  members: Record<string, unknown>[] = [];
  /** The AGS endpoint answers 503 to every n-th request (0: never). */
  failEvery = 0;
  private scoreRequests = 0;
  registrationToken = 'reg-token-123';
  /** More routes (the e2e's browser-facing LMS pages): true when one answered. */
  extraRoutes: ((req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>) | null = null;

  get issuer() {
    return this.base;
  }

  /**
   * Listens on 127.0.0.1; with `host: 'localhost'` on every loopback address and named `localhost` — a
   * site of its own beside Waymark's 127.0.0.1 (the e2e's LMS, which frames Waymark from another site).
   */
  async start(opts: { host?: 'localhost' } = {}) {
    this.keys = [await makeKey()];
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
    await new Promise<void>((r) => this.server.listen(0, opts.host ? '::' : '127.0.0.1', r));
    this.base = `http://${opts.host ?? '127.0.0.1'}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close() {
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private issueToken() {
    const token = `at-${randomUUID()}`;
    this.tokens.add(token);
    return token;
  }

  /** A score as the platform records it: kept only when its timestamp is later than the one on record. */
  record(lineItem: string, body: Record<string, unknown>) {
    const key = `${lineItem}\n${String(body.userId)}`;
    const at = Date.parse(String(body.timestamp));
    const last = this.latest.get(key);
    if (last !== undefined && !(at > last)) {
      this.stale.push({ lineItem, body });
      return;
    }
    this.latest.set(key, at);
    this.scores.push({ lineItem, body });
  }

  /** A new current key; the old one stays published. */
  async rotate() {
    this.keys.unshift(await makeKey());
  }

  /** The values an administrator pastes into Waymark (the manual registration). */
  manual(label = 'Mock LMS') {
    return {
      label,
      issuer: this.issuer,
      clientId: this.clientId,
      deploymentIds: [this.deploymentId],
      authLoginUrl: `${this.base}/auth`,
      tokenUrl: `${this.base}/token`,
      jwksUrl: `${this.base}/jwks`,
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.base);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/jwks') {
      this.jwksFetches++;
      return json(200, { keys: this.keys.map((k) => k.publicJwk) });
    }
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: this.issuer,
        authorization_endpoint: `${this.base}/auth`,
        token_endpoint: `${this.base}/token`,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['RS256'],
        jwks_uri: `${this.base}/jwks`,
        registration_endpoint: `${this.base}/register`,
        scopes_supported: [
          'openid',
          'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
          'https://purl.imsglobal.org/spec/lti-ags/scope/score',
          'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
          'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
        ],
        response_types_supported: ['id_token'],
        subject_types_supported: ['public', 'pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        claims_supported: ['sub', 'iss', 'name', 'email'],
        'https://purl.imsglobal.org/spec/lti-platform-configuration': {
          product_family_code: 'mock-lms',
          version: '1.0',
          messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
        },
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      this.registrations.push({ body, authorization: req.headers.authorization });
      if (req.headers.authorization !== `Bearer ${this.registrationToken}`)
        return json(401, { error: 'invalid_token' });
      return json(200, {
        ...body,
        client_id: this.clientId,
        [CLAIM.toolConfiguration]: {
          ...(body[CLAIM.toolConfiguration] as object),
          deployment_id: this.deploymentId,
        },
      });
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const assertion = form.get('client_assertion') ?? '';
      const decoded = jsonwebtoken.decode(assertion, { complete: true });
      const res2 = await fetch(this.toolJwksUrl);
      const set = (await res2.json()) as { keys: Record<string, unknown>[] };
      const jwk = set.keys.find((k) => k.kid === decoded?.header.kid);
      if (!jwk) return json(401, { error: 'invalid_client', error_description: 'unknown kid' });
      try {
        const payload = jsonwebtoken.verify(
          assertion,
          createPublicKey({ key: jwk as never, format: 'jwk' }),
          {
            algorithms: ['RS256'],
            audience: `${this.base}/token`,
            issuer: this.clientId,
          },
        ) as unknown as Record<string, unknown>;
        this.assertions.push(payload);
      } catch (err) {
        return json(401, { error: 'invalid_client', error_description: (err as Error).message });
      }
      return json(200, {
        access_token: this.issueToken(),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: form.get('scope'),
      });
    }
    // NRPS 2.0: the membership container, two pages (Link rel="next"), the memberships scope's token
    if (url.pathname === '/memberships') {
      if (!this.tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, '')))
        return json(401, { error: 'invalid_token' });
      const page = Number(url.searchParams.get('page') ?? '1');
      const members = this.members.slice((page - 1) * 2, page * 2);
      const more = page * 2 < this.members.length;
      res.writeHead(200, {
        'content-type': 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json',
        ...(more ? { link: `<${this.base}/memberships?page=${page + 1}>; rel="next"` } : {}),
      });
      return res.end(
        JSON.stringify({ id: `${this.base}/memberships`, context: { id: 'course-1' }, members }),
      );
    }
    // AGS 2.0 §3.4: POST {lineitem}/scores, application/vnd.ims.lis.v1.score+json, the score scope's token
    const scores = /^\/lineitems\/([^/]+)\/scores$/.exec(url.pathname);
    if (scores && req.method === 'POST') {
      const body = await readBody(req);
      if (!this.tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, '')))
        return json(401, { error: 'invalid_token' });
      if (req.headers['content-type'] !== 'application/vnd.ims.lis.v1.score+json')
        return json(415, { error: 'type' });
      this.scoreRequests++;
      if (this.scoreDelayMs) await new Promise((r) => setTimeout(r, this.scoreDelayMs));
      if (this.failEvery && this.scoreRequests % this.failEvery === 0)
        return json(503, { error: 'try later' });
      this.record(scores[1]!, JSON.parse(body) as Record<string, unknown>);
      res.writeHead(204);
      return res.end();
    }
    if (this.extraRoutes && (await this.extraRoutes(req, res, url))) return;
    res.writeHead(404);
    res.end();
  }

  /** An id_token as the platform mints it; `over` replaces or adds claims (undefined removes one). */
  async idToken(
    nonce: string,
    toolClientId: string,
    targetLinkUri: string,
    over: Record<string, unknown> = {},
    opts: { key?: Key; iat?: number; exp?: number } = {},
  ) {
    const key = opts.key ?? this.keys[0]!;
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: this.issuer,
      aud: toolClientId,
      sub: 'lms-user-1',
      nonce,
      name: 'Lina Learner',
      email: 'lina.learner@example.edu',
      [CLAIM.messageType]: 'LtiResourceLinkRequest',
      [CLAIM.version]: '1.3.0',
      [CLAIM.deploymentId]: this.deploymentId,
      [CLAIM.targetLinkUri]: targetLinkUri,
      [CLAIM.resourceLink]: { id: 'resource-link-1', title: 'Week 1 quiz' },
      [CLAIM.roles]: [ROLE.learner],
      [CLAIM.context]: { id: 'course-1', title: 'Course One' },
      ...over,
    };
    for (const [k, v] of Object.entries(claims)) if (v === undefined) delete claims[k];
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid })
      .setIssuedAt(opts.iat ?? now)
      .setExpirationTime(opts.exp ?? now + 300)
      .sign(key.privateKey);
  }

  /** A key the platform does not publish. */
  static unpublishedKey = makeKey;
}
