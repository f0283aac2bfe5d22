/**
 * LTI 1.3 (issue 27; decision 044) against a mock platform over real HTTP (server/test/lti-platform.ts):
 * registration by hand and by Dynamic Registration, the tool key set and its rotation (checked with
 * jsonwebtoken, not the jose that signs), the login initiation and launch with every strictness case of
 * the issue refused in words with nothing written, and a learner's launch: linked, seated, and limited.
 */
import { createHmac, createPublicKey } from 'node:crypto';
import { FREE_SEATS } from '@shared/rules/seats';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testLinks } from '../../assessments/tables';
import { tenantAssessmentQuestions, tenantAssessments } from '../../authoring/tables';
import { rowsOf } from '../../db/helpers';
import { outbox, tenantUsers } from '../../db/schema';
import { tenantInvitations } from '../../tenant/tables';
import { expectLogSaid } from '../../test/audit-said';
import { calls, seedBank } from '../../test/fixtures/assessments';
import { type SignedIn, setupServer } from '../../test/helper';
import { CLAIM, jsonwebtoken, MockPlatform, ROLE } from '../../test/lti-platform';
import { events, externalIdentities } from '../core/tables';
import { ltiUpkeep } from './keys';
import { ltiServices } from './routes';
import { MAX_ATTEMPTS, postScore, recordGradeTarget } from './scores';
import { ltiLaunches, ltiRegistrations, ltiScoreDeliveries } from './tables';

const server = setupServer({ env: { LTI_DEV_LOOPBACK: 'true' } });
const platform = new MockPlatform();

let tenant: SignedIn;
let other: SignedIn;
let registrationId: string;

const base = () => server.config.publicUrl.replace(/\/+$/, '');
const launchUrl = () => `${base()}/lti/launch`;

beforeAll(async () => {
  await platform.start();
  platform.toolJwksUrl = ''; // set once the app is up (below)
  tenant = await server.signedIn('TENANT', { profile: true, name: 'LTI Mentor' });
  other = await server.signedIn('TENANT', { profile: true, name: 'Other Mentor' });
}, 60_000);
afterAll(() => platform.close());

async function login(extra: Record<string, string> = {}) {
  const q = new URLSearchParams({
    iss: platform.issuer,
    login_hint: 'lms-user-1',
    target_link_uri: launchUrl(),
    client_id: platform.clientId,
    lti_deployment_id: platform.deploymentId,
    ...extra,
  });
  const res = await server.app.inject({ method: 'GET', url: `/lti/login?${q}` });
  return res;
}

async function startLaunch() {
  const res = await login();
  expect(res.statusCode, res.body).toBe(302);
  const to = new URL(String(res.headers.location));
  return { state: to.searchParams.get('state')!, nonce: to.searchParams.get('nonce')!, to };
}

const postLaunch = (form: Record<string, string>) =>
  server.app.inject({
    method: 'POST',
    url: '/lti/launch',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });

const countLaunches = async () =>
  Number(
    rowsOf<{ n: number }>(await server.db.execute(sql`select count(*)::int as n from lti_launches`))[0]!.n,
  );

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** Runs the score jobs of every post due at `now` (pg-boss would, one job each), counting the outcomes. */
async function postDueScores(now = new Date()) {
  const deps = {
    db: server.db,
    platforms: ltiServices({ db: server.db, config: server.config, secrets: server.app.services.secrets })
      .platforms,
    publicUrl: server.config.publicUrl,
  };
  const due = await server.db
    .select({ id: ltiScoreDeliveries.id })
    .from(ltiScoreDeliveries)
    .where(
      and(
        inArray(ltiScoreDeliveries.status, ['PENDING', 'FAILED']),
        // the database's clock as well as `now`: a post made this very millisecond has a next_attempt_at in
        // microseconds, later than `now` truncated to milliseconds (the flake this fixed)
        lte(
          ltiScoreDeliveries.nextAttemptAt,
          sql`greatest(${now.toISOString()}::timestamptz, clock_timestamp())`,
        ),
      ),
    );
  const result = { delivered: 0, failed: 0, gaveUp: 0 };
  for (const { id } of due) {
    const outcome = await postScore(deps, id, now);
    if (outcome === 'delivered') result.delivered++;
    if (outcome === 'failed') result.failed++;
    if (outcome === 'gave-up') result.gaveUp++;
  }
  return result;
}

