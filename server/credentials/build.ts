/**
 * The Open Badges 3.0 credential of an award (1EdTech OB 3.0 on the W3C VC Data Model 2.0), before it is
 * signed: the issuer profile (this Waymark, naming the mentor's organisation when the test was on a roadmap
 * a mentor assigned, which is then also the achievement's creator), the achievement (type by level, name, description, criteria with
 * the pass rule, image), the learner (a salted SHA-256 of the e-mail as an IdentityObject, and the name),
 * validFrom (when it was earned), validUntil (when the test has a validity period: decision 037), the result and evidence (level, score, percentage, date) and the
 * credential's status list entry.
 */
import { createHash, randomBytes } from 'node:crypto';
import { OB_V3_CONTEXT, VC_V2_CONTEXT } from '@shared/credentials/contexts';
import { AWARD_KIND_LABELS, achievementOf, achievementScope } from '@shared/rules/award';
import { awardKindOf } from '@shared/rules/test-status';
import type { AwardKind } from '@shared/schemas/award';
import type { LinkRow } from '../assessments/tables';

export interface AwardFacts {
  link: LinkRow;
  learner: { name: string; email: string };
  /** The catalogue roadmap the link belongs to (for the criteria page). */
  roadmapId: string | null;
  /** The mentor who assigned the roadmap, or whose assessment it was, when the test was theirs. */
  mentor: { id: string; name: string } | null;
  /** When the award expires (awards/validity.ts); null: it does not. */
  validUntil: Date | null;
}

export interface IssuerProfile {
  did: string;
  name: string;
  publicUrl: string;
}

/** OB 3.0 achievementType by level. */
export const ACHIEVEMENT_TYPE: Record<AwardKind, string> = {
  feather: 'Achievement',
  badge: 'Badge',
  certificate: 'Certificate',
};

const SCOPE_WORDS = {
  resource: 'the resource',
  section: 'the section',
  roadmap: 'the roadmap',
  subject: 'the subject',
  assessment: 'the assessment',
} as const;

/** The pass rule of every award (learner §5, §9): an average of 6 of 10 points a question. */
export const PASS_PERCENT = 60;

