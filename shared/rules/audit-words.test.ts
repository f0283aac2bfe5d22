/**
 * The activity log says an entry again from its action and details (issue 31): in English, the words are
 * the server's own line — each sample below is an entry as the server writes it (server/tenant/*.ts,
 * server/integrations/**, server/billing/seat-cycle.ts, server/authoring, server/credentials), its English
 * and its details. Every action the server records has a sample, so an action without words fails here.
 */
import { english, loaders } from 'virtual:wm-messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTranslator, type Translator } from '../i18n/translator';
import { AUDIT_ACTION_GROUPS, AUDIT_ACTIONS } from '../schemas/integrations';
import { asStored, auditSaid, auditWords } from './audit-words';

const T = '2027-03-03T10:00:00.000Z';
const T2 = '2027-03-05T10:00:00.000Z';
const HOOK = 'https://hooks.example/';
const OKTA = { protocol: 'oidc', displayName: 'Okta', issuer: 'https://okta.example', clientId: 'c' };
const GONE = 'The endpoint answered 410 Gone: it no longer wants events.';
const SAMPLES: [action: string, summary: string, details: Record<string, unknown>][] = [
  ['seat.added', 'a@example.com added as a learner', { email: 'a@example.com', seatId: 's', via: 'ADDED' }],
  [
    'seat.added',
    'a@example.com accepted the invitation and took a seat',
    { email: 'a@example.com', via: 'INVITATION' },
  ],
  ['seat.removed', 'a@example.com removed', { email: 'a@example.com', seatId: 's', accessUntil: null }],
  ['seat.removed', `a@example.com removed (readable until ${T})`, { email: 'a@example.com', accessUntil: T }],
  [
    'seat.invited',
    `a@example.com invited (a seat kept until ${T})`,
    { email: 'a@example.com', expiresAt: T },
  ],
  ['seat.invitation_canceled', 'The invitation of a@example.com canceled', { email: 'a@example.com' }],
  [
    'seat.ended',
    "a@example.com's seat ended with the billing cycle",
    { seatId: 's', email: 'a@example.com' },
  ],
  ['seat.ended', "A learner's seat ended with the billing cycle", { seatId: 's', email: null }],
  ['cohort.created', 'Cohort “Night class” created', { name: 'Night class', externalId: null }],
  ['cohort.renamed', 'Cohort “Night” renamed “Night class”', { from: 'Night', to: 'Night class' }],
  [
    'cohort.deleted',
    'Cohort “Night class” deleted (its members keep their seats and roadmaps)',
    { name: 'Night class' },
  ],
  [
    'cohort.member_added',
    'a@example.com joined cohort “Night class”',
    { cohortId: 'c', cohort: 'Night class', email: 'a@example.com' },
  ],
  [
    'cohort.member_removed',
    'a@example.com left cohort “Night class” (roadmaps assigned stay)',
    { cohortId: 'c', cohort: 'Night class', email: 'a@example.com' },
  ],
  [
    'cohort.member_removed',
    'A learner left cohort “Night class” (roadmaps assigned stay)',
    { cohortId: 'c', cohort: 'Night class', email: null },
  ],
  [
    'xapi.disconnected',
    'Learning record store https://lrs.example/ disconnected',
    { endpoint: 'https://lrs.example/' },
  ],
  [
    'xapi.resent',
    '2 failed statement entries sent again to https://lrs.example/',
    { endpoint: 'https://lrs.example/', count: 2 },
  ],
  [
    'webhook.created',
    'Webhook endpoint https://hooks.example/ added for seat.added, award.revoked',
    { url: 'https://hooks.example/', events: ['seat.added', 'award.revoked'], ordered: false },
  ],
  [
    'webhook.removed',
    'Webhook endpoint https://hooks.example/ removed',
    { url: 'https://hooks.example/', events: [] },
  ],
  [
    'webhook.secret_rotated',
    `Signing secret of webhook endpoint https://hooks.example/ rotated; the previous one signs too until ${T}`,
    { url: 'https://hooks.example/', previousValidUntil: T },
  ],
  [
    'apikey.revoked',
    'API key “HR sync” (wm_k4t9x2m7q1bz_…) revoked',
    { name: 'HR sync', prefix: 'k4t9x2m7q1bz' },
  ],
  [
    'apikey.created',
    'API key “HR sync” (wm_k4t9x2m7q1bz_…) created with seats:write, integrations:manage',
    {
      name: 'HR sync',
      prefix: 'k4t9x2m7q1bz',
      scopes: ['seats:write', 'integrations:manage'],
      expiresAt: null,
    },
  ],
  [
    'cohort.roadmap_assigned',
    'Python assigned to cohort “Night class” (3 assigned now, 1 already have two roadmaps)',
    {
      roadmapId: 'r',
      roadmap: 'Python',
      cohort: 'Night class',
      assigned: 3,
      alreadyAssigned: 0,
      roadmapLimit: 1,
    },
  ],
  [
    'roadmap.assigned',
    'Python assigned to a@example.com',
    { roadmapId: 'r', roadmap: 'Python', email: 'a@example.com' },
  ],
  ['sso.domain_added', 'Domain example.org claimed (not verified yet)', { domain: 'example.org' }],
  ['sso.domain_removed', 'Domain example.org removed', { domain: 'example.org' }],
  [
    'sso.domain_verified',
    'Domain example.org verified (DNS TXT record)',
    { domain: 'example.org', by: 'DNS' },
  ],
  [
    'sso.domain_verified',
    'Domain example.org verified (code mailed to admin@example.org)',
    { domain: 'example.org', by: 'EMAIL', mailedTo: 'admin@example.org' },
  ],
  ['assessment.created', 'Assessment “Quiz” created', { name: 'Quiz' }],
  [
    'assessment.question_added',
    'A question added to the assessment “Quiz”',
    { name: 'Quiz', questionId: 'q' },
  ],
  [
    'assessment.question_removed',
    'A question removed from the assessment “Quiz”',
    { name: 'Quiz', questionId: 'q' },
  ],
  [
    'assessment.shared',
    'Assessment “Quiz” shared with 2 learners',
    { name: 'Quiz', learners: 2, emails: ['a@example.com', 'b@example.com'], startTime: T },
  ],
  [
    'award.revoked',
    "a@example.com's certificate aw1 revoked: Issued by mistake",
    {
      awardId: 'aw1',
      learnerId: 'l',
      email: 'a@example.com',
      kind: 'certificate',
      reason: 'Issued by mistake',
      revokedAs: 'MENTOR',
    },
  ],
  [
    'award.revoked',
    "a@example.com's award aw1 revoked: Copied",
    { awardId: 'aw1', email: 'a@example.com', kind: null, reason: 'Copied', revokedAs: 'ADMIN' },
  ],
  [
    'lti.registered',
    'Registered the LMS platform Moodle (https://moodle.example)',
    {
      label: 'Moodle',
      issuer: 'https://moodle.example',
      via: 'MANUAL',
      clientId: 'c',
      deploymentIds: ['1'],
    },
  ],
  ['lti.updated', 'Changed the LMS platform Moodle', { label: 'Moodle', changes: { emailsVerified: true } }],
  ['lti.paused', 'Paused the LMS platform Moodle', { label: 'Moodle', changes: { status: 'PAUSED' } }],
  ['lti.resumed', 'Resumed the LMS platform Moodle', { label: 'Moodle', changes: { status: 'ACTIVE' } }],
  [
    'lti.removed',
    'Removed the LMS platform Moodle (https://moodle.example)',
    { label: 'Moodle', issuer: 'https://moodle.example' },
  ],
  [
    'lti.score_retried',
    'The score of a@example.com sent again to the LMS platform Moodle',
    { email: 'a@example.com', label: 'Moodle', lineItemUrl: 'https://moodle.example/lineitems/1' },
  ],
  [
    'scim.token_created',
    'SCIM token “Okta” (wmscim_k4t9x2m7q1bz_…) created',
    { name: 'Okta', prefix: 'k4t9x2m7q1bz', replaces: null },
  ],
  [
    'scim.token_rotated',
    'SCIM token “Okta” (wmscim_a1b2c3d4e5f6_…) replaced wmscim_k4t9x2m7q1bz_…',
    { name: 'Okta', prefix: 'a1b2c3d4e5f6', replaces: 'k4t9x2m7q1bz' },
  ],
  [
    'scim.token_revoked',
    'SCIM token “Okta” (wmscim_k4t9x2m7q1bz_…) revoked',
    { name: 'Okta', prefix: 'k4t9x2m7q1bz' },
  ],
  [
    'xapi.connected',
    'Learning record store https://lrs.example/ connected: studied, assessments sent, learners as account',
    {
      endpoint: 'https://lrs.example/',
      username: 'u',
      actorFormat: 'account',
      statements: ['studied', 'assessments'],
      enabled: true,
      secretReplaced: false,
    },
  ],
  [
    'xapi.connected',
    'Learning record store https://lrs.example/ connected: nothing sent, learners as mbox (paused)',
    {
      endpoint: 'https://lrs.example/',
      username: 'u',
      actorFormat: 'mbox',
      statements: [],
      enabled: false,
      secretReplaced: false,
    },
  ],
  [
    'xapi.updated',
    'Learning record store https://lrs.example/ changed: roadmaps sent, learners as account; secret replaced',
    {
      endpoint: 'https://lrs.example/',
      username: 'u',
      actorFormat: 'account',
      statements: ['roadmaps'],
      enabled: true,
      secretReplaced: true,
    },
  ],
  [
    'webhook.updated',
    'Webhook endpoint https://new.example/ changed: address https://old.example/ → https://new.example/; description; events seat.added, seat.removed; in order',
    {
      url: 'https://new.example/',
      previousUrl: 'https://old.example/',
      events: ['seat.added', 'seat.removed'],
      ordered: true,
      status: 'ACTIVE',
      changed: ['url', 'description', 'events', 'ordered'],
    },
  ],
  [
    'webhook.disabled',
    `Webhook endpoint ${HOOK} disabled`,
    { url: HOOK, events: [], ordered: false, status: 'DISABLED', changed: [] },
  ],
  [
    'webhook.enabled',
    `Webhook endpoint ${HOOK} enabled: in any order`,
    { url: HOOK, events: [], ordered: false, status: 'ACTIVE', changed: ['ordered'] },
  ],
  [
    'webhook.disabled',
    `Webhook endpoint ${HOOK} disabled by Waymark: ${GONE}`,
    { url: HOOK, reason: GONE, reasonCode: 'gone' },
  ],
  [
    'webhook.disabled',
    `Webhook endpoint ${HOOK} disabled by Waymark: No delivery has succeeded since ${T}: the endpoint failed for 3 days.`,
    {
      url: HOOK,
      reason: `No delivery has succeeded since ${T}: the endpoint failed for 3 days.`,
      reasonCode: 'failing',
      failingSince: T,
      days: 3,
    },
  ],
  [
    'webhook.redelivered',
    `Delivery of seat.added (evt_1) to ${HOOK} sent again`,
    { url: HOOK, count: 1, deliveryId: 'd', eventId: 'evt_1', eventType: 'seat.added' },
  ],
  [
    'webhook.redelivered',
    `2 failed deliveries to ${HOOK} of ${T} to ${T2} sent again`,
    { url: HOOK, count: 2, from: T, to: T2 },
  ],
  [
    'sso.configured',
    'Single sign-on (OIDC) through Okta (https://okta.example) set up: on, required for the verified domains',
    { ...OKTA, secretChanged: true, enabled: true, requireSso: true },
  ],
  [
    'sso.updated',
    'Single sign-on (OIDC) through Okta (https://okta.example, new client secret) changed: off',
    { ...OKTA, secretChanged: true, enabled: false, requireSso: false },
  ],
  [
    'sso.updated',
    'Single sign-on (SAML) through Entra (https://sts.example/) changed: on',
    {
      protocol: 'saml',
      displayName: 'Entra',
      idpEntityId: 'https://sts.example/',
      idpSsoUrl: 'https://sts.example/sso',
      metadataUrl: null,
      certificates: 1,
      enabled: true,
      requireSso: false,
    },
  ],
  ['sso.removed', 'Single sign-on through Okta removed', { displayName: 'Okta', issuer: OKTA.issuer }],
];

