/**
 * The focus record of a test (mentor §4: focus and blur are reported while a test is started): what the test
 * page reported — the page left and came back to (BLUR, FOCUS), a paste into an answer (PASTE), the test
 * opened in a second tab or window of the same browser (SECOND_TAB, SECOND_TAB_CLOSED), the connection lost
 * and back (OFFLINE, ONLINE) — turned into a timeline and a tier: none, some or notable.
 *
 * It is context, not proof: a notification, a password manager, a second screen or a dropped connection
 * look exactly like looking an answer up. So short absences are listed but not counted (Canvas's quiz log
 * flags every flicker, and admins learn to ignore it), only time away and pastes decide the tier, and the
 * learner sees the same record as the mentor.
 *
 * The rules (every threshold is below, in INTEGRITY_RULES):
 * - An absence runs from the page being left (BLUR) to coming back (FOCUS), or to the end of the test. One
 *   shorter than `briefSeconds` is listed as brief and not counted.
 * - The test's length is from its start to its end (finish, or time up), at least one minute.
 * - Notable when any of: time away in all ≥ max(notable.awaySeconds, notable.awayShare × length); the
 *   longest absence ≥ notable.longestSeconds; at least notable.minAbsences absences and at least
 *   notable.absencesPer10Min of them per 10 minutes of test; pastes ≥ notable.pastes.
 * - Some when any of the same with the `some` thresholds.
 * - None otherwise. A second tab and time offline are listed but decide nothing.
 */

import type { MessageKey } from '../i18n/keys';
import type { Speaker } from '../i18n/message';
import { durationIn } from './durations';

export const FOCUS_EVENT_TYPES = [
  'FOCUS',
  'BLUR',
  'PASTE',
  'SECOND_TAB',
  'SECOND_TAB_CLOSED',
  'OFFLINE',
  'ONLINE',
] as const;
export type FocusEventType = (typeof FOCUS_EVENT_TYPES)[number];

export const INTEGRITY_TIERS = ['NONE', 'SOME', 'NOTABLE'] as const;
export type IntegrityTier = (typeof INTEGRITY_TIERS)[number];

/** The tiers in words (message keys). */
export const TIER_LABELS: Record<IntegrityTier, MessageKey> = {
  NONE: 'focus.tier.none',
  SOME: 'focus.tier.some',
  NOTABLE: 'focus.tier.notable',
};

interface Thresholds {
  /** Time away in all, seconds, at least this… */
  awaySeconds: number;
  /** …and at least this share of the test's length. */
  awayShare: number;
  /** The longest absence, seconds. */
  longestSeconds: number;
  /** Counted absences: at least this many… */
  minAbsences: number;
  /** …and at least this many per 10 minutes of test. */
  absencesPer10Min: number;
  /** Pastes into an answer. */
  pastes: number;
}

export const INTEGRITY_RULES: {
  briefSeconds: number;
  some: Thresholds;
  notable: Thresholds;
} = {
  briefSeconds: 3,
  some: {
    awaySeconds: 20,
    awayShare: 0.02,
    longestSeconds: 30,
    minAbsences: 3,
    absencesPer10Min: 1.5,
    pastes: 1,
  },
  notable: {
    awaySeconds: 120,
    awayShare: 0.1,
    longestSeconds: 120,
    minAbsences: 6,
    absencesPer10Min: 4,
    pastes: 3,
  },
};

/** One reported event, at the server's time (unix milliseconds). */
export interface FocusEvent {
  type: FocusEventType;
  at: number;
  /** The question on screen (1-based), when the page said. */
  question: number | null;
  /** For a paste: how many characters were pasted (never what). */
  chars?: number | null;
}

export type TimelineKind = 'AWAY' | 'PASTE' | 'SECOND_TAB' | 'OFFLINE';

export interface TimelineEntry {
  kind: TimelineKind;
  /** Unix milliseconds. */
  at: number;
  /** When it ended (unix ms); null for a paste, or when it had not ended by the end of the test. */
  until: number | null;
  /** Whole seconds it lasted; null for a paste. */
  seconds: number | null;
  /** The question on screen when it began (1-based), if known. */
  question: number | null;
  /** A paste's length in characters. */
  chars: number | null;
  /** An absence shorter than the brief threshold: listed, not counted. */
  brief: boolean;
}

export interface IntegritySummary {
  tier: IntegrityTier;
  /** Seconds away in all (counted absences). */
  awaySeconds: number;
  longestAwaySeconds: number;
  /** Counted absences. */
  absences: number;
  /** Absences shorter than the brief threshold. */
  briefAbsences: number;
  pastes: number;
  /** Times the test was open in a second tab. */
  secondTabs: number;
  offlineSeconds: number;
  /** The test's length the rules used, seconds. */
  testSeconds: number;
  /** Which rules decided the tier, in words ('3 min away in all, 12 % of the test'). */
  reasons: string[];
}

export interface IntegrityRecord {
  summary: IntegritySummary;
  timeline: TimelineEntry[];
}

