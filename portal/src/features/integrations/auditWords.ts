/**
 * An activity-log entry's "what" in the reader's language (issue 31): the server stores one English line
 * per entry (the CSV and the CLI keep it); the page says the entry again from its action and the details the
 * server recorded beside it. An action this table does not know, or an older entry whose details lack what
 * the sentence names, shows the stored English.
 */
import type { MessageKey } from '@shared/i18n/keys';
import type { MessageValues, Translator } from '@shared/i18n/translator';
import { formatDateTime } from '@shared/rules/format-date';
import { type AuditEntry, keyDisplay } from '@shared/schemas/integrations';

type Details = Readonly<Record<string, unknown>>;
type Said = readonly [MessageKey, MessageValues] | null;

const text = (d: Details, k: string): string | null => (typeof d[k] === 'string' ? (d[k] as string) : null);

const strings = (v: unknown): string[] | null =>
  Array.isArray(v) && v.every((e) => typeof e === 'string') ? (v as string[]) : null;

/** Each action's message and values from its details; `day` writes a recorded time as the reader's language does. */
const SAID: Readonly<Record<string, (d: Details, day: (iso: string) => string) => Said>> = {
  'seat.added': (d) =>
    text(d, 'email') ? ['activityLog.entry.seatAdded', { email: text(d, 'email')! }] : null,
  'seat.removed': (d, day) => {
    const email = text(d, 'email');
    if (!email) return null;
    const until = text(d, 'accessUntil');
    return until
      ? ['activityLog.entry.seatRemovedUntil', { email, until: day(until) }]
      : ['activityLog.entry.seatRemoved', { email }];
  },
  'seat.invited': (d, day) => {
    const [email, until] = [text(d, 'email'), text(d, 'expiresAt')];
    return email && until ? ['activityLog.entry.seatInvited', { email, until: day(until) }] : null;
  },
  'seat.invitation_canceled': (d) =>
    text(d, 'email') ? ['activityLog.entry.invitationCanceled', { email: text(d, 'email')! }] : null,
  'seat.ended': (d) =>
    text(d, 'email')
      ? ['activityLog.entry.seatEnded', { email: text(d, 'email')! }]
      : ['activityLog.entry.seatEndedSomeone', {}],
  'cohort.created': (d) =>
    text(d, 'name') ? ['activityLog.entry.cohortCreated', { name: text(d, 'name')! }] : null,
  'cohort.renamed': (d) => {
    const [from, to] = [text(d, 'from'), text(d, 'to')];
    return from && to ? ['activityLog.entry.cohortRenamed', { from, to }] : null;
  },
  'cohort.deleted': (d) =>
    text(d, 'name') ? ['activityLog.entry.cohortDeleted', { name: text(d, 'name')! }] : null,
  'cohort.member_added': (d) => {
    const [email, cohort] = [text(d, 'email'), text(d, 'cohort')];
    return email && cohort ? ['activityLog.entry.memberAdded', { email, cohort }] : null;
  },
  'cohort.member_removed': (d) => {
    const [email, cohort] = [text(d, 'email'), text(d, 'cohort')];
    if (!cohort) return null;
    return email
      ? ['activityLog.entry.memberRemoved', { email, cohort }]
      : ['activityLog.entry.memberRemovedSomeone', { cohort }];
  },
  'xapi.disconnected': (d) =>
    text(d, 'endpoint') ? ['activityLog.entry.xapiDisconnected', { endpoint: text(d, 'endpoint')! }] : null,
  'xapi.resent': (d) => {
    const endpoint = text(d, 'endpoint');
    return endpoint && typeof d.count === 'number'
      ? ['activityLog.entry.xapiResent', { endpoint, count: d.count }]
      : null;
  },
  'webhook.created': (d) => {
    const url = text(d, 'url');
    const events = strings(d.events);
    // the events are names of the API (`seat.added`), the same in every language
    return url && events ? ['activityLog.entry.webhookCreated', { url, events: events.join(', ') }] : null;
  },
  'webhook.removed': (d) =>
    text(d, 'url') ? ['activityLog.entry.webhookRemoved', { url: text(d, 'url')! }] : null,
  'webhook.secret_rotated': (d, day) => {
    const [url, until] = [text(d, 'url'), text(d, 'previousValidUntil')];
    return url && until ? ['activityLog.entry.webhookSecretRotated', { url, until: day(until) }] : null;
  },
  'apikey.revoked': (d) => {
    const [name, prefix] = [text(d, 'name'), text(d, 'prefix')];
    return name && prefix ? ['activityLog.entry.apiKeyRevoked', { name, key: keyDisplay(prefix) }] : null;
  },
  'apikey.created': (d) => {
    const [name, prefix] = [text(d, 'name'), text(d, 'prefix')];
    const scopes = strings(d.scopes);
    // the scopes are names of the API (`seats:write`), the same in every language
    return name && prefix && scopes
      ? ['activityLog.entry.apiKeyCreated', { name, key: keyDisplay(prefix), scopes: scopes.join(', ') }]
      : null;
  },
  'cohort.roadmap_assigned': (d) => {
    const [roadmap, cohort] = [text(d, 'roadmap'), text(d, 'cohort')];
    const { assigned, roadmapLimit } = d;
    return roadmap && cohort && typeof assigned === 'number' && typeof roadmapLimit === 'number'
      ? ['activityLog.entry.cohortRoadmapAssigned', { roadmap, cohort, assigned, roadmapLimit }]
      : null;
  },
  'roadmap.assigned': (d) => {
    const [roadmap, email] = [text(d, 'roadmap'), text(d, 'email')];
    return roadmap && email ? ['activityLog.entry.roadmapAssigned', { roadmap, email }] : null;
  },
  'sso.domain_added': (d) =>
    text(d, 'domain') ? ['activityLog.entry.domainAdded', { domain: text(d, 'domain')! }] : null,
  'sso.domain_removed': (d) =>
    text(d, 'domain') ? ['activityLog.entry.domainRemoved', { domain: text(d, 'domain')! }] : null,
  'sso.domain_verified': (d) => {
    const [domain, address] = [text(d, 'domain'), text(d, 'mailedTo')];
    if (!domain) return null;
    if (d.by === 'DNS') return ['activityLog.entry.domainVerifiedDns', { domain }];
    return address ? ['activityLog.entry.domainVerifiedCode', { domain, address }] : null;
  },
  'assessment.created': (d) =>
    text(d, 'name') ? ['activityLog.entry.assessmentCreated', { name: text(d, 'name')! }] : null,
  'assessment.question_added': (d) =>
    text(d, 'name') ? ['activityLog.entry.questionAdded', { name: text(d, 'name')! }] : null,
  'assessment.question_removed': (d) =>
    text(d, 'name') ? ['activityLog.entry.questionRemoved', { name: text(d, 'name')! }] : null,
};

/**
 * The message key and values of an entry, or null for the stored English; `day` is how a recorded time is
 * written (the page: the reader's date and time; the tests: as stored, to compare with the server's line).
 */
export function auditSaid(entry: Pick<AuditEntry, 'action' | 'details'>, day: (iso: string) => string): Said {
  const say = Object.hasOwn(SAID, entry.action) ? SAID[entry.action] : undefined;
  return say ? say(entry.details ?? {}, day) : null;
}

/** What happened, in the reader's language when the entry can be said again, else as the server wrote it. */
export function auditWords(entry: AuditEntry, { t, locale }: Pick<Translator, 't' | 'locale'>): string {
  const said = auditSaid(entry, (iso) => formatDateTime(iso, undefined, locale));
  return said ? t(said[0], said[1]) : entry.summary;
}
