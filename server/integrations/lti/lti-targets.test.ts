/**
 * Deep Linking's targets (decision 046) through the mock platform over real HTTP: the picker offers what
 * the mentor may assign — the catalogue's roadmaps with their final, section and resource tests, subject
 * tests, and the tenant's own assessments, never another tenant's — the LtiDeepLinkingResponse (checked with
 * jsonwebtoken, not the jose that signed it) carries a line item per pick, and a learner's launch of each
 * link opens exactly that roadmap or test, made by the portal's own services.
 */
import { createPublicKey } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testLinks } from '../../assessments/tables';
import { tenantAssessments } from '../../authoring/tables';
import { assignedRoadmaps } from '../../catalogue/tables';
import { type Bank, calls, seedBank } from '../../test/fixtures/assessments';
import { type SignedIn, setupServer } from '../../test/helper';
import { ltiDriver } from '../../test/lti-launch';
import { CLAIM, jsonwebtoken, MockPlatform } from '../../test/lti-platform';
import { events } from '../core/tables';
import { ltiServices } from './routes';
import { postScore } from './scores';
import { ltiGradeTargets, ltiScoreDeliveries } from './tables';

const server = setupServer({ env: { LTI_DEV_LOOPBACK: 'true' } });
const platform = new MockPlatform();
const lti = ltiDriver(server, platform);

let tenant: SignedIn;
let bank: Bank;
let ownId: string;
let otherTenantsId: string;

beforeAll(async () => {
  await platform.start();
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Targets Mentor' });
  const other = await server.signedIn('TENANT', { profile: true, name: 'Someone Else' });
  const made = await server.post('/api/tenant/lti/registrations', platform.manual(), tenant.auth);
  expect(made.status, made.text).toBe(201);
  bank = await seedBank(server.db);
  const [own] = await server.db
    .insert(tenantAssessments)
    .values({ tenantId: tenant.user._id, name: 'Our own check' })
    .returning({ id: tenantAssessments.id });
  const [theirs] = await server.db
    .insert(tenantAssessments)
    .values({ tenantId: other.user._id, name: 'Not yours' })
    .returning({ id: tenantAssessments.id });
  ownId = own!.id;
  // the platform checks client assertions against the tool key set, over HTTP
  platform.toolJwksUrl = `${await server.app.listen({ port: 0, host: '127.0.0.1' })}/lti/jwks`;
  otherTenantsId = theirs!.id;
}, 60_000);
afterAll(() => platform.close());

async function verified(jwt: string) {
  const kid = jsonwebtoken.decode(jwt, { complete: true })!.header.kid;
  const set = JSON.parse((await server.get('/lti/jwks')).text) as { keys: { kid: string }[] };
  const jwk = set.keys.find((k) => k.kid === kid)!;
  return jsonwebtoken.verify(jwt, createPublicKey({ key: jwk as never, format: 'jwk' }), {
    algorithms: ['RS256'],
    audience: platform.issuer,
    issuer: platform.clientId,
  }) as unknown as Record<string, unknown>;
}