describe('registration', () => {
  it('gives the values to paste, registers a platform by hand, refuses a second copy and bad input', async () => {
    const tool = await server.get('/api/tenant/lti/tool', tenant.auth);
    expect(tool.status).toBe(200);
    expect(tool.body.data).toMatchObject({
      loginUrl: `${base()}/lti/login`,
      launchUrl: `${base()}/lti/launch`,
      jwksUrl: `${base()}/lti/jwks`,
    });
    const bad = await server.post(
      '/api/tenant/lti/registrations',
      { ...platform.manual(), jwksUrl: 'nope' },
      tenant.auth,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('jwksUrl');
    const made = await server.post('/api/tenant/lti/registrations', platform.manual(), tenant.auth);
    expect(made.status, made.text).toBe(201);
    expect(made.body.data).toMatchObject({
      status: 'ACTIVE',
      via: 'MANUAL',
      deploymentIds: [platform.deploymentId],
    });
    registrationId = made.body.data._id;
    const again = await server.post('/api/tenant/lti/registrations', platform.manual(), other.auth);
    expect(again.status).toBe(409);
    // another tenant neither sees nor changes it
    const list = await server.get('/api/tenant/lti/registrations', other.auth);
    expect(list.body.data).toEqual([]);
    const patch = await server.request(
      'PATCH',
      `/api/tenant/lti/registrations/${registrationId}`,
      { status: 'PAUSED' },
      other.auth,
    );
    expect(patch.status).toBe(404);
    // a learner may not
    const learner = await server.signedIn('USER');
    expect((await server.get('/api/tenant/lti/registrations', learner.auth)).status).toBe(403);
  });

  it('publishes the tool key set; rotation keeps the retired key until what it signed has expired', async () => {
    const { keys } = ltiServices({
      db: server.db,
      config: server.config,
      secrets: server.app.services.secrets,
    });
    const first = await server.get('/lti/jwks');
    expect(first.status).toBe(200);
    const set1 = JSON.parse(first.text) as { keys: Record<string, unknown>[] };
    expect(set1.keys).toHaveLength(1);
    expect(set1.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(set1.keys[0]).not.toHaveProperty('d');
    const before = await keys.sign({ iss: 'x', aud: 'y' });
    await keys.rotate();
    const set2 = JSON.parse((await server.get('/lti/jwks')).text) as { keys: Record<string, unknown>[] };
    expect(set2.keys).toHaveLength(2);
    // a JWT signed before the rotation still verifies (jsonwebtoken) against the published set
    const kid = jsonwebtoken.decode(before, { complete: true })!.header.kid;
    const jwk = set2.keys.find((k) => k.kid === kid)!;
    expect(
      jsonwebtoken.verify(before, createPublicKey({ key: jwk as never, format: 'jwk' }), {
        algorithms: ['RS256'],
      }),
    ).toMatchObject({ iss: 'x', aud: 'y' });
    // a day later the retired key is gone
    const later = await keys.jwks(new Date(Date.now() + 2 * 86_400_000));
    expect(later.keys).toHaveLength(1);
    expect(later.keys[0]!.kid).not.toBe(kid);
  });

  it('the daily upkeep rotates the key only once it is LTI_KEY_ROTATION_DAYS old', async () => {
    const { secrets } = server.app.services;
    const days = server.config.lti.keyRotationDays;
    const kids = async () =>
      (JSON.parse((await server.get('/lti/jwks')).text) as { keys: { kid: string }[] }).keys.map(
        (k) => k.kid,
      );
    const before = await kids();
    expect((await ltiUpkeep(server.db, secrets, days)).rotated).toBe(0);
    expect(await kids()).toEqual(before);
    const later = new Date(Date.now() + (days + 1) * 86_400_000);
    expect((await ltiUpkeep(server.db, secrets, days, later)).rotated).toBe(1);
    // the new key and the one it replaced are published; the key retired long before is dropped
    const after = await kids();
    expect(after).toContain(before[0]);
    expect(after.filter((k) => !before.includes(k))).toHaveLength(1);
    // two processes' jobs on the same tick: one rotation
    const [a, b] = await Promise.all([
      ltiUpkeep(server.db, secrets, days, later),
      ltiUpkeep(server.db, secrets, days, later),
    ]);
    expect(a.rotated + b.rotated).toBe(0);
  });

  it('registers by Dynamic Registration once, with what Waymark supports, and shows what was registered', async () => {
    const inviteRes = await server.post(
      '/api/tenant/lti/registration-invites',
      { label: 'Dynamic LMS' },
      other.auth,
    );
    expect(inviteRes.status).toBe(201);
    const invite = new URL(inviteRes.body.data.url);
    expect(invite.pathname).toBe('/lti/register');
    // a second platform on the same mock: another client id
    platform.clientId = 'dynamic-client-2';
    const url = `${invite.pathname}${invite.search}&${new URLSearchParams({
      openid_configuration: `${platform.base}/.well-known/openid-configuration`,
      registration_token: platform.registrationToken,
    })}`;
    const res = await server.app.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Waymark is registered');
    expect(res.body).toContain('org.imsglobal.lti.close');
    const sent = platform.registrations.at(-1)!;
    expect(sent.authorization).toBe(`Bearer ${platform.registrationToken}`);
    expect(sent.body).toMatchObject({
      application_type: 'web',
      response_types: ['id_token'],
      grant_types: ['implicit', 'client_credentials'],
      initiate_login_uri: `${base()}/lti/login`,
      redirect_uris: [`${base()}/lti/launch`],
      jwks_uri: `${base()}/lti/jwks`,
      token_endpoint_auth_method: 'private_key_jwt',
    });
    const types = (sent.body[CLAIM.toolConfiguration] as { messages: { type: string }[] }).messages.map(
      (m) => m.type,
    );
    expect(types).toEqual(['LtiResourceLinkRequest', 'LtiDeepLinkingRequest']);
    const list = await server.get('/api/tenant/lti/registrations', other.auth);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      via: 'DYNAMIC',
      clientId: 'dynamic-client-2',
      deploymentIds: [platform.deploymentId],
      platform: { product: 'mock-lms', version: '1.0' },
    });
    // the address works once
    const reused = await server.app.inject({ method: 'GET', url });
    expect(reused.statusCode).toBe(400);
    expect(reused.body).toContain('expired or was used already');
    // removed: the platform is gone, its launches refused
    const removed = await server.request(
      'DELETE',
      `/api/tenant/lti/registrations/${list.body.data[0]._id}`,
      undefined,
      other.auth,
    );
    expect(removed.status).toBe(200);
    expect((await server.get('/api/tenant/lti/registrations', other.auth)).body.data).toEqual([]);
    platform.clientId = 'waymark-client-1';
    // each entry said again in the reader's language from its details (issue 31)
    await expectLogSaid(server.db, other.user._id, ['lti.registered', 'lti.removed']);
  });
});

