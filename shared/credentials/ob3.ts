/**
 * The Open Badges 3.0 data model's required properties (1EdTech, Open Badges Specification v3.0, §B.1
 * "Data Models": AchievementCredential / OpenBadgeCredential, AchievementSubject, Achievement, Criteria,
 * Profile, IdentityObject, Image, Evidence, Result, ResultDescription), checked on a credential's JSON.
 * Multiplicities follow the spec's tables: a property of multiplicity 1 must be present, and `type` must
 * include the class's own name. Returns every problem in words, naming the property's path.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const isUri = (v: unknown) => typeof v === 'string' && /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(v);
const isText = (v: unknown) => typeof v === 'string' && v.trim() !== '';
/** XML Schema dateTime with a time zone, as VC 2.0 and OB 3.0 require (`2026-03-01T10:00:00Z`). */
const isDateTime = (v: unknown) =>
  typeof v === 'string' &&
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
  !Number.isNaN(Date.parse(v));

/** OB 3.0 IdentifierTypeEnum. */
const IDENTIFIER_TYPES = new Set([
  'name',
  'sourcedId',
  'systemId',
  'productId',
  'userName',
  'accountId',
  'emailAddress',
  'nationalIdentityNumber',
  'isbn',
  'issuerId',
  'lisSourcedId',
  'oneRosterSourcedId',
  'sisSourcedId',
  'ledgerId',
  'identifier',
]);

/** OB 3.0 AchievementType enumeration (an `ext:` value extends it). */
export const ACHIEVEMENT_TYPES = new Set([
  'Achievement',
  'ApprenticeshipCertificate',
  'Assessment',
  'Assignment',
  'AssociateDegree',
  'Award',
  'Badge',
  'BachelorDegree',
  'Certificate',
  'CertificateOfCompletion',
  'Certification',
  'CommunityService',
  'Competency',
  'Course',
  'CoCurricular',
  'Degree',
  'Diploma',
  'DoctoralDegree',
  'Fieldwork',
  'GeneralEducationDevelopment',
  'JourneymanCertificate',
  'LearningProgram',
  'License',
  'Membership',
  'ProfessionalDoctorate',
  'QualityAssuranceCredential',
  'MasterCertificate',
  'MasterDegree',
  'MicroCredential',
  'ResearchDoctorate',
  'SecondarySchoolDiploma',
]);

export const OB_CONTEXT_PREFIX = 'https://purl.imsglobal.org/spec/ob/v3p0/context';

/** Whether the credential says it is an Open Badge (OpenBadgeCredential or AchievementCredential). */
export function claimsOpenBadge(credential: unknown): boolean {
  if (!isObject(credential)) return false;
  const types = asList(credential.type);
  return types.includes('OpenBadgeCredential') || types.includes('AchievementCredential');
}

