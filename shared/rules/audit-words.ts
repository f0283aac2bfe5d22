/**
 * An activity-log entry's "what" in the reader's language (issue 31): the server stores one English line
 * per entry (the CSV and the CLI keep it); the page says the entry again from its action and the details the
 * server recorded beside it. Every action the server records (AUDIT_ACTIONS) has its words here; an older
 * entry whose details lack what the sentence names shows the stored English.
 */
import type { MessageKey } from '../i18n/keys';
import type { MessageValues, Translator } from '../i18n/translator';
import { type AuditAction, type AuditEntry, keyDisplay, scimTokenDisplay } from '../schemas/integrations';
import { formatDateTime } from './format-date';

type Details = Readonly<Record<string, unknown>>;
type Said = readonly [MessageKey, MessageValues] | null;

/**
 * How the reader's language writes what an entry names: a recorded time (`day`), a list (`list`), and a
 * phrase said inside the sentence (`say`: a webhook's changes).
 */
export interface AuditFormats {
  day: (iso: string) => string;
  list: (items: readonly string[]) => string;
  say: (key: MessageKey, values?: MessageValues) => string;
}

const text = (d: Details, k: string): string | null => (typeof d[k] === 'string' ? (d[k] as string) : null);

const strings = (v: unknown): string[] | null =>
  Array.isArray(v) && v.every((e) => typeof e === 'string') ? (v as string[]) : null;

const flag = (v: unknown): 'yes' | 'no' | null => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : null);

/** An LMS platform's entry: its label, and its issuer where the sentence names it. */
const lti =
  (key: MessageKey, withIssuer = false) =>
  (d: Details): Said => {
    const [label, issuer] = [text(d, 'label'), text(d, 'issuer')];
    if (!label || (withIssuer && !issuer)) return null;
    return [key, withIssuer ? { label, issuer: issuer! } : { label }];
  };

/** A SCIM token's entry: its name and how it is shown. */
const scimToken =
  (key: MessageKey) =>
  (d: Details): Said => {
    const [name, prefix] = [text(d, 'name'), text(d, 'prefix')];
    return name && prefix ? [key, { name, token: scimTokenDisplay(prefix) }] : null;
  };

/** The learning record store connected or changed: what it is sent, how learners are named, paused. */
const xapiSet =
  (key: MessageKey, changed: boolean) =>
  (d: Details, f: AuditFormats): Said => {
    const [endpoint, actorFormat] = [text(d, 'endpoint'), text(d, 'actorFormat')];
    const statements = strings(d.statements);
    const [enabled, secret] = [flag(d.enabled), flag(d.secretReplaced)];
    if (!endpoint || !actorFormat || !statements || !enabled || (changed && !secret)) return null;
    // the kinds are names of the API (`studied`), the same in every language
    const none = statements.length === 0 ? 'yes' : 'no';
    return [
      key,
      { endpoint, actorFormat, statements: f.list(statements), none, enabled, secret: secret ?? 'no' },
    ];
  };

/** What a change of a webhook endpoint changed, each said in the reader's language. */
function webhookChanges(d: Details, f: AuditFormats): string[] | null {
  const changed = strings(d.changed);
  if (!changed) return null;
  const said: string[] = [];
  for (const c of changed) {
    if (c === 'url' && text(d, 'previousUrl') && text(d, 'url'))
      said.push(
        f.say('activityLog.entry.webhookChange.url', { from: text(d, 'previousUrl')!, to: text(d, 'url')! }),
      );
    else if (c === 'description') said.push(f.say('activityLog.entry.webhookChange.description'));
    else if (c === 'events' && strings(d.events))
      said.push(f.say('activityLog.entry.webhookChange.events', { events: f.list(strings(d.events)!) }));
    else if (c === 'ordered' && flag(d.ordered))
      said.push(f.say('activityLog.entry.webhookChange.ordered', { ordered: flag(d.ordered)! }));
    else return null;
  }
  return said;
}