describe('launch', () => {
  it('sends the browser to the platform with a signed single-use state and a nonce', async () => {
    const { state, nonce, to } = await startLaunch();
    expect(to.origin + to.pathname).toBe(`${platform.base}/auth`);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: platform.clientId,
      redirect_uri: launchUrl(),
      login_hint: 'lms-user-1',
    });
    expect(state.split('.')).toHaveLength(3);
    expect(nonce.length).toBeGreaterThan(20);
    // POST works too (the platform may post the initiation)
    const posted = await server.app.inject({
      method: 'POST',
      url: '/lti/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        iss: platform.issuer,
        login_hint: 'x',
        target_link_uri: launchUrl(),
        client_id: platform.clientId,
      }).toString(),
    });
    expect(posted.statusCode).toBe(302);
  });

  it('refuses an unknown platform, an unknown deployment and a target outside Waymark, in words', async () => {
    const unknown = await login({ iss: 'https://elsewhere.example' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This LMS is not registered with Waymark');
    expect(unknown.body).toMatch(/reference: <code dir="ltr">[0-9a-f]{8}<\/code>/);
    const deployment = await login({ lti_deployment_id: 'nope' });
    expect(deployment.statusCode).toBe(400);
    expect(deployment.body).toContain('is not registered');
    const target = await login({ target_link_uri: 'https://evil.example/lti/launch' });
    expect(target.statusCode).toBe(400);
    // framed by the registered LMS only (its registered addresses' origin), never by any site
    expect(String(target.headers['content-security-policy'])).toContain(`frame-ancestors ${platform.base}`);
    expect(String(target.headers['content-security-policy'])).not.toContain('frame-ancestors *');
    expect(target.headers['x-frame-options']).toBeUndefined();
    // an unknown platform's refusal may be framed by nobody
    expect(String(unknown.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  const refusals: [string, (s: { nonce: string }) => Promise<string>, RegExp][] = [
    [
      'a wrong audience',
      ({ nonce }) => platform.idToken(nonce, 'someone-else', launchUrl()),
      /meant for another tool/,
    ],
    [
      'aud as an array without azp',
      ({ nonce }) =>
        platform.idToken(nonce, 'x', launchUrl(), { aud: [platform.clientId, 'another-client'] }),
      /several audiences and no authorised party/,
    ],
    [
      'an expired token',
      ({ nonce }) =>
        platform.idToken(
          nonce,
          platform.clientId,
          launchUrl(),
          {},
          {
            iat: Math.floor(Date.now() / 1000) - 900,
            exp: Math.floor(Date.now() / 1000) - 600,
          },
        ),
      /expired/,
    ],
    [
      'alg none',
      async ({ nonce }) => {
        const real = await platform.idToken(nonce, platform.clientId, launchUrl());
        return `${b64({ alg: 'none', typ: 'JWT' })}.${real.split('.')[1]}.`;
      },
      /only RS256 is accepted/,
    ],
    [
      'HS256 signed with the public key as the secret',
      async ({ nonce }) => {
        const real = await platform.idToken(nonce, platform.clientId, launchUrl());
        const pem = createPublicKey({ key: platform.keys[0]!.publicJwk as never, format: 'jwk' }).export({
          type: 'spki',
          format: 'pem',
        });
        const head = `${b64({ alg: 'HS256', typ: 'JWT', kid: platform.keys[0]!.kid })}.${real.split('.')[1]}`;
        return `${head}.${createHmac('sha256', pem).update(head).digest('base64url')}`;
      },
      /only RS256 is accepted/,
    ],
    [
      'an unknown deployment',
      ({ nonce }) =>
        platform.idToken(nonce, platform.clientId, launchUrl(), { [CLAIM.deploymentId]: 'deployment-x' }),
      /deployment Waymark does not know/,
    ],
    [
      'a key the platform does not publish',
      async ({ nonce }) =>
        platform.idToken(
          nonce,
          platform.clientId,
          launchUrl(),
          {},
          { key: await MockPlatform.unpublishedKey() },
        ),
      /key it does not publish/,
    ],
    [
      'another LTI version',
      ({ nonce }) => platform.idToken(nonce, platform.clientId, launchUrl(), { [CLAIM.version]: '1.1' }),
      /not LTI 1\.3\.0/,
    ],
  ];

  for (const [what, token, words] of refusals) {
    it(`refuses ${what} with a page in words, and nothing is written`, async () => {
      const users = Number(
        rowsOf<{ n: number }>(await server.db.execute(sql`select count(*)::int as n from users`))[0]!.n,
      );
      const launches = await countLaunches();
      const { state, nonce } = await startLaunch();
      const res = await postLaunch({ id_token: await token({ nonce }), state });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toMatch(words);
      expect(res.body).toMatch(/<code dir="ltr">[0-9a-f]{8}<\/code>/);
      expect(await countLaunches()).toBe(launches);
      expect(
        Number(
          rowsOf<{ n: number }>(await server.db.execute(sql`select count(*)::int as n from users`))[0]!.n,
        ),
      ).toBe(users);
    });
  }

  it('refuses a replayed launch: the same post again, or its id_token with another state', async () => {
    const first = await startLaunch();
    const idToken = await platform.idToken(first.nonce, platform.clientId, launchUrl(), { sub: 'replay-1' });
    const ok = await postLaunch({ id_token: idToken, state: first.state });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await postLaunch({ id_token: idToken, state: first.state });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('used already');
    const second = await startLaunch();
    const replayed = await postLaunch({ id_token: idToken, state: second.state });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.body).toContain('used already');
    // a state Waymark did not sign
    const forged = await postLaunch({ id_token: idToken, state: `${first.state.slice(0, -4)}AAAA` });
    expect(forged.body).toContain('not started by Waymark');
  });

  it('fetches the key set again once for an unknown kid, so a rotated platform key is accepted', async () => {
    // the key set is cached by the first launches; the platform rotates
    await platform.rotate();
    const fetches = platform.jwksFetches;
    const { state, nonce } = await startLaunch();
    const res = await postLaunch({
      id_token: await platform.idToken(nonce, platform.clientId, launchUrl(), { sub: 'rotated-1' }),
      state,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(platform.jwksFetches).toBe(fetches + 1);
  });

  it("links a learner, gives a seat of the tenant, and opens a session limited to that tenant's learner", async () => {
    const { state, nonce } = await startLaunch();
    const res = await postLaunch({
      id_token: await platform.idToken(nonce, platform.clientId, launchUrl(), { sub: 'learner-42' }),
      state,
    });
    expect(res.statusCode, res.body).toBe(200);
    const code = /"code":"([A-Za-z0-9_-]+)"/.exec(res.body)![1]!;
    const [identity] = await server.db
      .select()
      .from(externalIdentities)
      .where(
        and(eq(externalIdentities.issuer, platform.issuer), eq(externalIdentities.subject, 'learner-42')),
      );
    expect(identity).toMatchObject({ tenantId: tenant.user._id, source: 'lti' });
    const seats = await server.db
      .select()
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, tenant.user._id), eq(tenantUsers.learnerId, identity!.userId)));
    expect(seats).toHaveLength(1);

    const session = await server.post('/api/lti/session', { code });
    expect(session.status, session.text).toBe(200);
    expect(session.body.data).toMatchObject({
      role: 'LEARNER',
      contextTitle: 'Course One',
      opens: { page: 'home' },
    });
    const token = session.body.data.session.token as string;
    const me = await server.get('/api/user/me', { token });
    expect(me.status, me.text).toBe(200);
    expect(me.body.data._id).toBe(identity!.userId);
    // outside what a launched learner may do
    const limited = await server.get('/api/tenant/lti/registrations', { token });
    expect(limited.status).toBe(403);
    expect(limited.body.errorCode).toBe('LTI_SESSION_LIMITED');
    // the code works once
    expect((await server.post('/api/lti/session', { code })).status).toBe(404);
    // a second launch of the same person is the same account
    const next = await startLaunch();
    await postLaunch({
      id_token: await platform.idToken(next.nonce, platform.clientId, launchUrl(), { sub: 'learner-42' }),
      state: next.state,
    });
    const ids = await server.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.subject, 'learner-42'));
    expect(ids).toHaveLength(1);
  });

  it('refuses a link to an assessment that is not the tenant’s, in words', async () => {
    const { state, nonce } = await startLaunch();
    const res = await postLaunch({
      id_token: await platform.idToken(nonce, platform.clientId, launchUrl(), {
        sub: 'learner-42',
        'https://purl.imsglobal.org/spec/lti/claim/custom': {
          waymark_target: 'assessment:11111111-2222-4333-8444-000000000000',
        },
      }),
      state,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('no longer available');
  });

  it('keeps the state in platform storage when offered, and the code needs it back', async () => {
    const res = await login({ lti_storage_target: '_parent' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('lti.put_data');
    const a = JSON.parse(/var a=(\{.*?\});/.exec(res.body)![1]!) as {
      url: string;
      state: string;
      origin: string;
    };
    expect(a.origin).toBe(platform.base);
    const to = new URL(a.url);
    const state = to.searchParams.get('state')!;
    const launched = await postLaunch({
      id_token: await platform.idToken(to.searchParams.get('nonce')!, platform.clientId, launchUrl(), {
        sub: 'storage-1',
      }),
      state,
    });
    expect(launched.statusCode, launched.body).toBe(200);
    expect(launched.body).toContain('lti.get_data');
    const code = /"code":"([A-Za-z0-9_-]+)"/.exec(launched.body)![1]!;
    const wrong = await server.post('/api/lti/session', { code, state: 'not-the-state' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errorCode).toBe('LTI_STATE_MISMATCH');
    // the state read back from platform storage as it was put there (it has dots) opens the launch
    const again = await login({ lti_storage_target: '_parent' });
    const put = JSON.parse(/var a=(\{.*?\});/.exec(again.body)![1]!) as { url: string; state: string };
    const next = new URL(put.url);
    const launchedAgain = await postLaunch({
      id_token: await platform.idToken(next.searchParams.get('nonce')!, platform.clientId, launchUrl(), {
        sub: 'storage-1',
      }),
      state: next.searchParams.get('state')!,
    });
    const code2 = /"code":"([A-Za-z0-9_-]+)"/.exec(launchedAgain.body)![1]!;
    const right = await server.post('/api/lti/session', { code: code2, state: put.state });
    expect(right.status, right.text).toBe(200);
    expect(right.body.data.role).toBe('LEARNER');
  });

  it('opens the instructor view (no Waymark account) for an instructor; a paused platform refuses', async () => {
    const { state, nonce } = await startLaunch();
    const res = await postLaunch({
      id_token: await platform.idToken(nonce, platform.clientId, launchUrl(), {
        sub: 'teacher-1',
        [CLAIM.roles]: [ROLE.instructor],
      }),
      state,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [launch] = await server.db.select().from(ltiLaunches).where(eq(ltiLaunches.subject, 'teacher-1'));
    expect(launch).toMatchObject({ role: 'INSTRUCTOR', userId: null });
    const paused = await server.request(
      'PATCH',
      `/api/tenant/lti/registrations/${registrationId}`,
      { status: 'PAUSED' },
      tenant.auth,
    );
    expect(paused.status).toBe(200);
    expect(paused.body.data.status).toBe('PAUSED');
    const refused = await login();
    expect(refused.body).toContain('paused');
    const [row] = await server.db
      .select()
      .from(ltiRegistrations)
      .where(eq(ltiRegistrations.id, registrationId));
    expect(row!.status).toBe('PAUSED');
    await server.request(
      'PATCH',
      `/api/tenant/lti/registrations/${registrationId}`,
      { status: 'ACTIVE' },
      tenant.auth,
    );
    await expectLogSaid(server.db, tenant.user._id, ['lti.registered', 'lti.paused', 'lti.resumed']);
  });
});

describe('framing (decision 045)', () => {
  const frameAncestorsOf = (headers: Record<string, unknown>) =>
    /frame-ancestors ([^;]*)/.exec(String(headers['content-security-policy']))?.[1];

  it("frames a launch's pages only by its platform's origins, and every other page by nobody else", async () => {
    const { state, nonce } = await startLaunch();
    const res = await postLaunch({
      id_token: await platform.idToken(nonce, platform.clientId, launchUrl(), {
        sub: 'framed-1',
        // where the platform frames the tool (hosted Canvas: the school's own host), in its signed claims
        'https://purl.imsglobal.org/spec/lti/claim/launch_presentation': {
          document_target: 'iframe',
          return_url: 'https://school.example.edu/courses/1/return',
        },
      }),
      state,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(frameAncestorsOf(res.headers)).toBe(`${platform.base} https://school.example.edu`);
    expect(res.headers['x-frame-options']).toBeUndefined();
    const launchId = /"launchId":"([0-9a-f-]{36})"/.exec(res.body)![1]!;
    // the portal's page for this launch: framed by the same origins only, nothing cached
    const app = await server.app.inject({ method: 'GET', url: `/lti/app/${launchId}` });
    expect(app.statusCode).toBe(200);
    expect(frameAncestorsOf(app.headers)).toBe(`${platform.base} https://school.example.edu`);
    expect(app.headers['x-frame-options']).toBeUndefined();
    expect(app.headers['cache-control']).toBe('no-store');
    // the learned origin frames the next login's storage step too
    const next = await login({ lti_storage_target: '_parent' });
    expect(frameAncestorsOf(next.headers)).toBe(`${platform.base} https://school.example.edu`);
    // an unknown or malformed launch: a refusal nobody may frame
    const unknown = await server.app.inject({
      method: 'GET',
      url: '/lti/app/11111111-2222-4333-8444-000000000000',
    });
    expect(unknown.statusCode).toBe(400);
    expect(frameAncestorsOf(unknown.headers)).toBe("'none'");
    // every other page and call stays unframeable
    for (const url of ['/', `/test/${launchId}`, '/portal/integrations/lms', '/lti/app/not-a-launch']) {
      const other = await server.app.inject({ method: 'GET', url });
      expect(frameAncestorsOf(other.headers), url).toMatch(/^'(self|none)'$/);
      expect(other.headers['x-frame-options'], url).toMatch(/^(SAMEORIGIN|DENY)$/);
    }
    const api = await server.get('/api/system/health');
    expect(frameAncestorsOf(api.headers as Record<string, unknown>)).toBe("'none'");
    // a launch's page lasts as long as its launch token: 2 hours
    await server.db
      .update(ltiLaunches)
      .set({ createdAt: new Date(Date.now() - 2 * 3600_000 - 1000) })
      .where(eq(ltiLaunches.id, launchId));
    const over = await server.app.inject({ method: 'GET', url: `/lti/app/${launchId}` });
    expect(over.statusCode).toBe(400);
    expect(over.body).toContain('This launch has expired');
    // said inside the platform's frame, where the learner is
    expect(frameAncestorsOf(over.headers)).toBe(`${platform.base} https://school.example.edu`);
  });

  it("gives an instructor's launch the course's learners of that tenant only, with their tests", async () => {
    // a learner of another course of the same platform is not one of Course One's
    const elsewhere = await startLaunch();
    const other = await postLaunch({
      id_token: await platform.idToken(elsewhere.nonce, platform.clientId, launchUrl(), {
        sub: 'course-two-only',
        [CLAIM.context]: { id: 'course-2', title: 'Course Two' },
      }),
      state: elsewhere.state,
    });
    expect(other.statusCode, other.body).toBe(200);
    const [twoOnly] = await server.db
      .select({ userId: externalIdentities.userId })
      .from(externalIdentities)
      .where(eq(externalIdentities.subject, 'course-two-only'));
    const { state, nonce } = await startLaunch();
    const res = await postLaunch({
      id_token: await platform.idToken(nonce, platform.clientId, launchUrl(), {
        sub: 'teacher-view',
        [CLAIM.roles]: [ROLE.instructor],
      }),
      state,
    });
    expect(res.statusCode, res.body).toBe(200);
    const code = /"code":"([A-Za-z0-9_-]+)"/.exec(res.body)![1]!;
    const session = await server.post('/api/lti/session', { code });
    expect(session.status, session.text).toBe(200);
    expect(session.body.data).toMatchObject({ role: 'INSTRUCTOR', opens: { page: 'course' }, session: null });
    const headers = { 'x-lti-launch': session.body.data.launchToken as string };
    const view = await server.app.inject({ method: 'GET', url: '/api/lti/course', headers });
    expect(view.statusCode, view.body).toBe(200);
    const data = JSON.parse(view.body).data as {
      course: string;
      learners: { _id: string; email: string | null; tests: unknown[] }[];
    };
    expect(data.course).toBe('Course One');
    // the learners launched from Course One earlier in this file, and nobody of another tenant
    const subjects = await server.db
      .select({ userId: externalIdentities.userId, tenantId: externalIdentities.tenantId })
      .from(externalIdentities)
      .where(eq(externalIdentities.subject, 'learner-42'));
    expect(data.learners.map((l) => l._id)).toContain(subjects[0]!.userId);
    expect(data.learners.map((l) => l._id)).not.toContain(twoOnly!.userId);
    expect(subjects.every((s) => s.tenantId === tenant.user._id)).toBe(true);
    // placeholder addresses are not shown as e-mail
    expect(data.learners.every((l) => !l.email?.endsWith('@users.invalid'))).toBe(true);
    // a learner's launch token does not open it; nor does none
    const learner = await startLaunch();
    const learnerRes = await postLaunch({
      id_token: await platform.idToken(learner.nonce, platform.clientId, launchUrl(), { sub: 'learner-42' }),
      state: learner.state,
    });
    const learnerCode = /"code":"([A-Za-z0-9_-]+)"/.exec(learnerRes.body)![1]!;
    const learnerSession = await server.post('/api/lti/session', { code: learnerCode });
    const refused = await server.app.inject({
      method: 'GET',
      url: '/api/lti/course',
      headers: { 'x-lti-launch': learnerSession.body.data.launchToken as string },
    });
    expect(refused.statusCode).toBe(404);
    expect(JSON.parse(refused.body).errorCode).toBe('LTI_LAUNCH_INVALID');
    expect((await server.app.inject({ method: 'GET', url: '/api/lti/course' })).statusCode).toBe(400);
  });
});

describe('seats', () => {
  it('refuses a learner in words when the seats are exhausted, and tells the mentor once a day', async () => {
    const full = await server.signedIn('TENANT', { profile: true, name: 'Full Mentor' });
    platform.clientId = 'full-client';
    const made = await server.post(
      '/api/tenant/lti/registrations',
      { ...platform.manual('Full LMS') },
      full.auth,
    );
    expect(made.status, made.text).toBe(201);
    // every free seat kept by a pending invitation
    await server.db.insert(tenantInvitations).values(
      Array.from({ length: FREE_SEATS }, (_, i) => ({
        tenantId: full.user._id,
        email: `pending-${i}@example.com`,
        expiresAt: new Date(Date.now() + 86_400_000),
      })),
    );
    const tryLaunch = async (sub: string) => {
      const { state, nonce } = await startLaunch();
      return postLaunch({
        id_token: await platform.idToken(nonce, platform.clientId, launchUrl(), { sub }),
        state,
      });
    };
    const mails = async () =>
      (await server.db.select().from(outbox).where(eq(outbox.to, full.account.email))).filter(
        (m) => m.kind === 'lti-seats',
      );
    const res = await tryLaunch('seatless-1');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('No Waymark seat is free for you');
    expect(res.body).toContain('Your mentor has been told');
    expect(await mails()).toHaveLength(1);
    expect((await tryLaunch('seatless-2')).statusCode).toBe(403);
    expect(await mails()).toHaveLength(1);
    const seats = await server.db.select().from(tenantUsers).where(eq(tenantUsers.tenantId, full.user._id));
    expect(seats).toEqual([]);
    expect(await server.db.select().from(ltiLaunches).where(eq(ltiLaunches.subject, 'seatless-1'))).toEqual(
      [],
    );
    // the refused first launch made no account and linked no identity: nothing half-written
    expect(
      await server.db.select().from(externalIdentities).where(eq(externalIdentities.subject, 'seatless-1')),
    ).toEqual([]);
    const accounts = rowsOf<{ n: number }>(
      await server.db.execute(
        sql`select count(*)::int as n from users where invited_by_tenant_id = ${full.user._id}`,
      ),
    );
    expect(Number(accounts[0]!.n)).toBe(0);
    platform.clientId = 'waymark-client-1';
  });
});

describe('client credentials', () => {
  it("asks the platform's token endpoint with a client assertion jsonwebtoken accepts, and keeps the token", async () => {
    platform.toolJwksUrl = '';
    // the mock platform reads the tool key set over HTTP: serve it from a listening copy of the app
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    platform.toolJwksUrl = `${address}/lti/jwks`;
    const { platforms } = ltiServices({
      db: server.db,
      config: server.config,
      secrets: server.app.services.secrets,
    });
    const [reg] = await server.db
      .select()
      .from(ltiRegistrations)
      .where(eq(ltiRegistrations.id, registrationId));
    const scopes = ['https://purl.imsglobal.org/spec/lti-ags/scope/score'];
    const token = await platforms.accessToken(reg!, scopes);
    expect(token).toMatch(/^at-/);
    expect(platform.assertions).toHaveLength(1);
    const a = platform.assertions[0]!;
    expect(a).toMatchObject({
      iss: platform.clientId,
      sub: platform.clientId,
      aud: `${platform.base}/token`,
    });
    expect(typeof a.jti).toBe('string');
    expect(Number(a.exp) - Number(a.iat)).toBeLessThanOrEqual(300);
    // kept in the database (sealed): another instance asks nothing
    const again = await ltiServices({
      db: server.db,
      config: server.config,
      secrets: server.app.services.secrets,
    }).platforms.accessToken(reg!, scopes);
    expect(again).toBe(token);
    expect(platform.assertions).toHaveLength(1);
    const dump = rowsOf<{ t: string }>(
      await server.db.execute(sql`select token as t from lti_platform_tokens`),
    );
    expect(dump[0]!.t).not.toContain(token);
  });
});

describe('grades back (AGS)', () => {
  const tenantAssessmentId = '11111111-2222-4333-8444-555555555555';
  let learnerId: string;
  let n = 0;

  async function evaluated(percentage: number) {
    n++;
    await server.db.insert(events).values({
      tenantId: tenant.user._id,
      type: 'assessment.evaluated',
      version: 1,
      subjectUserId: learnerId,
      payload: {
        linkId: 'lti-graded-link-1',
        percentage,
        completedAt: new Date(Date.now() + n * 1000).toISOString(),
      },
    });
  }
  const deliveries = () => server.db.select().from(ltiScoreDeliveries);
  const platforms = () =>
    ltiServices({ db: server.db, config: server.config, secrets: server.app.services.secrets }).platforms;

  beforeAll(async () => {
    const [identity] = await server.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.subject, 'learner-42'));
    learnerId = identity!.userId;
    await server.db
      .insert(testLinks)
      .values({ linkId: 'lti-graded-link-1', type: 'CUSTOM-TEST', userId: learnerId, tenantAssessmentId });
    await recordGradeTarget(server.db, {
      registrationId,
      tenantId: tenant.user._id,
      userId: learnerId,
      subject: 'learner-42',
      resourceLinkId: 'resource-link-1',
      lineItemUrl: `${platform.base}/lineitems/li-1`,
      kind: 'TEST',
      testKey: null,
      tenantAssessmentId,
    });
  });

  it('posts an evaluated attempt once, even with two processes sending at the same moment', async () => {
    await evaluated(85);
    expect(await deliveries()).toHaveLength(1);
    const [only] = await deliveries();
    const deps = { db: server.db, platforms: platforms(), publicUrl: server.config.publicUrl };
    const outcomes = await Promise.all([postScore(deps, only!.id), postScore(deps, only!.id)]);
    expect(
      outcomes.filter((o) => o === 'delivered'),
      JSON.stringify(outcomes),
    ).toHaveLength(1);
    // the other found it held by the first, or settled already
    expect(outcomes.filter((o) => o === 'held' || o === 'done')).toHaveLength(1);
    expect(platform.scores).toHaveLength(1);
    expect(platform.scores[0]).toMatchObject({
      lineItem: 'li-1',
      body: {
        userId: 'learner-42',
        scoreGiven: 85,
        scoreMaximum: 100,
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
      },
    });
    expect(Number.isNaN(Date.parse(String(platform.scores[0]!.body.timestamp)))).toBe(false);
    expect((await deliveries())[0]).toMatchObject({ status: 'DELIVERED', attempts: 1, lastStatus: 204 });
    // nothing more to send
    expect((await postDueScores()).delivered).toBe(0);
  });

  it('retries a failing platform with backoff until each post is delivered exactly once', async () => {
    platform.scores = [];
    platform.stale = [];
    platform.failEvery = 2;
    for (let i = 0; i < 6; i++) await evaluated(50 + i);
    let clock = Date.now();
    for (let round = 0; round < 10; round++) {
      await postDueScores(new Date(clock));
      clock += 3_600_000;
    }
    platform.failEvery = 0;
    const all = await deliveries();
    expect(all.every((d) => d.status === 'DELIVERED')).toBe(true);
    expect(all.some((d) => d.attempts > 1)).toBe(true);
    // each reached the platform once; one retried after a later attempt was recorded is not recorded over it
    const received = [...platform.scores, ...platform.stale];
    expect(received).toHaveLength(6);
    expect(new Set(received.map((s) => s.body.timestamp)).size).toBe(6);
    expect(platform.scores.at(-1)!.body.scoreGiven).toBe(55);
  });

  it('gives up after its attempts, shows the mentor why, and sends again when the mentor asks', async () => {
    platform.scores = [];
    platform.failEvery = 1;
    await evaluated(77);
    let clock = Date.now();
    for (let round = 0; round < MAX_ATTEMPTS + 2; round++) {
      await postDueScores(new Date(clock));
      clock += 3_600_000;
    }
    const failed = await server.get('/api/tenant/lti/deliveries?status=FAILED', tenant.auth);
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body.data).toHaveLength(1);
    expect(failed.body.data[0]).toMatchObject({
      status: 'GAVE_UP',
      attempts: MAX_ATTEMPTS,
      lastStatus: 503,
      scoreGiven: 77,
      // the platform's own answer: no code of Waymark's (those the portal says in the reader's language)
      lastErrorCode: null,
    });
    expect(failed.body.data[0].lastError).toContain('try later');
    const id = failed.body.data[0]._id as string;
    expect((await server.post(`/api/tenant/lti/deliveries/${id}/retry`, undefined, other.auth)).status).toBe(
      404,
    );
    platform.failEvery = 0;
    const retried = await server.post(`/api/tenant/lti/deliveries/${id}/retry`, undefined, tenant.auth);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.data.status).toBe('PENDING');
    expect((await postDueScores()).delivered).toBe(1);
    expect(platform.scores).toHaveLength(1);
    const again = await server.post(`/api/tenant/lti/deliveries/${id}/retry`, undefined, tenant.auth);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This score was delivered already: it is not sent twice.');
    // in the language the page asks in (issue 31)
    const spanish = await server.post(`/api/tenant/lti/deliveries/${id}/retry`, undefined, {
      ...tenant.auth,
      headers: { 'accept-language': 'es' },
    });
    expect(spanish.body.message).toBe('Esta calificación ya se entregó: no se envía dos veces.');
    // the mentor's retry in the activity log, said again in the reader's language (issue 31)
    await expectLogSaid(server.db, tenant.user._id, ['lti.score_retried']);
  });

  it('sends the best attempt when the registration says BEST', async () => {
    platform.scores = [];
    await server.request(
      'PATCH',
      `/api/tenant/lti/registrations/${registrationId}`,
      { attemptPolicy: 'BEST' },
      tenant.auth,
    );
    await evaluated(40);
    const sent = await postDueScores();
    expect(sent.delivered, JSON.stringify([sent, await deliveries()])).toBe(1);
    expect(platform.scores.at(-1)!.body.scoreGiven).toBe(85);
    await expectLogSaid(server.db, tenant.user._id, ['lti.updated']);
  });
});

describe('the whole way: a launched learner takes the linked assessment and the score reaches the gradebook', () => {
  it('opens the test the link names, and posts its evaluation to the line item', async () => {
    const bank = await seedBank(server.db);
    const [assessment] = await server.db
      .insert(tenantAssessments)
      .values({ tenantId: tenant.user._id, name: 'Week 2 check' })
      .returning({ id: tenantAssessments.id });
    const picked = [...bank.questions.values()].filter((q) => q.options.length > 0).slice(0, 10);
    expect(picked).toHaveLength(10);
    await server.db
      .insert(tenantAssessmentQuestions)
      .values(picked.map((q, position) => ({ assessmentId: assessment!.id, questionId: q.id, position })));
    await server.request(
      'PATCH',
      `/api/tenant/lti/registrations/${registrationId}`,
      { attemptPolicy: 'LATEST' },
      tenant.auth,
    );
    platform.scores = [];
    const { state, nonce } = await startLaunch();
    const res = await postLaunch({
      id_token: await platform.idToken(nonce, platform.clientId, launchUrl(), {
        sub: 'whole-way-1',
        [CLAIM.resourceLink]: { id: 'resource-link-week-2' },
        'https://purl.imsglobal.org/spec/lti/claim/custom': {
          waymark_target: `assessment:${assessment!.id}`,
        },
        'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
          scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
          lineitems: `${platform.base}/lineitems`,
          lineitem: `${platform.base}/lineitems/week-2`,
        },
      }),
      state,
    });
    expect(res.statusCode, res.body).toBe(200);
    const code = /"code":"([A-Za-z0-9_-]+)"/.exec(res.body)![1]!;
    const session = await server.post('/api/lti/session', { code });
    expect(session.status, session.text).toBe(200);
    expect(session.body.data.opens.page).toBe('test');
    const linkId = session.body.data.opens.linkId as string;
    const learner = { headers: { authorization: `Bearer ${session.body.data.session.token}` } };
    const result = await calls(server.app).take(linkId, bank, 'right', learner as never);
    expect(result.percentage).toBe(100);
    const sent = await postDueScores();
    expect(sent.delivered).toBe(1);
    expect(platform.scores).toEqual([
      expect.objectContaining({
        lineItem: 'week-2',
        body: expect.objectContaining({
          userId: 'whole-way-1',
          scoreGiven: 100,
          scoreMaximum: 100,
          gradingProgress: 'FullyGraded',
        }),
      }),
    ]);
  });
});

describe('rosters (NRPS)', () => {
  it("syncs a course's learners into seats across pages: dry run first, then once", async () => {
    const { state, nonce } = await startLaunch();
    const launched = await postLaunch({
      id_token: await platform.idToken(nonce, platform.clientId, launchUrl(), {
        sub: 'teacher-nrps',
        [CLAIM.roles]: [ROLE.instructor],
        'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': {
          context_memberships_url: `${platform.base}/memberships`,
          service_versions: ['2.0'],
        },
      }),
      state,
    });
    expect(launched.statusCode, launched.body).toBe(200);
    platform.members = [
      { user_id: 'learner-42', status: 'Active', roles: [ROLE.learner], name: 'Lina Learner' },
      {
        user_id: 'roster-1',
        status: 'Active',
        roles: [ROLE.learner],
        name: 'Rita Roster',
        email: 'rita@example.edu',
      },
      { user_id: 'teacher-x', status: 'Active', roles: [ROLE.instructor], name: 'Tom Teacher' },
      { user_id: 'gone-1', status: 'Inactive', roles: [ROLE.learner] },
      { user_id: 'roster-2', status: 'Active', roles: [ROLE.learner], name: 'Ravi Roster' },
    ];
    const contexts = await server.get(
      `/api/tenant/lti/registrations/${registrationId}/contexts`,
      tenant.auth,
    );
    expect(contexts.status, contexts.text).toBe(200);
    const course = (contexts.body.data as { _id: string; contextId: string; canSyncMembers: boolean }[]).find(
      (c) => c.contextId === 'course-1',
    )!;
    expect(course.canSyncMembers).toBe(true);
    expect(
      (await server.get(`/api/tenant/lti/registrations/${registrationId}/contexts`, other.auth)).status,
    ).toBe(404);

    const dry = await server.post(
      `/api/tenant/lti/contexts/${course._id}/sync`,
      { dryRun: true },
      tenant.auth,
    );
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.data).toMatchObject({
      dryRun: true,
      counts: { added: 2, present: 1, notAdded: 0 },
      skipped: 2,
    });
    // why, by code beside the English, for the portal to say in the reader's language
    const wouldAdd = (
      dry.body.data.members as { outcome: string; reason: string; reasonCode: string }[]
    ).filter((m) => m.outcome === 'ADDED');
    expect(wouldAdd.map((m) => [m.reasonCode, m.reason])).toEqual([
      ['WOULD_ADD', 'Would be given a seat, if one is free.'],
      ['WOULD_ADD', 'Would be given a seat, if one is free.'],
    ]);
    expect(
      await server.db.select().from(externalIdentities).where(eq(externalIdentities.subject, 'roster-1')),
    ).toEqual([]);

    const real = await server.post(`/api/tenant/lti/contexts/${course._id}/sync`, {}, tenant.auth);
    expect(real.status, real.text).toBe(200);
    expect(real.body.data.counts).toEqual({ added: 2, present: 1, notAdded: 0 });
    const [rita] = await server.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.subject, 'roster-1'));
    const seat = await server.db
      .select()
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, tenant.user._id), eq(tenantUsers.learnerId, rita!.userId)));
    expect(seat).toHaveLength(1);

    const again = await server.post(`/api/tenant/lti/contexts/${course._id}/sync`, {}, tenant.auth);
    expect(again.body.data.counts).toEqual({ added: 0, present: 3, notAdded: 0 });
  });
});