/**
 * '2 min 10 s', '45 s', '1 h 3 min': the two largest units, for sentences (in another language, as its
 * `Intl.DurationFormat` writes them, short).
 */
export function spokenAway(seconds: number, locale = 'en'): string {
  const s = Math.max(0, Math.round(seconds));
  if (locale !== 'en' && !locale.startsWith('en-')) {
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const value: Record<string, number> =
      h > 0 ? { hours: h, minutes: m } : m > 0 ? { minutes: m, seconds: s % 60 } : { seconds: s };
    return durationIn(locale, 'short', value);
  }
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return m ? `${h} h ${m} min` : `${h} h`;
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

interface Open {
  at: number;
  question: number | null;
}

/**
 * The record of one attempt: `events` as stored (any order; duplicates of the state — a BLUR while
 * already away — are ignored), the test's start and end (unix ms; the end is now for a test still running).
 * Events outside [start, end] are left out.
 */
export function integrityOf(
  events: readonly FocusEvent[],
  startedAt: number,
  endedAt: number,
): IntegrityRecord {
  const end = Math.max(startedAt, endedAt);
  const sorted = events
    .filter((e) => e.at >= startedAt && e.at <= end)
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at - b.e.at || a.i - b.i)
    .map(({ e }) => e);
  const timeline: TimelineEntry[] = [];
  let away: Open | null = null;
  let offline: Open | null = null;
  let secondTab: Open | null = null;
  const close = (kind: TimelineKind, open: Open, at: number | null) => {
    const until = at ?? end;
    const seconds = Math.max(0, Math.round((until - open.at) / 1000));
    timeline.push({
      kind,
      at: open.at,
      until: at,
      seconds,
      question: open.question,
      chars: null,
      brief: kind === 'AWAY' && (until - open.at) / 1000 < INTEGRITY_RULES.briefSeconds,
    });
  };
  for (const e of sorted) {
    switch (e.type) {
      case 'BLUR':
        away ??= { at: e.at, question: e.question };
        break;
      case 'FOCUS':
        if (away) close('AWAY', away, e.at);
        away = null;
        break;
      case 'OFFLINE':
        offline ??= { at: e.at, question: e.question };
        break;
      case 'ONLINE':
        if (offline) close('OFFLINE', offline, e.at);
        offline = null;
        break;
      case 'SECOND_TAB':
        secondTab ??= { at: e.at, question: e.question };
        break;
      case 'SECOND_TAB_CLOSED':
        if (secondTab) close('SECOND_TAB', secondTab, e.at);
        secondTab = null;
        break;
      case 'PASTE':
        timeline.push({
          kind: 'PASTE',
          at: e.at,
          until: null,
          seconds: null,
          question: e.question,
          chars: e.chars ?? null,
          brief: false,
        });
        break;
    }
  }
  // what had not ended by the end of the test ends there (an absence at time-up is time away)
  if (away) close('AWAY', away, null);
  if (offline) close('OFFLINE', offline, null);
  if (secondTab) close('SECOND_TAB', secondTab, null);
  timeline.sort((a, b) => a.at - b.at);

  const counted = timeline.filter((t) => t.kind === 'AWAY' && !t.brief);
  const awayMs = counted.reduce((sum, t) => sum + ((t.until ?? end) - t.at), 0);
  const longestMs = counted.reduce((max, t) => Math.max(max, (t.until ?? end) - t.at), 0);
  const offlineMs = timeline
    .filter((t) => t.kind === 'OFFLINE')
    .reduce((sum, t) => sum + ((t.until ?? end) - t.at), 0);
  const testSeconds = Math.max(60, Math.round((end - startedAt) / 1000));
  const figures = {
    awaySeconds: Math.round(awayMs / 1000),
    longestAwaySeconds: Math.round(longestMs / 1000),
    absences: counted.length,
    pastes: timeline.filter((t) => t.kind === 'PASTE').length,
  };
  const { tier, reasons } = tierOf(figures, testSeconds);
  return {
    summary: {
      tier,
      ...figures,
      briefAbsences: timeline.filter((t) => t.kind === 'AWAY' && t.brief).length,
      secondTabs: timeline.filter((t) => t.kind === 'SECOND_TAB').length,
      offlineSeconds: Math.round(offlineMs / 1000),
      testSeconds,
      reasons,
    },
    timeline,
  };
}

export interface TierFigures {
  awaySeconds: number;
  longestAwaySeconds: number;
  absences: number;
  pastes: number;
}

/** A threshold the figures reach, with the figures that say so. */
type Reached =
  | { rule: 'away'; seconds: number; percent: number }
  | { rule: 'longest'; seconds: number }
  | { rule: 'absences'; count: number; per10: number }
  | { rule: 'pastes'; count: number };