/** A webhook endpoint changed, disabled or enabled by the tenant, and what else changed with it. */
const webhookSet =
  (key: MessageKey) =>
  (d: Details, f: AuditFormats): Said => {
    const url = text(d, 'url');
    const said = webhookChanges(d, f);
    if (!url || !said || (key === 'activityLog.entry.webhookUpdated' && said.length === 0)) return null;
    const changes = said.join(f.say('activityLog.entry.changesJoiner'));
    return [key, { url, changes, changed: said.length ? 'yes' : 'no' }];
  };

/** Why Waymark disabled an endpoint, by its code (an entry without one: the tenant disabled it). */
function webhookDisabled(d: Details, f: AuditFormats): Said {
  const url = text(d, 'url');
  if (!url) return null;
  if (d.reasonCode === 'gone') return ['activityLog.entry.webhookGone', { url }];
  if (d.reasonCode === 'failing') {
    const since = text(d, 'failingSince');
    return since && typeof d.days === 'number'
      ? ['activityLog.entry.webhookFailing', { url, since: f.day(since), days: d.days }]
      : null;
  }
  return d.reason === undefined ? webhookSet('activityLog.entry.webhookDisabled')(d, f) : null;
}

/** Single sign-on set up or changed: through whom, on or off, required or not. */
const ssoSet =
  (key: MessageKey, changed: boolean) =>
  (d: Details): Said => {
    const [protocol, name] = [text(d, 'protocol'), text(d, 'displayName')];
    const provider = text(d, 'issuer') ?? text(d, 'idpEntityId');
    const [enabled, required] = [flag(d.enabled), flag(d.requireSso)];
    if (!protocol || !name || !provider || !enabled || !required) return null;
    const secret = changed && d.secretChanged === true ? 'yes' : 'no';
    return [key, { protocol: protocol.toUpperCase(), name, provider, enabled, required, secret }];
  };

/** What an entry names written as the server writes it in its English line (the tests compare the two). */
export const asStored = (say: AuditFormats['say']): AuditFormats => ({
  day: (iso) => iso,
  list: (items) => items.join(', '),
  say,
});

