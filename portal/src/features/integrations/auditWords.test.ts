/**
 * The activity log says an entry again from its action and details (issue 31): in English, the words are
 * the server's own line — each sample below is an entry as the server writes it (server/tenant/*.ts,
 * server/integrations/**, server/billing/seat-cycle.ts), its English and its details.
 */
import { english } from 'virtual:wm-messages';
import { createTranslator } from '@shared/i18n/translator';
import { describe, expect, it } from 'vitest';
import { auditSaid } from './auditWords';

const T = '2027-03-03T10:00:00.000Z';
const SAMPLES: [action: string, summary: string, details: Record<string, unknown>][] = [
  ['seat.added', 'a@example.com added as a learner', { email: 'a@example.com', seatId: 's', via: 'ADDED' }],
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
];

describe("the activity log's words", () => {
  const en = createTranslator('en', english);

  it("says each action's entry in the server's English, from its details", () => {
    for (const [action, summary, details] of SAMPLES) {
      const said = auditSaid({ action, details }, (iso) => iso);
      expect(said, action).not.toBeNull();
      expect(en.t(said![0], said![1])).toBe(summary);
    }
  });

  it('counts in the message: one entry is singular', () => {
    const said = auditSaid(
      { action: 'xapi.resent', details: { endpoint: 'https://lrs.example/', count: 1 } },
      String,
    );
    expect(en.t(said![0], said![1])).toBe('1 failed statement entry sent again to https://lrs.example/');
  });

  it('leaves to the stored English an action it does not know, or details that lack what it names', () => {
    expect(auditSaid({ action: 'lti.paused', details: { changes: {} } }, String)).toBeNull();
    expect(auditSaid({ action: 'cohort.renamed', details: { from: 'Night' } }, String)).toBeNull();
    expect(auditSaid({ action: 'toString', details: {} }, String)).toBeNull();
  });
});