describe('the picker', () => {
  it('offers roadmaps with their tests, subject tests and the tenant’s own assessments, nothing else', async () => {
    const auth = await lti.picker();
    const res = await server.get('/api/lti/deep-linking/options', auth);
    expect(res.status, res.text).toBe(200);
    const items = res.body.data.items as { target: string; kind: string; group: string | null }[];
    const targets = items.map((i) => i.target);
    const [s0, s1] = bank.sectionIds;
    expect(targets).toEqual(
      expect.arrayContaining([
        `assessment:${ownId}`,
        `roadmap:${bank.roadmapId}`,
        `test:final:${bank.roadmapId}`,
        `test:section:${bank.roadmapId}:${s0}`,
        `test:section:${bank.roadmapId}:${s1}`,
        `test:resource:${bank.roadmapId}:${s0}:${bank.resourceIds[0]}`,
        `subject:${bank.subjectId}`,
      ]),
    );
    expect(targets).not.toContain(`assessment:${otherTenantsId}`);
    // a subject with no published questions cannot be taken: not offered
    expect(targets).not.toContain(`subject:${bank.emptySubjectId}`);
    expect(items.find((i) => i.target === `roadmap:${bank.roadmapId}`)?.kind).toBe('ROADMAP');

    // several picks, one signed answer with a line item each
    const picks = [
      { target: `roadmap:${bank.roadmapId}`, title: 'The roadmap' },
      { target: `test:section:${bank.roadmapId}:${s0}`, title: 'Section one' },
      { target: `subject:${bank.subjectId}`, title: 'Subject test' },
    ];
    const refused = await server.post(
      '/api/lti/deep-linking/response',
      { items: [{ target: `assessment:${otherTenantsId}`, title: 'Not yours' }] },
      auth,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('items');
    const answered = await server.post('/api/lti/deep-linking/response', { items: picks }, auth);
    expect(answered.status, answered.text).toBe(200);
    const claims = await verified(answered.body.data.jwt);
    expect(claims[CLAIM.messageType]).toBe('LtiDeepLinkingResponse');
    expect(claims['https://purl.imsglobal.org/spec/lti-dl/claim/content_items']).toEqual(
      picks.map((p) => ({
        type: 'ltiResourceLink',
        title: p.title,
        url: lti.launchUrl(),
        custom: { waymark_target: p.target },
        lineItem: { label: p.title, scoreMaximum: 100, resourceId: p.target, tag: 'waymark' },
      })),
    );
  });
});

describe("a learner's launch opens exactly what the link names", () => {
  it('a section test of the roadmap: assigned to the learner, the link graded into its column', async () => {
    const [s0] = bank.sectionIds;
    const s = await lti.learner('dl-learner-1', 'rl-section', `test:section:${bank.roadmapId}:${s0}`, 'sec');
    expect(s.opens.page).toBe('test');
    const [link] = await server.db.select().from(testLinks).where(eq(testLinks.linkId, s.opens.linkId!));
    expect(link).toMatchObject({ type: 'SECTION', roadmapId: bank.roadmapId, sectionId: s0 });
    const [copy] = await server.db
      .select()
      .from(assignedRoadmaps)
      .where(and(eq(assignedRoadmaps.userId, link!.userId!), eq(assignedRoadmaps.roadmapId, bank.roadmapId)));
    expect(copy?.id).toBe(link!.assignedRoadmapId);
    expect(copy).toMatchObject({ source: 'TENANT', assignedBy: tenant.user._id });
    const [grade] = await server.db
      .select()
      .from(ltiGradeTargets)
      .where(eq(ltiGradeTargets.resourceLinkId, 'rl-section'));
    expect(grade).toMatchObject({
      kind: 'TEST',
      testKey: link!.testKey,
      lineItemUrl: `${platform.base}/lineitems/sec`,
    });

    // the same link again: the same open attempt, the same roadmap copy
    const again = await lti.learner(
      'dl-learner-1',
      'rl-section',
      `test:section:${bank.roadmapId}:${s0}`,
      'sec',
    );
    expect(again.opens.linkId).toBe(s.opens.linkId);

    // the roadmap's link opens the learner's copy of it; its grade is the roadmap's progress
    const road = await lti.learner('dl-learner-1', 'rl-roadmap', `roadmap:${bank.roadmapId}`, 'road');
    expect(road.opens).toEqual({ page: 'roadmap', assignedRoadmapId: copy!.id });
    const [roadGrade] = await server.db
      .select()
      .from(ltiGradeTargets)
      .where(eq(ltiGradeTargets.resourceLinkId, 'rl-roadmap'));
    expect(roadGrade).toMatchObject({ kind: 'ROADMAP', assignedRoadmapId: copy!.id });

    // the learner takes the section test from the LMS session
    const learner = { headers: { authorization: `Bearer ${s.session!.token}` } };
    const result = await calls(server.app).take(s.opens.linkId!, bank, 'right', learner as never);
    expect(result.percentage).toBe(100);

    // its score goes to the section test's column, with the award's page; the roadmap's column gets its
    // progress (one of two sections and the final: a third), still in progress
    const posts = await server.db
      .select({ id: ltiScoreDeliveries.id })
      .from(ltiScoreDeliveries)
      .innerJoin(ltiGradeTargets, eq(ltiGradeTargets.id, ltiScoreDeliveries.targetId))
      .where(eq(ltiGradeTargets.userId, link!.userId!));
    expect(posts).toHaveLength(2);
    const deps = {
      db: server.db,
      platforms: ltiServices({ db: server.db, config: server.config, secrets: server.app.services.secrets })
        .platforms,
      publicUrl: server.config.publicUrl,
    };
    for (const p of posts) expect(await postScore(deps, p.id)).toBe('delivered');
    const [award] = await server.db
      .select({ payload: events.payload })
      .from(events)
      .where(and(eq(events.type, 'award.issued'), sql`${events.payload}->>'awardId' = ${link!.linkId}`));
    const kind = (award!.payload as { kind: string }).kind;
    const byColumn = Object.fromEntries(platform.scores.map((x) => [x.lineItem, x.body]));
    expect(byColumn.sec).toMatchObject({
      userId: 'dl-learner-1',
      scoreGiven: 100,
      scoreMaximum: 100,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
      comment: `Award: ${server.config.publicUrl.replace(/\/+$/, '')}/${kind}/${link!.linkId}`,
    });
    expect(byColumn.road).toMatchObject({
      userId: 'dl-learner-1',
      scoreGiven: 33,
      scoreMaximum: 100,
      activityProgress: 'InProgress',
      gradingProgress: 'Pending',
    });
  });

  it('the final test, a resource test and a subject test', async () => {
    const [s0] = bank.sectionIds;
    const final = await lti.learner('dl-learner-2', 'rl-final', `test:final:${bank.roadmapId}`);
    const resource = await lti.learner(
      'dl-learner-2',
      'rl-resource',
      `test:resource:${bank.roadmapId}:${s0}:${bank.resourceIds[0]}`,
    );
    const subject = await lti.learner('dl-learner-2', 'rl-subject', `subject:${bank.subjectId}`);
    const types = await Promise.all(
      [final, resource, subject].map(async (s) => {
        const [l] = await server.db.select().from(testLinks).where(eq(testLinks.linkId, s.opens.linkId!));
        return [l!.type, l!.resourceId, l!.subjectId];
      }),
    );
    expect(types).toEqual([
      ['ROADMAP', null, bank.subjectId],
      ['RESOURCE', bank.resourceIds[0], bank.subjectId],
      ['SUBJECT', null, bank.subjectId],
    ]);

    // the roadmap's link, then its final passed: the roadmap's column gets it complete, once
    const road = await lti.learner('dl-learner-2', 'rl-roadmap-2', `roadmap:${bank.roadmapId}`, 'road2');
    expect(road.opens.page).toBe('roadmap');
    const learner = { headers: { authorization: `Bearer ${final.session!.token}` } };
    await calls(server.app).take(final.opens.linkId!, bank, 'right', learner as never);
    const posts = await server.db
      .select({ id: ltiScoreDeliveries.id, type: events.type })
      .from(ltiScoreDeliveries)
      .innerJoin(ltiGradeTargets, eq(ltiGradeTargets.id, ltiScoreDeliveries.targetId))
      .innerJoin(events, eq(events.id, ltiScoreDeliveries.eventId))
      .where(eq(ltiGradeTargets.resourceLinkId, 'rl-roadmap-2'));
    expect(posts.map((p) => p.type)).toEqual(['roadmap.completed']);
    const deps = {
      db: server.db,
      platforms: ltiServices({ db: server.db, config: server.config, secrets: server.app.services.secrets })
        .platforms,
      publicUrl: server.config.publicUrl,
    };
    expect(await postScore(deps, posts[0]!.id)).toBe('delivered');
    expect(platform.scores.filter((x) => x.lineItem === 'road2').map((x) => x.body)).toEqual([
      expect.objectContaining({
        userId: 'dl-learner-2',
        scoreGiven: 100,
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
        comment: expect.stringMatching(new RegExp(`/certificate/${final.opens.linkId}$`)),
      }),
    ]);
  });

  it('refuses, in words, a target the tenant may not assign or that is gone', async () => {
    for (const target of [
      `assessment:${otherTenantsId}`,
      `roadmap:00000000-0000-4000-8000-000000000000`,
      `test:section:${bank.roadmapId}:00000000-0000-4000-8000-000000000000`,
      'test:final:not-an-id',
    ]) {
      const page = await lti.launch({
        sub: 'dl-learner-3',
        [CLAIM.resourceLink]: { id: `rl-${target}` },
        'https://purl.imsglobal.org/spec/lti/claim/custom': { waymark_target: target },
      });
      expect(page.statusCode, target).toBe(400);
      expect(page.body).toContain('Waymark cannot open this for you');
    }
  });
});
