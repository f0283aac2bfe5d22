/**
 * What an award shows, in words, from GET /certificate/certificate-info-v2/{id}: who earned what, in which
 * section or roadmap, when, from whom, and its credential id. The designs, the award pages and
 * <wm-award> all read this model.
 */
import { AWARD_KIND_LABELS, achievementOf, achievementScope, awardTitle } from '@shared/rules/award';
import { formatDate } from '@shared/rules/format-date';
import { awardKindOf } from '@shared/rules/test-status';
import type { AwardKind, CertificateInfo } from '@shared/schemas/award';

/** The texts of the viewer (learner §8; the spec's spellings corrected in docs/copy-errata.json). */
export const AWARD_TEXT = {
  loading: 'Loading the award…',
  /** Loading the award failed (spec: 'Certifiacte Issue'). */
  loadFailed: 'Certificate Issue',
  notFoundTitle: 'Award not found',
  notFound:
    'There is no feather, badge or certificate at this address. The link may be mistyped or incomplete, or the assessment did not earn an award.',
} as const;

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
}

const STATEMENTS: Record<AchievementScope, string> = {
  resource: 'passed the assessment of the resource',
  section: 'passed the assessment of the section',
  roadmap: 'completed the final assessment of the roadmap',
  subject: 'passed the assessment of the subject',
  assessment: 'passed the assessment',
};

/** The kind an award page shows for this info, or null when the info is no award of that kind. */
export function kindOfAward(info: Pick<CertificateInfo, 'type'>, wanted?: AwardKind): AwardKind | null {
  const kind = awardKindOf(info.type);
  if (!kind || (wanted && wanted !== kind)) return null;
  return kind;
}

export function awardModel(info: CertificateInfo, kind: AwardKind): AwardModel {
  const scope = achievementScope(info);
  const achievement = achievementOf(info);
  const partOf: AwardModel['partOf'] = [];
  if (scope === 'resource' && info.assignedSectionName && info.assignedResourceName) {
    partOf.push({ scope: 'section', name: info.assignedSectionName });
  }
  if ((scope === 'resource' || scope === 'section') && info.assignedRoadMapName) {
    partOf.push({ scope: 'roadmap', name: info.assignedRoadMapName });
  }
  const issuedOn = formatDate(info.createdAt, 'UTC');
  return {
    kind,
    kindLabel: AWARD_KIND_LABELS[kind],
    learner: info.userName,
    achievement,
    scope,
    statement: STATEMENTS[scope],
    partOf,
    issuedOn,
    issuedAt: info.createdAt,
    issuer: info.orgId,
    credentialId: info.linkId,
    verifyUrl: info.certificateUrl,
    title: awardTitle(info, kind),
  };
}