describe('deep linking', () => {
  it("answers the instructor's pick with a signed LtiDeepLinkingResponse jsonwebtoken accepts, once", async () => {
    const { state, nonce } = await startLaunch();
    const launched = await postLaunch({
      id_token: await platform.idToken(nonce, platform.clientId, launchUrl(), {
        sub: 'teacher-dl',
        [CLAIM.messageType]: 'LtiDeepLinkingRequest',
        [CLAIM.resourceLink]: undefined,
        [CLAIM.roles]: [ROLE.instructor],
        'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
          deep_link_return_url: `${platform.base}/deep-link-return`,
          accept_types: ['ltiResourceLink'],
          accept_presentation_document_targets: ['iframe', 'window'],
          accept_multiple: true,
          data: 'opaque-platform-data',
        },
      }),
      state,
    });
    expect(launched.statusCode, launched.body).toBe(200);
    const code = /"code":"([A-Za-z0-9_-]+)"/.exec(launched.body)![1]!;
    const session = await server.post('/api/lti/session', { code });
    expect(session.body.data).toMatchObject({
      role: 'INSTRUCTOR',
      opens: { page: 'deep-linking' },
      session: null,
    });
    const headers = { 'x-lti-launch': session.body.data.launchToken as string };
    const options = await server.get('/api/lti/deep-linking/options', { headers });
    expect(options.status, options.text).toBe(200);
    const week2 = (options.body.data.items as { target: string; title: string }[]).find(
      (i) => i.title === 'Week 2 check',
    )!;
    expect(week2.target).toMatch(/^assessment:/);
    const picked = await server.post('/api/lti/deep-linking/response', { items: [week2] }, { headers });
    expect(picked.status, picked.text).toBe(200);
    expect(picked.body.data.returnUrl).toBe(`${platform.base}/deep-link-return`);
    const jwt = picked.body.data.jwt as string;
    const kid = jsonwebtoken.decode(jwt, { complete: true })!.header.kid;
    const set = JSON.parse((await server.get('/lti/jwks')).text) as { keys: { kid: string }[] };
    const jwk = set.keys.find((k) => k.kid === kid)!;
    const claims = jsonwebtoken.verify(jwt, createPublicKey({ key: jwk as never, format: 'jwk' }), {
      algorithms: ['RS256'],
      audience: platform.issuer,
      issuer: platform.clientId,
    }) as unknown as Record<string, unknown>;
    expect(claims).toMatchObject({
      [CLAIM.messageType]: 'LtiDeepLinkingResponse',
      [CLAIM.version]: '1.3.0',
      [CLAIM.deploymentId]: platform.deploymentId,
      'https://purl.imsglobal.org/spec/lti-dl/claim/data': 'opaque-platform-data',
      'https://purl.imsglobal.org/spec/lti-dl/claim/content_items': [
        {
          type: 'ltiResourceLink',
          title: 'Week 2 check',
          url: launchUrl(),
          custom: { waymark_target: week2.target },
          lineItem: { label: 'Week 2 check', scoreMaximum: 100, resourceId: week2.target, tag: 'waymark' },
        },
      ],
    });
    expect(typeof claims.nonce).toBe('string');
    expect(Number(claims.exp) - Number(claims.iat)).toBeLessThanOrEqual(300);
    // answered once; something the picker does not offer is refused
    expect(
      (await server.post('/api/lti/deep-linking/response', { items: [week2] }, { headers })).status,
    ).toBe(404);
  });
});