/** Each action's message and values from its details, written as the reader's language does (`f`). */
const SAID: Readonly<Record<AuditAction, (d: Details, f: AuditFormats) => Said>> = {
  'seat.added': (d) => {
    const email = text(d, 'email');
    if (!email) return null;
    // an invitee who signed up took the seat (written by migration 0020's trigger)
    return d.via === 'INVITATION'
      ? ['activityLog.entry.invitationAccepted', { email }]
      : ['activityLog.entry.seatAdded', { email }];
  },
  'seat.removed': (d, { day }) => {
    const email = text(d, 'email');
    if (!email) return null;
    const until = text(d, 'accessUntil');
    return until
      ? ['activityLog.entry.seatRemovedUntil', { email, until: day(until) }]
      : ['activityLog.entry.seatRemoved', { email }];
  },
  'seat.invited': (d, { day }) => {
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
  'webhook.created': (d, { list }) => {
    const url = text(d, 'url');
    const events = strings(d.events);
    // the events are names of the API (`seat.added`), the same in every language
    return url && events ? ['activityLog.entry.webhookCreated', { url, events: list(events) }] : null;
  },
  'webhook.removed': (d) =>
    text(d, 'url') ? ['activityLog.entry.webhookRemoved', { url: text(d, 'url')! }] : null,
  'webhook.secret_rotated': (d, { day }) => {
    const [url, until] = [text(d, 'url'), text(d, 'previousValidUntil')];
    return url && until ? ['activityLog.entry.webhookSecretRotated', { url, until: day(until) }] : null;
  },
  'apikey.revoked': (d) => {
    const [name, prefix] = [text(d, 'name'), text(d, 'prefix')];
    return name && prefix ? ['activityLog.entry.apiKeyRevoked', { name, key: keyDisplay(prefix) }] : null;
  },
  'apikey.created': (d, { list }) => {
    const [name, prefix] = [text(d, 'name'), text(d, 'prefix')];
    const scopes = strings(d.scopes);
    // the scopes are names of the API (`seats:write`), the same in every language
    return name && prefix && scopes
      ? ['activityLog.entry.apiKeyCreated', { name, key: keyDisplay(prefix), scopes: list(scopes) }]
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
  'assessment.shared': (d) => {
    const name = text(d, 'name');
    return name && typeof d.learners === 'number'
      ? ['activityLog.entry.assessmentShared', { name, learners: d.learners }]
      : null;
  },
  'award.revoked': (d) => {
    const [email, awardId, reason] = [text(d, 'email'), text(d, 'awardId'), text(d, 'reason')];
    if (!email || !awardId || reason === null || !Object.hasOwn(d, 'kind')) return null;
    return ['activityLog.entry.awardRevoked', { email, awardId, reason, kind: text(d, 'kind') ?? 'none' }];
  },
  'lti.registered': lti('activityLog.entry.ltiRegistered', true),
  'lti.updated': lti('activityLog.entry.ltiUpdated'),
  'lti.paused': lti('activityLog.entry.ltiPaused'),
  'lti.resumed': lti('activityLog.entry.ltiResumed'),
  'lti.removed': lti('activityLog.entry.ltiRemoved', true),
  'lti.score_retried': (d) => {
    const [email, label] = [text(d, 'email'), text(d, 'label')];
    return email && label ? ['activityLog.entry.ltiScoreRetried', { email, label }] : null;
  },
  'scim.token_created': scimToken('activityLog.entry.scimTokenCreated'),
  'scim.token_rotated': (d) => {
    const said = scimToken('activityLog.entry.scimTokenRotated')(d);
    const replaces = text(d, 'replaces');
    return said && replaces ? [said[0], { ...said[1], previous: scimTokenDisplay(replaces) }] : null;
  },
  'scim.token_revoked': scimToken('activityLog.entry.scimTokenRevoked'),
  'xapi.connected': xapiSet('activityLog.entry.xapiConnected', false),
  'xapi.updated': xapiSet('activityLog.entry.xapiUpdated', true),
  'webhook.updated': webhookSet('activityLog.entry.webhookUpdated'),
  'webhook.enabled': webhookSet('activityLog.entry.webhookEnabled'),
  'webhook.disabled': webhookDisabled,
  'webhook.redelivered': (d, { day }) => {
    const url = text(d, 'url');
    const [event, eventId, from, to] = ['eventType', 'eventId', 'from', 'to'].map((k) => text(d, k));
    if (!url) return null;
    if (event && eventId) return ['activityLog.entry.webhookRedeliveredOne', { url, event, eventId }];
    return from && to && typeof d.count === 'number'
      ? ['activityLog.entry.webhookRedeliveredFailed', { url, count: d.count, from: day(from), to: day(to) }]
      : null;
  },
  'sso.configured': ssoSet('activityLog.entry.ssoConfigured', false),
  'sso.updated': ssoSet('activityLog.entry.ssoUpdated', true),
  'sso.removed': (d) =>
    text(d, 'displayName') ? ['activityLog.entry.ssoRemoved', { name: text(d, 'displayName')! }] : null,
};

/**
 * The message key and values of an entry, or null for the stored English; `f` is how what it names is
 * written (the page: the reader's language; the tests: as the server writes it, to compare with its line).
 */
export function auditSaid(entry: Pick<AuditEntry, 'action' | 'details'>, f: AuditFormats): Said {
  const say = Object.hasOwn(SAID, entry.action) ? SAID[entry.action as AuditAction] : undefined;
  return say ? say(entry.details ?? {}, f) : null;
}

/** What happened, in the reader's language when the entry can be said again, else as the server wrote it. */
export function auditWords(
  entry: Pick<AuditEntry, 'action' | 'details' | 'summary'>,
  { t, locale, list }: Pick<Translator, 't' | 'locale' | 'list'>,
): string {
  const said = auditSaid(entry, {
    day: (iso) => formatDateTime(iso, undefined, locale),
    list: (xs) => list(xs),
    say: t,
  });
  return said ? t(said[0], said[1]) : entry.summary;
}
