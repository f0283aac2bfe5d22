/**
 * The Open Badges 3.0 data model's required properties (1EdTech, Open Badges Specification v3.0, §B.1
 * "Data Models": AchievementCredential / OpenBadgeCredential, AchievementSubject, Achievement, Criteria,
 * Profile, IdentityObject, Image, Evidence, Result, ResultDescription), checked on a credential's JSON.
 * Multiplicities follow the spec's tables: a property of multiplicity 1 must be present, and `type` must
 * include the class's own name. Returns every problem in words a person can read, each followed by the
 * property's path.
 */

type Json = Record<string, unknown>;

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

/** The n-th, in words: 'first', 'second' … 'tenth', then '11th'. */
const ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
];
const nth = (i: number) => ORDINALS[i] ?? `${i + 1}th`;

/**
 * The problems of a credential against the OB 3.0 data model, each in words a person can read followed by
 * the property's path in parentheses ("the achievement has no description
 * (credentialSubject.achievement.description)"); empty when it conforms.
 */
export function openBadgeProblems(credential: unknown): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, words: string, path: string) => {
    if (!ok) problems.push(`${words} (${path})`);
  };
  if (!isObject(credential)) return ['the credential is not a JSON object'];
  const typed = (obj: Json, name: string, what: string, path: string) =>
    need(
      asList(obj.type).includes(name),
      `${what} does not say it is ${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name} (its type must include "${name}")`,
      `${path}.type`,
    );

  const contexts = asList(credential['@context']);
  need(
    contexts[0] === 'https://www.w3.org/ns/credentials/v2' ||
      contexts[0] === 'https://www.w3.org/2018/credentials/v1',
    'the credential does not start with the W3C Verifiable Credentials context',
    '@context',
  );
  need(
    contexts.some((c) => typeof c === 'string' && c.startsWith(OB_CONTEXT_PREFIX)),
    'the credential does not use the Open Badges 3.0 context',
    '@context',
  );
  need(isUri(credential.id), 'the credential has no identifier that is a URI', 'id');
  const types = asList(credential.type);
  need(
    types.includes('VerifiableCredential'),
    'the credential does not say it is a VerifiableCredential',
    'type',
  );
  need(
    claimsOpenBadge(credential),
    'the credential does not say it is an OpenBadgeCredential or AchievementCredential',
    'type',
  );
  need(isText(credential.name), 'the credential has no name', 'name');
  const vc2 = contexts[0] === 'https://www.w3.org/ns/credentials/v2';
  if (vc2)
    need(
      isDateTime(credential.validFrom),
      'the date it was issued is missing or not a date and time with a time zone',
      'validFrom',
    );
  else
    need(
      isDateTime(credential.issuanceDate),
      'the date it was issued is missing or not a date and time with a time zone',
      'issuanceDate',
    );
  if (credential.validUntil !== undefined)
    need(isDateTime(credential.validUntil), 'the date it expires is not a date and time', 'validUntil');

  // issuer: Profile [1]
  if (!isObject(credential.issuer)) {
    need(
      false,
      'the issuer is not described as a Profile (an object with an id and type "Profile")',
      'issuer',
    );
  } else {
    need(isUri(credential.issuer.id), "the issuer's identifier is not a URI", 'issuer.id');
    typed(credential.issuer, 'Profile', 'the issuer', 'issuer');
  }

  // credentialSubject: AchievementSubject [1]
  const subject = credential.credentialSubject;
  if (!isObject(subject)) {
    need(
      false,
      'the recipient and what they achieved are not described (an AchievementSubject)',
      'credentialSubject',
    );
  } else {
    typed(subject, 'AchievementSubject', 'the recipient', 'credentialSubject');
    const identifiers = asList(subject.identifier);
    need(
      isUri(subject.id) || identifiers.length > 0,
      'the recipient is not identified: it needs an id or at least one identifier',
      'credentialSubject',
    );
    identifiers.forEach((entry, i) => {
      const path = `credentialSubject.identifier.${i}`;
      const what = `the recipient's ${nth(i)} identifier`;
      if (!isObject(entry)) {
        need(false, `${what} is not an IdentityObject`, path);
        return;
      }
      need(entry.type === 'IdentityObject', `${what} does not say it is an IdentityObject`, `${path}.type`);
      need(
        typeof entry.hashed === 'boolean',
        `${what} does not say whether it is hashed (true or false)`,
        `${path}.hashed`,
      );
      need(isText(entry.identityHash), `${what} has no value`, `${path}.identityHash`);
      need(
        typeof entry.identityType === 'string' &&
          (IDENTIFIER_TYPES.has(entry.identityType) || entry.identityType.startsWith('ext:')),
        `${what} is of no known kind (its identityType must be one of the IdentifierTypeEnum values)`,
        `${path}.identityType`,
      );
      if (entry.hashed === true)
        need(
          typeof entry.identityHash === 'string' &&
            /^(sha256\$[0-9a-f]{64}|md5\$[0-9a-f]{32})$/.test(entry.identityHash),
          `${what} says it is hashed, but its value is not "sha256$" and a hex digest`,
          `${path}.identityHash`,
        );
      if (entry.salt !== undefined)
        need(typeof entry.salt === 'string', `${what} has a salt that is not text`, `${path}.salt`);
    });
    const achievement = subject.achievement;
    const a = 'credentialSubject.achievement';
    if (!isObject(achievement)) {
      need(false, 'what was achieved is not described (an Achievement)', a);
    } else {
      need(isUri(achievement.id), "the achievement's identifier is not a URI", `${a}.id`);
      typed(achievement, 'Achievement', 'the achievement', a);
      need(isText(achievement.name), 'the achievement has no name', `${a}.name`);
      need(isText(achievement.description), 'the achievement has no description', `${a}.description`);
      if (!isObject(achievement.criteria)) {
        need(false, 'the achievement does not say how it is earned (its criteria)', `${a}.criteria`);
      } else {
        need(
          isUri(achievement.criteria.id) || isText(achievement.criteria.narrative),
          "the achievement's criteria have neither an address nor a narrative",
          `${a}.criteria`,
        );
      }
      if (achievement.achievementType !== undefined) {
        const t = achievement.achievementType;
        need(
          typeof t === 'string' && (ACHIEVEMENT_TYPES.has(t) || t.startsWith('ext:')),
          'the kind of achievement is not one of the AchievementType values',
          `${a}.achievementType`,
        );
      }
      if (achievement.image !== undefined)
        imageProblems(achievement.image, "the achievement's image", `${a}.image`, need);
      if (achievement.creator !== undefined) {
        const c = achievement.creator;
        if (!isObject(c)) need(false, "the achievement's creator is not a Profile", `${a}.creator`);
        else {
          need(isUri(c.id), "the achievement's creator has no identifier that is a URI", `${a}.creator.id`);
          typed(c, 'Profile', "the achievement's creator", `${a}.creator`);
        }
      }
      asList(achievement.resultDescription).forEach((d, i) => {
        const path = `${a}.resultDescription.${i}`;
        const what = `the achievement's ${nth(i)} result description`;
        if (!isObject(d)) {
          need(false, `${what} is not a ResultDescription`, path);
          return;
        }
        need(isUri(d.id), `${what} has no identifier that is a URI`, `${path}.id`);
        typed(d, 'ResultDescription', what, path);
        need(isText(d.name), `${what} has no name`, `${path}.name`);
        need(isText(d.resultType), `${what} does not say what kind of result it is`, `${path}.resultType`);
      });
    }
    asList(subject.result).forEach((r, i) => {
      const path = `credentialSubject.result.${i}`;
      const what = `the recipient's ${nth(i)} result`;
      if (!isObject(r)) {
        need(false, `${what} is not a Result`, path);
        return;
      }
      typed(r, 'Result', what, path);
    });
  }

  asList(credential.evidence).forEach((e, i) => {
    const path = `evidence.${i}`;
    const what = `the ${nth(i)} piece of evidence`;
    if (!isObject(e)) {
      need(false, `${what} is not an Evidence object`, path);
      return;
    }
    typed(e, 'Evidence', what, path);
  });
  if (credential.image !== undefined)
    imageProblems(credential.image, "the credential's image", 'image', need);
  return problems;
}

function imageProblems(
  image: unknown,
  what: string,
  path: string,
  need: (ok: boolean, words: string, path: string) => void,
) {
  if (!isObject(image)) {
    need(false, `${what} is not an Image (an object with an id and type "Image")`, path);
    return;
  }
  need(isUri(image.id), `${what} has no address that is a URI`, `${path}.id`);
  need(
    image.type === 'Image',
    `${what} does not say it is an Image (its type must be "Image")`,
    `${path}.type`,
  );
}
