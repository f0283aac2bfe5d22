/**
 * The Open Badges 3.0 data model's required properties (1EdTech, Open Badges Specification v3.0, §B.1
 * "Data Models": AchievementCredential / OpenBadgeCredential, AchievementSubject, Achievement, Criteria,
 * Profile, IdentityObject, Image, Evidence, Result, ResultDescription), checked on a credential's JSON.
 * Multiplicities follow the spec's tables: a property of multiplicity 1 must be present, and `type` must
 * include the class's own name. Returns every problem in words a person can read, each followed by the
 * property's path.
 */

import { type ParamsOf, type Said, said, type What, type WordCode } from './words';

type Json = Record<string, unknown>;

const VC_V2 = 'https://www.w3.org/ns/credentials/v2';
const VC_V1 = 'https://www.w3.org/2018/credentials/v1';

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
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

/** Records a problem unless `ok`. */
type Need = <C extends WordCode>(ok: boolean, code: C, ...params: ParamsOf<C>) => void;

/** That `obj`'s type includes `name` (an OB 3.0 class). */
const typed = (need: Need, obj: Json, name: string, what: What, path: string, n = 1) =>
  need(asList(obj.type).includes(name), 'verify.ob.typed', { what, n, type: name, path: `${path}.type` });

/** The credential's own properties: its contexts, id, types, name and dates. */
function credentialRules(credential: Json, need: Need) {
  const contexts = asList(credential['@context']);
  need(contexts[0] === VC_V2 || contexts[0] === VC_V1, 'verify.ob.vcContext', { path: '@context' });
  need(
    contexts.some((c) => typeof c === 'string' && c.startsWith(OB_CONTEXT_PREFIX)),
    'verify.ob.obContext',
    { path: '@context' },
  );
  need(isUri(credential.id), 'verify.ob.id', { path: 'id' });
  need(asList(credential.type).includes('VerifiableCredential'), 'verify.ob.vcType', { path: 'type' });
  need(claimsOpenBadge(credential), 'verify.ob.obType', { path: 'type' });
  need(isText(credential.name), 'verify.ob.name', { path: 'name' });
  const issued = contexts[0] === VC_V2 ? 'validFrom' : 'issuanceDate';
  need(isDateTime(credential[issued]), 'verify.ob.issued', { path: issued });
  if (credential.validUntil !== undefined)
    need(isDateTime(credential.validUntil), 'verify.ob.expires', { path: 'validUntil' });
}

/** issuer: Profile [1]. */
function issuerRules(issuer: unknown, need: Need) {
  if (!isObject(issuer)) {
    need(false, 'verify.ob.issuerProfile', { path: 'issuer' });
    return;
  }
  need(isUri(issuer.id), 'verify.ob.issuerId', { path: 'issuer.id' });
  typed(need, issuer, 'Profile', 'issuer', 'issuer');
}

/** credentialSubject.identifier[i]: IdentityObject. */
function identifierRules(entry: unknown, i: number, need: Need) {
  const path = `credentialSubject.identifier.${i}`;
  const n = i + 1;
  if (!isObject(entry)) {
    need(false, 'verify.ob.identifierObject', { n, path });
    return;
  }
  need(entry.type === 'IdentityObject', 'verify.ob.identifierType', { n, path: `${path}.type` });
  need(typeof entry.hashed === 'boolean', 'verify.ob.identifierHashed', { n, path: `${path}.hashed` });
  need(isText(entry.identityHash), 'verify.ob.identifierValue', { n, path: `${path}.identityHash` });
  need(
    typeof entry.identityType === 'string' &&
      (IDENTIFIER_TYPES.has(entry.identityType) || entry.identityType.startsWith('ext:')),
    'verify.ob.identifierKind',
    { n, path: `${path}.identityType` },
  );
  if (entry.hashed === true)
    need(
      typeof entry.identityHash === 'string' &&
        /^(sha256\$[0-9a-f]{64}|md5\$[0-9a-f]{32})$/.test(entry.identityHash),
      'verify.ob.identifierHash',
      { n, path: `${path}.identityHash` },
    );
  if (entry.salt !== undefined)
    need(typeof entry.salt === 'string', 'verify.ob.identifierSalt', { n, path: `${path}.salt` });
}

/** achievement.resultDescription[i]: ResultDescription. */
function resultDescriptionRules(d: unknown, i: number, need: Need) {
  const path = `${ACHIEVEMENT}.resultDescription.${i}`;
  const n = i + 1;
  if (!isObject(d)) {
    need(false, 'verify.ob.resultDescription', { n, path });
    return;
  }
  need(isUri(d.id), 'verify.ob.resultDescriptionId', { n, path: `${path}.id` });
  typed(need, d, 'ResultDescription', 'resultDescription', path, n);
  need(isText(d.name), 'verify.ob.resultDescriptionName', { n, path: `${path}.name` });
  need(isText(d.resultType), 'verify.ob.resultDescriptionType', { n, path: `${path}.resultType` });
}