/** The problems of a credential against the OB 3.0 data model; empty when it conforms. */
export function openBadgeProblems(credential: unknown): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, message: string) => {
    if (!ok) problems.push(message);
  };
  if (!isObject(credential)) return ['the credential is not a JSON object'];
  const typed = (obj: Json, name: string, path: string) =>
    need(asList(obj.type).includes(name), `${path}.type must include "${name}"`);

  const contexts = asList(credential['@context']);
  need(
    contexts[0] === 'https://www.w3.org/ns/credentials/v2' ||
      contexts[0] === 'https://www.w3.org/2018/credentials/v1',
    '@context must start with the W3C Verifiable Credentials context',
  );
  need(
    contexts.some((c) => typeof c === 'string' && c.startsWith(OB_CONTEXT_PREFIX)),
    '@context must include the Open Badges 3.0 context',
  );
  need(isUri(credential.id), 'id must be a URI');
  const types = asList(credential.type);
  need(types.includes('VerifiableCredential'), 'type must include "VerifiableCredential"');
  need(claimsOpenBadge(credential), 'type must include "OpenBadgeCredential" or "AchievementCredential"');
  need(isText(credential.name), 'name is required');
  const vc2 = contexts[0] === 'https://www.w3.org/ns/credentials/v2';
  if (vc2) need(isDateTime(credential.validFrom), 'validFrom must be a date-time with a time zone');
  else need(isDateTime(credential.issuanceDate), 'issuanceDate must be a date-time with a time zone');
  if (credential.validUntil !== undefined)
    need(isDateTime(credential.validUntil), 'validUntil must be a date-time');

  // issuer: Profile [1]
  if (!isObject(credential.issuer)) {
    problems.push('issuer must be a Profile object (with id and type "Profile")');
  } else {
    need(isUri(credential.issuer.id), 'issuer.id must be a URI');
    typed(credential.issuer, 'Profile', 'issuer');
  }

  // credentialSubject: AchievementSubject [1]
  const subject = credential.credentialSubject;
  if (!isObject(subject)) {
    problems.push('credentialSubject must be an AchievementSubject object');
  } else {
    typed(subject, 'AchievementSubject', 'credentialSubject');
    const identifiers = asList(subject.identifier);
    need(
      isUri(subject.id) || identifiers.length > 0,
      'credentialSubject must have an id or at least one identifier',
    );
    identifiers.forEach((entry, i) => {
      const path = `credentialSubject.identifier.${i}`;
      if (!isObject(entry)) {
        problems.push(`${path} must be an IdentityObject`);
        return;
      }
      need(entry.type === 'IdentityObject', `${path}.type must be "IdentityObject"`);
      need(typeof entry.hashed === 'boolean', `${path}.hashed must be true or false`);
      need(isText(entry.identityHash), `${path}.identityHash is required`);
      need(
        typeof entry.identityType === 'string' &&
          (IDENTIFIER_TYPES.has(entry.identityType) || entry.identityType.startsWith('ext:')),
        `${path}.identityType must be one of the IdentifierTypeEnum values`,
      );
      if (entry.hashed === true)
        need(
          typeof entry.identityHash === 'string' &&
            /^(sha256\$[0-9a-f]{64}|md5\$[0-9a-f]{32})$/.test(entry.identityHash),
          `${path}.identityHash must be "sha256$" and the hex digest when hashed`,
        );
      if (entry.salt !== undefined) need(typeof entry.salt === 'string', `${path}.salt must be a string`);
    });
    const achievement = subject.achievement;
    if (!isObject(achievement)) {
      problems.push('credentialSubject.achievement must be an Achievement object');
    } else {
      const a = 'credentialSubject.achievement';
      need(isUri(achievement.id), `${a}.id must be a URI`);
      typed(achievement, 'Achievement', a);
      need(isText(achievement.name), `${a}.name is required`);
      need(isText(achievement.description), `${a}.description is required`);
      if (!isObject(achievement.criteria)) {
        problems.push(`${a}.criteria must be a Criteria object`);
      } else {
        need(
          isUri(achievement.criteria.id) || isText(achievement.criteria.narrative),
          `${a}.criteria must have an id or a narrative`,
        );
      }
      if (achievement.achievementType !== undefined) {
        const t = achievement.achievementType;
        need(
          typeof t === 'string' && (ACHIEVEMENT_TYPES.has(t) || t.startsWith('ext:')),
          `${a}.achievementType must be one of the AchievementType values`,
        );
      }
      if (achievement.image !== undefined) imageProblems(achievement.image, `${a}.image`, problems);
      if (achievement.creator !== undefined) {
        const c = achievement.creator;
        if (!isObject(c)) problems.push(`${a}.creator must be a Profile object`);
        else {
          need(isUri(c.id), `${a}.creator.id must be a URI`);
          typed(c, 'Profile', `${a}.creator`);
        }
      }
      const descriptions = asList(achievement.resultDescription);
      descriptions.forEach((d, i) => {
        const path = `${a}.resultDescription.${i}`;
        if (!isObject(d)) {
          problems.push(`${path} must be a ResultDescription`);
          return;
        }
        need(isUri(d.id), `${path}.id must be a URI`);
        typed(d, 'ResultDescription', path);
        need(isText(d.name), `${path}.name is required`);
        need(isText(d.resultType), `${path}.resultType is required`);
      });
    }
    asList(subject.result).forEach((r, i) => {
      const path = `credentialSubject.result.${i}`;
      if (!isObject(r)) {
        problems.push(`${path} must be a Result`);
        return;
      }
      typed(r, 'Result', path);
    });
  }

  asList(credential.evidence).forEach((e, i) => {
    const path = `evidence.${i}`;
    if (!isObject(e)) {
      problems.push(`${path} must be an Evidence object`);
      return;
    }
    typed(e, 'Evidence', path);
  });
  if (credential.image !== undefined) imageProblems(credential.image, 'image', problems);
  return problems;
}

function imageProblems(image: unknown, path: string, problems: string[]) {
  if (!isObject(image)) {
    problems.push(`${path} must be an Image object (id and type "Image")`);
    return;
  }
  if (!isUri(image.id)) problems.push(`${path}.id must be a URI`);
  if (image.type !== 'Image') problems.push(`${path}.type must be "Image"`);
}