/** A deterministic UUID (RFC 9562 version 8, name-based on SHA-256) for an achievement definition. */
function nameUuid(name: string): string {
  const h = createHash('sha256').update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** `2026-03-01T10:00:00Z`: seconds precision, as the VC data model's examples write date-times. */
export const isoSeconds = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

/** The salted hash of an e-mail address (OB 3.0 IdentityObject: `sha256$` and the hex digest). */
export function identityHash(email: string, salt: string): string {
  return `sha256$${createHash('sha256')
    .update(email.trim().toLowerCase() + salt)
    .digest('hex')}`;
}

export const credentialUrl = (publicUrl: string, awardId: string) =>
  `${publicUrl}/api/credentials/${awardId}`;
export const statusListUrl = (publicUrl: string, list: number) =>
  `${publicUrl}/api/credentials/status/${list}`;
export const verifyPageUrl = (publicUrl: string, awardId: string) => `${publicUrl}/verify/${awardId}`;

function quoted(name: string | null | undefined) {
  return name ? `“${name}”` : null;
}

/** The id of what an award is for: the resource, section, subject, mentor's assessment or roadmap. */
function achievementTargetId(link: AwardFacts['link'], scope: ReturnType<typeof achievementScope>) {
  return scope === 'resource'
    ? link.resourceId
    : scope === 'section'
      ? link.sectionId
      : scope === 'subject'
        ? link.subjectId
        : scope === 'assessment'
          ? link.tenantAssessmentId
          : link.roadmapId;
}

/** The learner as OB 3.0 IdentityObjects: the e-mail address salted and hashed, the name as it is. */
function learnerIdentifiers(learner: AwardFacts['learner'], salt: string) {
  return [
    {
      type: 'IdentityObject',
      identityHash: identityHash(learner.email, salt),
      identityType: 'emailAddress',
      hashed: true,
      salt,
    },
    { type: 'IdentityObject', identityHash: learner.name, identityType: 'name', hashed: false },
  ];
}

/** The achievement's one result: a percentage from 0 to 100, PASS_PERCENT required. */
function scoreResultDescription(resultId: string) {
  return {
    id: resultId,
    type: ['ResultDescription'],
    name: 'Score',
    resultType: 'Percent',
    valueMin: '0',
    valueMax: '100',
    requiredValue: String(PASS_PERCENT),
  };
}

/** The credential's entry at `index` of the revocation status list `statusList` (Bitstring Status List). */
function revocationStatusEntry(statusList: string, index: number) {
  return {
    id: `${statusList}#${index}`,
    type: 'BitstringStatusListEntry',
    statusPurpose: 'revocation',
    statusListIndex: String(index),
    statusListCredential: statusList,
  };
}

/** The unsigned credential of an award. */
export function buildCredential(
  facts: AwardFacts,
  issuer: IssuerProfile,
  status: { list: number; index: number },
): Record<string, unknown> {
  const { link, learner, mentor } = facts;
  const kind = awardKindOf(link.type) ?? 'certificate';
  const scope = achievementScope(link);
  const names = {
    type: link.type,
    assignedResourceName: link.assignedResourceName,
    assignedSectionName: link.assignedSectionName,
    assignedRoadMapName: link.assignedRoadMapName,
    subject: link.assignedSubjectName ? { name: link.assignedSubjectName } : null,
  };
  const achieved = achievementOf(names);
  const kindLabel = AWARD_KIND_LABELS[kind];
  const earnedAt = link.completedAt ?? link.createdAt;
  const { publicUrl } = issuer;
  const targetId = achievementTargetId(link, scope);
  const achievementId = `urn:uuid:${nameUuid(`waymark:${publicUrl}:${scope}:${targetId ?? achieved}`)}`;
  const within = [
    scope === 'resource'
      ? quoted(link.assignedSectionName) && `in the section ${quoted(link.assignedSectionName)}`
      : null,
    scope === 'resource' || scope === 'section'
      ? quoted(link.assignedRoadMapName) && `of the roadmap ${quoted(link.assignedRoadMapName)}`
      : null,
  ]
    .filter(Boolean)
    .join(' ');
  const what = `${SCOPE_WORDS[scope]} ${quoted(achieved)}${within ? ` ${within}` : ''}`;
  const percentage = Math.round((link.percentage ?? 0) * 100) / 100;
  const score = link.score ?? 0;
  const salt = randomBytes(16).toString('hex');
  const resultId = `${achievementId}#percentage`;
  const criteriaPage = facts.roadmapId ? `${publicUrl}/course-detail/${facts.roadmapId}` : null;
  const image = `${publicUrl}/api/credentials/${link.linkId}/image`;
  const statusList = statusListUrl(publicUrl, status.list);
  const testName =
    scope === 'assessment'
      ? 'assessment'
      : { feather: 'resource assessment', badge: 'section assessment', certificate: 'final assessment' }[
          kind
        ];
  const setBy = scope === 'assessment' && mentor ? ` set by ${mentor.name}` : '';
  // what was passed: 'the assessment of the section “…”', or a mentor's 'the assessment “…” set by …'
  const passed =
    scope === 'assessment' ? `the assessment ${quoted(achieved)}${setBy}` : `the assessment of ${what}`;
  const mentorRole =
    scope === 'assessment'
      ? 'the organisation that set this assessment'
      : 'the organisation that assigned this roadmap to the learner';

  return {
    '@context': [VC_V2_CONTEXT, OB_V3_CONTEXT],
    id: credentialUrl(publicUrl, link.linkId),
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: `${kindLabel}: ${achieved}`,
    description: `${learner.name} earned a ${issuer.name} ${kindLabel.toLowerCase()} for passing ${passed}.`,
    issuer: {
      id: issuer.did,
      type: ['Profile'],
      name: issuer.name,
      url: publicUrl,
      description: mentor
        ? `${issuer.name}, a learning and skills-assessment platform at ${publicUrl}, for ${mentor.name}: ${mentorRole} and whose test this was.`
        : `${issuer.name}, a learning and skills-assessment platform, at ${publicUrl}.`,
    },
    validFrom: isoSeconds(earnedAt),
    ...(facts.validUntil ? { validUntil: isoSeconds(facts.validUntil) } : {}),
    awardedDate: isoSeconds(earnedAt),
    credentialSubject: {
      type: ['AchievementSubject'],
      name: learner.name,
      identifier: learnerIdentifiers(learner, salt),
      achievement: {
        id: achievementId,
        type: ['Achievement'],
        achievementType: ACHIEVEMENT_TYPE[kind],
        name: achieved,
        description: `A ${issuer.name} ${kindLabel.toLowerCase()} (${
          { feather: 'for a resource', badge: 'for a section', certificate: `for a ${scope}` }[kind]
        }): passing ${passed}.`,
        criteria: {
          ...(criteriaPage ? { id: criteriaPage } : {}),
          narrative: `Pass the ${testName}${scope === 'assessment' ? ` ${quoted(achieved)}${setBy}` : ` of ${what}`} on ${issuer.name} with an average of at least 6 of 10 points a question (${PASS_PERCENT}%). The questions are drawn for each learner; the score is computed on the server.`,
        },
        image: { id: image, type: 'Image', caption: `${kindLabel}: ${achieved}` },
        ...(mentor
          ? {
              creator: {
                id: `urn:uuid:${nameUuid(`waymark:${publicUrl}:mentor:${mentor.id}`)}`,
                type: ['Profile'],
                name: mentor.name,
                description: `${mentorRole[0]!.toUpperCase()}${mentorRole.slice(1)} on ${issuer.name}.`,
              },
            }
          : {}),
        resultDescription: [scoreResultDescription(resultId)],
      },
      result: [{ type: ['Result'], resultDescription: resultId, value: String(percentage) }],
    },
    evidence: [
      {
        type: ['Evidence'],
        name: `${kindLabel} assessment result`,
        description: `${kindLabel} (${scope} level): ${score} of ${link.questionCount * 10} points on ${link.questionCount} questions, ${percentage}%, on ${earnedAt.toISOString().slice(0, 10)}.`,
        genre: 'Assessment result',
        narrative: `Assessed by ${issuer.name} on ${isoSeconds(earnedAt)}: level ${kind} (${scope}), score ${score} of ${link.questionCount * 10}, ${percentage}%.`,
      },
    ],
    credentialStatus: revocationStatusEntry(statusList, status.index),
  };
}
