/**
 * What an award shows, in words, from GET /certificate/certificate-info-v2/{id}: who earned what, in which
 * section or roadmap, when, from whom, and its credential id. The designs, the award pages and
 * <wm-award> all read this model.
 */
import type { MessageKey } from '@shared/i18n/keys';
import type { Speaker } from '@shared/i18n/message';
import { achievementIn, achievementScope } from '@shared/rules/award';
import { formatDate } from '@shared/rules/format-date';
import { awardKindOf } from '@shared/rules/test-status';
import type { AwardKind, CertificateInfo } from '@shared/schemas/award';

/** The texts of the viewer (learner §8; the spec's spellings corrected in docs/copy-errata.json), as message keys. */
export const AWARD_TEXT = {
  loading: 'award.loading',
  /** Loading the award failed (spec: 'Certifiacte Issue'). */
  loadFailed: 'award.loadFailed',
  notFoundTitle: 'award.notFoundTitle',
  notFound: 'award.notFound',
} as const satisfies Record<string, MessageKey>;

/** The kinds of award in words. */
export const AWARD_KIND_KEYS: Record<AwardKind, MessageKey> = {
  feather: 'award.kind.feather',
  badge: 'award.kind.badge',
  certificate: 'award.kind.certificate',
};

/** The stored image's size in pixels, by kind: the design's proportions at a print-worthy width. */
export const IMAGE_SIZE: Record<AwardKind, { width: number; height: number }> = {
  certificate: { width: 2000, height: 1414 },
  badge: { width: 1200, height: 1200 },
  feather: { width: 1120, height: 1400 },
};

export type AchievementScope = ReturnType<typeof achievementScope>;

export interface AwardModel {
  kind: AwardKind;
  /** 'Feather', 'Badge', 'Certificate'. */
  kindLabel: string;
  learner: string;
  /** The resource, section, roadmap or subject. */
  achievement: string;
  scope: AchievementScope;
  /** What the learner did, before the achievement's name: 'passed the assessment of the resource'. */
  statement: string;
  /** The wider places the achievement belongs to, narrowest first (a feather: its section, then its roadmap). */
  partOf: { scope: AchievementScope; name: string }[];
  /** '3rd Mar 2026' (UTC, as the LinkedIn month and the shared link say). */
  issuedOn: string;
  issuedAt: string;
  issuer: string;
  credentialId: string;
  /** The public award page. */
  verifyUrl: string;
  /** 'Feather: Closures'. */
  title: string;
  /** A sandbox's award (decision 041): the design and its image carry the sandbox's mark. */
  sandbox?: boolean;
}

const STATEMENTS: Record<AchievementScope, MessageKey> = {
  resource: 'award.statement.resource',
  section: 'award.statement.section',
  roadmap: 'award.statement.roadmap',
  subject: 'award.statement.subject',
  assessment: 'award.statement.assessment',
};

/** The kind an award page shows for this info, or null when the info is no award of that kind. */
export function kindOfAward(info: Pick<CertificateInfo, 'type'>, wanted?: AwardKind): AwardKind | null {
  const kind = awardKindOf(info.type);
  if (!kind || (wanted && wanted !== kind)) return null;
  return kind;
}

/** The award in words, in the language of `speaker` (the language the award page is drawn in). */
export function awardModel(info: CertificateInfo, kind: AwardKind, speaker: Speaker): AwardModel {
  const scope = achievementScope(info);
  const achievement = achievementIn(info, speaker);
  const partOf: AwardModel['partOf'] = [];
  if (scope === 'resource' && info.assignedSectionName && info.assignedResourceName) {
    partOf.push({ scope: 'section', name: info.assignedSectionName });
  }
  if ((scope === 'resource' || scope === 'section') && info.assignedRoadMapName) {
    partOf.push({ scope: 'roadmap', name: info.assignedRoadMapName });
  }
  const issuedOn = formatDate(info.createdAt, 'UTC', speaker.locale);
  return {
    kind,
    kindLabel: speaker.t(AWARD_KIND_KEYS[kind]),
    learner: info.userName,
    achievement,
    scope,
    statement: speaker.t(STATEMENTS[scope]),
    partOf,
    issuedOn,
    issuedAt: info.createdAt,
    issuer: info.orgId,
    credentialId: info.linkId,
    verifyUrl: info.certificateUrl,
    sandbox: info.sandbox === true,
    title: speaker.t('award.title', { kind: speaker.t(AWARD_KIND_KEYS[kind]), achievement }),
  };
}