const ACHIEVEMENT = 'credentialSubject.achievement';

/** credentialSubject.achievement: Achievement [1], with its Criteria, image, creator and result descriptions. */
function achievementRules(achievement: unknown, need: Need) {
  const a = ACHIEVEMENT;
  if (!isObject(achievement)) {
    need(false, 'verify.ob.achievement', { path: a });
    return;
  }
  need(isUri(achievement.id), 'verify.ob.achievementId', { path: `${a}.id` });
  typed(need, achievement, 'Achievement', 'achievement', a);
  need(isText(achievement.name), 'verify.ob.achievementName', { path: `${a}.name` });
  need(isText(achievement.description), 'verify.ob.achievementDescription', { path: `${a}.description` });
  if (!isObject(achievement.criteria)) need(false, 'verify.ob.criteria', { path: `${a}.criteria` });
  else
    need(
      isUri(achievement.criteria.id) || isText(achievement.criteria.narrative),
      'verify.ob.criteriaEmpty',
      { path: `${a}.criteria` },
    );
  if (achievement.achievementType !== undefined) {
    const t = achievement.achievementType;
    need(
      typeof t === 'string' && (ACHIEVEMENT_TYPES.has(t) || t.startsWith('ext:')),
      'verify.ob.achievementType',
      {
        path: `${a}.achievementType`,
      },
    );
  }
  if (achievement.image !== undefined) imageRules(achievement.image, 'achievementImage', `${a}.image`, need);
  if (achievement.creator !== undefined) {
    const c = achievement.creator;
    if (!isObject(c)) need(false, 'verify.ob.creator', { path: `${a}.creator` });
    else {
      need(isUri(c.id), 'verify.ob.creatorId', { path: `${a}.creator.id` });
      typed(need, c, 'Profile', 'creator', `${a}.creator`);
    }
  }
  for (const [i, d] of asList(achievement.resultDescription).entries()) resultDescriptionRules(d, i, need);
}

/** credentialSubject: AchievementSubject [1]. */
function subjectRules(subject: unknown, need: Need) {
  if (!isObject(subject)) {
    need(false, 'verify.ob.subject', { path: 'credentialSubject' });
    return;
  }
  typed(need, subject, 'AchievementSubject', 'recipient', 'credentialSubject');
  const identifiers = asList(subject.identifier);
  need(isUri(subject.id) || identifiers.length > 0, 'verify.ob.recipientId', { path: 'credentialSubject' });
  for (const [i, entry] of identifiers.entries()) identifierRules(entry, i, need);
  achievementRules(subject.achievement, need);
  asList(subject.result).forEach((r, i) => {
    const path = `credentialSubject.result.${i}`;
    if (!isObject(r)) need(false, 'verify.ob.result', { n: i + 1, path });
    else typed(need, r, 'Result', 'result', path, i + 1);
  });
}

/**
 * The problems of a credential against the OB 3.0 data model, each by its code with the property's path
 * (./words.ts); empty when it conforms.
 */
export function openBadgeFindings(credential: unknown): Said[] {
  const problems: Said[] = [];
  const need: Need = (ok, code, ...params) => {
    if (!ok) problems.push(said(code, ...params));
  };
  if (!isObject(credential)) return [said('verify.ob.notObject')];
  credentialRules(credential, need);
  issuerRules(credential.issuer, need);
  subjectRules(credential.credentialSubject, need);
  asList(credential.evidence).forEach((e, i) => {
    const path = `evidence.${i}`;
    if (!isObject(e)) need(false, 'verify.ob.evidence', { n: i + 1, path });
    else typed(need, e, 'Evidence', 'evidence', path, i + 1);
  });
  if (credential.image !== undefined) imageRules(credential.image, 'credentialImage', 'image', need);
  return problems;
}

/**
 * The problems of a credential against the OB 3.0 data model, each in words a person can read followed by
 * the property's path in parentheses ("the achievement has no description
 * (credentialSubject.achievement.description)"); empty when it conforms.
 */
export const openBadgeProblems = (credential: unknown): string[] =>
  openBadgeFindings(credential).map((p) => p.message);

function imageRules(image: unknown, what: What, path: string, need: Need) {
  if (!isObject(image)) {
    need(false, 'verify.ob.image', { what, n: 1, path });
    return;
  }
  need(isUri(image.id), 'verify.ob.imageId', { what, n: 1, path: `${path}.id` });
  need(image.type === 'Image', 'verify.ob.imageType', { what, n: 1, path: `${path}.type` });
}
