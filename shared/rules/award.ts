/**
 * How an award reads (learner §2 Award pages, §4 Award generation): what was achieved, its title, the
 * LinkedIn 'Add to profile' link and the width a certificate image needs. Pure: the award pages, the
 * <wm-award> element and the server's Open Graph tags read the same words.
 */
import type { Speaker } from '../i18n/message';
import type { AwardKind, CertificateInfo } from '../schemas/award';
import { linkedInUrlForAward } from './linkedin';
import { awardKindOf } from './test-status';

/** The narrowest window in which the certificate image is rendered (learner §9): 1050 px. */
export const CERTIFICATE_MIN_WIDTH = 1050;

/** The award's image type (learner §9). */
export const AWARD_IMAGE_EXTENSION = 'jpg';

export const AWARD_KIND_LABELS: Record<AwardKind, string> = {
  feather: 'Feather',
  badge: 'Badge',
  certificate: 'Certificate',
};

type AwardNames = Pick<
  CertificateInfo,
  'type' | 'assignedResourceName' | 'assignedSectionName' | 'assignedRoadMapName' | 'subject'
>;

/** The name of what was achieved, as kept on the award; null when the award kept none. */
function achievementName(info: AwardNames): string | null {
  switch (awardKindOf(info.type)) {
    case 'feather':
      return info.assignedResourceName ?? info.assignedSectionName ?? null;
    case 'badge':
      return info.assignedSectionName ?? info.assignedRoadMapName ?? null;
    default:
      // a subject, or a mentor's assessment: its name, frozen on the link when it was shared
      if (info.type === 'SUBJECT' || info.type === 'CUSTOM-TEST') return info.subject?.name ?? null;
      return info.assignedRoadMapName ?? info.subject?.name ?? null;
  }
}

/** The English of an achievement without a name, by its scope: `award.unnamed`'s English (award.test.ts). */
export const UNNAMED_ACHIEVEMENT = {
  resource: 'a resource',
  section: 'a section',
  roadmap: 'a roadmap',
  subject: 'a subject',
  assessment: 'an assessment',
} as const satisfies Record<ReturnType<typeof achievementScope>, string>;

/**
 * What was achieved, in words: the resource (feather), the section (badge), the roadmap or subject
 * (certificate); English words of its kind when the award kept no name (the credential, the CLI).
 */
export function achievementOf(info: AwardNames): string {
  return achievementName(info) ?? UNNAMED_ACHIEVEMENT[achievementScope(info)];
}

/** What was achieved, in the reader's language: its name, or its kind from the catalogue ('un recurso'). */
export function achievementIn(info: AwardNames, { t }: Pick<Speaker, 't'>): string {
  return achievementName(info) ?? t('award.unnamed', { scope: achievementScope(info) });
}

/** What the achievement is: 'resource', 'section', 'roadmap', 'subject' or (a mentor's) 'assessment'. */
export function achievementScope(
  info: Pick<CertificateInfo, 'type'>,
): 'resource' | 'section' | 'roadmap' | 'subject' | 'assessment' {
  switch (info.type) {
    case 'RESOURCE':
    case 'RESOURCE-FROM-WHATSAPP':
      return 'resource';
    case 'SECTION':
      return 'section';
    case 'SUBJECT':
      return 'subject';
    case 'CUSTOM-TEST':
      return 'assessment';
    default:
      return 'roadmap';
  }
}

/** The award's name as a credential: 'Feather: Closures', 'Badge: Functions', 'Certificate: Web Basics'. */
export function awardTitle(info: AwardNames, kind: AwardKind | null = awardKindOf(info.type)): string {
  return `${AWARD_KIND_LABELS[kind ?? 'certificate']}: ${achievementOf(info)}`;
}

/**
 * The public verify page of an award, beside its award page: `https://host/feather/{id}` →
 * `https://host/verify/{id}` (the page that checks the award's Open Badges 3.0 credential).
 */
export function verifyPageOf(info: Pick<CertificateInfo, 'linkId' | 'certificateUrl'>): string {
  const at = info.certificateUrl.lastIndexOf('/');
  const page = info.certificateUrl.slice(0, Math.max(0, at)).replace(/\/(feather|badge|certificate)$/, '');
  return `${page}/verify/${encodeURIComponent(info.linkId)}`;
}

/**
 * LinkedIn's 'Add to profile' link for an award: name the award's title, the issuer, the 1-based month and
 * year it was earned, certUrl the verify page (so the profile entry points at verifiable proof) and certId
 * the link id.
 */
export function awardLinkedInUrl(
  info: AwardNames &
    Pick<CertificateInfo, 'linkId' | 'certificateUrl' | 'orgId' | 'completetedYear' | 'completetedMonth'>,
): string {
  return linkedInUrlForAward({ ...info, certificateUrl: verifyPageOf(info), title: awardTitle(info) });
}