describe("the activity log's words", () => {
  const en = createTranslator('en', english);
  let es: Translator;
  let ar: Translator;
  beforeAll(async () => {
    es = createTranslator('es', (await loaders.es()).default, english);
    ar = createTranslator('ar', (await loaders.ar()).default, english);
  });

  it('has words for every action the server records, in a group the filter offers', () => {
    const sampled = new Set(SAMPLES.map(([action]) => action));
    const groups = new Set<string>(AUDIT_ACTION_GROUPS.map((g) => g.group));
    for (const action of AUDIT_ACTIONS) {
      expect(sampled.has(action), `${action}: no sample of its entry here`).toBe(true);
      expect(groups.has(action.split('.')[0]!), `${action}: its group is not in the filter`).toBe(true);
    }
  });

  it("says each action's entry in the server's English, from its details", () => {
    for (const [action, summary, details] of SAMPLES) {
      const said = auditSaid({ action, details }, asStored(en.t));
      expect(said, action).not.toBeNull();
      expect(en.t(said![0], said![1])).toBe(summary);
    }
  });

  it('says every entry in Spanish and in Arabic, with nothing left of the English line', () => {
    for (const [action, summary, details] of SAMPLES) {
      const entry = { action, summary, details };
      for (const tr of [es, ar]) {
        const words = auditWords(entry, tr);
        expect(words, `${action} (${tr.locale})`).not.toBe(summary);
        expect(words, `${action} (${tr.locale})`).not.toMatch(/[{}]|activityLog\./);
      }
      expect(auditWords(entry, ar), action).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it("writes times and lists as the reader's language does", () => {
    const hook = {
      action: 'webhook.redelivered',
      summary: '',
      details: { url: HOOK, count: 3, from: T, to: T2 },
    };
    expect(auditWords(hook, es)).toMatch(
      /^3 entregas fallidas a https:\/\/hooks\.example\/ del .*2027.* reenviadas$/,
    );
    expect(auditWords(hook, es)).not.toContain(T);
    const made = {
      action: 'webhook.created',
      summary: '',
      details: { url: HOOK, events: ['seat.added', 'award.revoked'] },
    };
    expect(auditWords(made, es)).toBe(`Endpoint de webhook ${HOOK} añadido para seat.added y award.revoked`);
    expect(auditWords(made, ar)).toContain('seat.added و');
  });

  it('counts in the message: one entry is singular, Arabic has its two', () => {
    const said = auditSaid(
      { action: 'xapi.resent', details: { endpoint: 'https://lrs.example/', count: 1 } },
      asStored(en.t),
    );
    expect(en.t(said![0], said![1])).toBe('1 failed statement entry sent again to https://lrs.example/');
    const shared = { action: 'assessment.shared', details: { name: 'Quiz', learners: 2 } };
    const two = auditSaid(shared, asStored(ar.t));
    expect(ar.t(two![0], two![1])).toContain('متعلّمَين');
  });

  it('leaves to the stored English an action it does not know, or details that lack what it names', () => {
    const f = asStored(en.t);
    expect(auditSaid({ action: 'lti.paused', details: { changes: {} } }, f)).toBeNull();
    expect(auditSaid({ action: 'cohort.renamed', details: { from: 'Night' } }, f)).toBeNull();
    expect(auditSaid({ action: 'toString', details: {} }, f)).toBeNull();
    // entries written before their details named everything the sentence needs
    expect(auditSaid({ action: 'webhook.disabled', details: { url: HOOK, reason: GONE } }, f)).toBeNull();
    expect(auditSaid({ action: 'webhook.updated', details: { url: HOOK, events: [] } }, f)).toBeNull();
    expect(auditSaid({ action: 'award.revoked', details: { awardId: 'a', reason: 'x' } }, f)).toBeNull();
    expect(auditSaid({ action: 'sso.removed', details: { issuer: OKTA.issuer } }, f)).toBeNull();
    expect(
      auditSaid({ action: 'xapi.updated', details: { endpoint: 'https://lrs.example/' } }, f),
    ).toBeNull();
  });
});