/** Which thresholds the figures reach; empty when none. */
function reached(f: TierFigures, testSeconds: number, t: Thresholds): Reached[] {
  const out: Reached[] = [];
  const awayLimit = Math.max(t.awaySeconds, t.awayShare * testSeconds);
  if (f.awaySeconds > 0 && f.awaySeconds >= awayLimit) {
    out.push({
      rule: 'away',
      seconds: f.awaySeconds,
      percent: Math.round((100 * f.awaySeconds) / testSeconds),
    });
  }
  if (f.longestAwaySeconds > 0 && f.longestAwaySeconds >= t.longestSeconds) {
    out.push({ rule: 'longest', seconds: f.longestAwaySeconds });
  }
  const per10 = (f.absences * 600) / testSeconds;
  if (f.absences >= t.minAbsences && per10 >= t.absencesPer10Min) {
    out.push({ rule: 'absences', count: f.absences, per10: Math.round(per10 * 10) / 10 });
  }
  if (f.pastes > 0 && f.pastes >= t.pastes) out.push({ rule: 'pastes', count: f.pastes });
  return out;
}

/** The tier of the figures and the thresholds that decided it. */
function decide(f: TierFigures, testSeconds: number): { tier: IntegrityTier; reached: Reached[] } {
  const length = Math.max(60, testSeconds);
  const notable = reached(f, length, INTEGRITY_RULES.notable);
  if (notable.length) return { tier: 'NOTABLE', reached: notable };
  const some = reached(f, length, INTEGRITY_RULES.some);
  if (some.length) return { tier: 'SOME', reached: some };
  return { tier: 'NONE', reached: [] };
}

/** A threshold reached, in English (the API's `reasons`). */
function english(r: Reached): string {
  switch (r.rule) {
    case 'away':
      return `${spokenAway(r.seconds)} away in all (${r.percent} % of the test)`;
    case 'longest':
      return `away ${spokenAway(r.seconds)} at once`;
    case 'absences':
      return `left the test ${r.count} times (${r.per10} per 10 minutes)`;
    case 'pastes':
      return `${r.count} ${r.count === 1 ? 'paste' : 'pastes'} into an answer`;
  }
}

/** The tier of the figures over a test of `testSeconds`, with the rules that decided it (in English). */
export function tierOf(f: TierFigures, testSeconds: number): { tier: IntegrityTier; reasons: string[] } {
  const { tier, reached: which } = decide(f, testSeconds);
  return { tier, reasons: which.map(english) };
}

/** The rules that decided a summary's tier, in the reader's language (the pages). */
export function reasonsOf(summary: IntegritySummary, { t, locale }: Speaker): string[] {
  return decide(summary, summary.testSeconds).reached.map((r) => {
    switch (r.rule) {
      case 'away':
        return t('focus.reason.away', { time: spokenAway(r.seconds, locale), percent: r.percent });
      case 'longest':
        return t('focus.reason.longest', { time: spokenAway(r.seconds, locale) });
      case 'absences':
        return t('focus.reason.absences', { count: r.count, per10: r.per10 });
      default:
        return t('focus.reason.pastes', { count: r.count });
    }
  });
}

/** One timeline entry in words: 'Away 2 min 10 s on question 7'. */
export function describeEntry(
  entry: Pick<TimelineEntry, 'kind' | 'seconds' | 'question' | 'chars' | 'brief'> & { until: unknown },
  { t, locale }: Speaker,
): string {
  const time = spokenAway(entry.seconds ?? 0, locale);
  const values = {
    time,
    on: entry.question ? 'yes' : 'no',
    question: entry.question ?? 0,
    open: entry.until === null && entry.kind !== 'PASTE' ? 'yes' : 'no',
  };
  switch (entry.kind) {
    case 'AWAY':
      return t(entry.brief ? 'focus.entry.brieflyAway' : 'focus.entry.away', values);
    case 'PASTE':
      return t(entry.chars === null ? 'focus.entry.pastedSome' : 'focus.entry.pasted', {
        ...values,
        count: entry.chars ?? 0,
      });
    case 'SECOND_TAB':
      return t('focus.entry.secondTab', values);
    case 'OFFLINE':
      return t('focus.entry.offline', values);
  }
}

/** The rules in words, for the page that shows a record (the same everywhere). */
export function integrityExplanation({ t, locale }: Speaker): string[] {
  const { briefSeconds, some, notable } = INTEGRITY_RULES;
  const away = (s: number) => spokenAway(s, locale);
  return [
    t('focus.explain.recorded'),
    t('focus.explain.context'),
    t('focus.explain.rules', {
      brief: away(briefSeconds),
      someAway: away(some.awaySeconds),
      someShare: some.awayShare * 100,
      someLongest: away(some.longestSeconds),
      someAbsences: some.minAbsences,
      somePer10: some.absencesPer10Min,
      notableAway: away(notable.awaySeconds),
      notableShare: notable.awayShare * 100,
      notableLongest: away(notable.longestSeconds),
      notableAbsences: notable.minAbsences,
      notablePer10: notable.absencesPer10Min,
      notablePastes: notable.pastes,
    }),
  ];
}
