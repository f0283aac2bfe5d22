/**
 * What the verifier says — each check's finding, the report's summary, each Open Badges problem — by a
 * stable code, its key in the message catalogues (decision 048), with the values it names. The English
 * here is what the API's `detail`/`summary` and the CLI keep; the portal says the code in its reader's
 * language. words.test.ts holds the English catalogue equal to it.
 */
import type { MessageKey } from '../i18n/keys';
import type { MessageValues } from '../i18n/translator';

/** 'proof' for the one proof, 'proof 2 of 3' when there are several. */
const nth = (p: { index: number; count: number }) =>
  p.count > 1 ? `proof ${p.index} of ${p.count}` : 'proof';
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
/** The n-th (1-based), in words: 'first' … 'tenth', then '11th'. */
const ordinal = (n: number) => ORDINALS[n - 1] ?? `${n}th`;
const EVERY_PROOF = 'Every proof must hold for a credential to be valid.';
const DI = 'this verifier checks Data Integrity proofs with the eddsa-rdfc-2022 cryptosuite';

type P<K extends string> = Readonly<Record<K, string>>;
type N<K extends string> = Readonly<Record<K, number>>;

/**
 * What `verify.ob.typed` and `verify.ob.image*` name: the thing whose type or image is wrong (`what`, a
 * select in the catalogues) and, for those of a list, which one (`n`, from 1).
 */
const WHAT = {
  issuer: () => 'the issuer',
  recipient: () => 'the recipient',
  achievement: () => 'the achievement',
  creator: () => "the achievement's creator",
  resultDescription: (n: number) => `the achievement's ${ordinal(n)} result description`,
  result: (n: number) => `the recipient's ${ordinal(n)} result`,
  evidence: (n: number) => `the ${ordinal(n)} piece of evidence`,
  achievementImage: () => "the achievement's image",
  credentialImage: () => "the credential's image",
};
export type What = keyof typeof WHAT;

const ENGLISH = {
  // what was given is no credential at all
  'verify.read.empty': () => 'Nothing to verify: paste a credential or choose a file.',
  'verify.read.jwt': () =>
    'This is a JWT (a VC secured with JOSE). This verifier checks JSON-LD credentials with a Data Integrity proof, as Waymark issues them.',
  'verify.read.tooDeep': (p: N<'depth'>) =>
    `This JSON nests deeper than ${p.depth} levels: no credential does.`,
  'verify.read.notObject': () => 'This JSON is not a credential: a credential is a JSON object.',
  'verify.read.notJson': (p: P<'reason'>) => `This is not valid JSON (${p.reason}).`,
  'verify.read.pngEmpty': () =>
    'This PNG image holds no credential (no openbadgecredential chunk). Download the baked image from the award page.',
  'verify.read.notPng': (p: P<'reason'>) => p.reason,
  'verify.read.jpeg': () =>
    'This is a JPEG image: credentials are baked into PNG images only. Use the award’s baked PNG or its JSON.',
  // the report's summary
  'verify.summary.valid': () =>
    'This credential is valid: it is authentic, unchanged since it was signed, and not revoked.',
  'verify.summary.revoked': () =>
    'This credential was revoked by its issuer: it is authentic but no longer stands.',
  'verify.summary.tampered': () =>
    'This credential was altered after it was signed: its content does not match its signature.',
  'verify.summary.unknownIssuer': () =>
    "This credential's issuer could not be confirmed: its DID or signing key could not be found.",
  'verify.summary.expired': () => 'This credential has expired.',
  'verify.summary.notYetValid': () => 'This credential is not valid yet.',
  'verify.summary.malformed': () => 'This is not a credential that can be verified.',
  'verify.summary.notVc': () => 'This is not a verifiable credential:',
  'verify.summary.signedOtherwise': () => 'This credential is signed in a way this verifier does not check.',
  'verify.summary.tooManyProofs': () => 'This credential carries more proofs than this verifier checks.',
  'verify.summary.uncheckableProof': () =>
    'This credential carries a proof this verifier cannot check, so it cannot be called valid.',
  'verify.summary.wrongSigner': () => 'This credential was not signed by the issuer it names.',
  'verify.summary.unknownContext': () =>
    'This credential uses a JSON-LD context this verifier does not hold.',
  'verify.summary.proofMismatch': (p: N<'count' | 'index'>) =>
    `This credential carries ${p.count} proofs and proof ${p.index} does not match its content: every proof must hold for it to be valid.`,
  'verify.summary.statusUnknown': () =>
    'This credential is authentic and unchanged, but whether it was revoked could not be checked.',
  'verify.summary.foreign': (p: P<'issuer' | 'local'>) => `It was issued by ${p.issuer}, not by ${p.local}.`,
  'verify.summary.foreignNamed': (p: P<'issuer' | 'name' | 'local'>) =>
    `It was issued by ${p.issuer}, which calls itself “${p.name}”, not by ${p.local}.`,
  // 1. a Verifiable Credential at all
  'verify.check.notObject': () => 'It is not a JSON object.',
  'verify.check.noContext': () => 'It has no @context: it is not a JSON-LD credential.',
  'verify.check.contextNotVc': () => '@context does not start with the W3C Verifiable Credentials context.',
  'verify.check.typeNotVc': () => 'type does not include "VerifiableCredential".',
  'verify.check.noIssuer': () => 'It names no issuer.',
  'verify.check.noSubject': () => 'It has no credentialSubject.',
  'verify.check.noProof': () => 'It has no proof: it was never signed.',
  'verify.check.isVc': (p: P<'version' | 'types'>) =>
    `A W3C Verifiable Credential (data model ${p.version}) of type ${p.types}.`,
  // 2. Open Badges 3.0
  'verify.check.openBadge': () => 'Has every property the Open Badges 3.0 data model requires.',
  'verify.check.notOpenBadge': () =>
    'Not an Open Badge (no OpenBadgeCredential or AchievementCredential type).',
  'verify.check.openBadgeProblems': (p: P<'problems'>) =>
    `Does not follow the Open Badges 3.0 data model: ${p.problems}.`,
  // 3. the issuer and the proofs it signed
  'verify.check.signedWith': (p: P<'kinds'>) => `It is signed with ${p.kinds}; ${DI}.`,
  'verify.check.signedUnknown': () => `It is signed with an unknown proof; ${DI}.`,
  'verify.check.tooManyProofs': (p: N<'count' | 'max'>) =>
    `It carries ${p.count} proofs; this verifier checks at most ${p.max}, and every one must hold.`,
  'verify.check.proofNotObject': (p: N<'index' | 'count'>) =>
    `Its ${nth(p)} is not a proof object. ${EVERY_PROOF}`,
  'verify.check.proofKind': (p: N<'index' | 'count'> & P<'kind'>) =>
    `Its ${nth(p)} is a proof of the kind ${p.kind}, which this verifier does not check (it checks Data Integrity proofs with the eddsa-rdfc-2022 cryptosuite). ${EVERY_PROOF}`,
  'verify.check.proofNoKind': (p: N<'index' | 'count'>) =>
    `Its ${nth(p)} is a proof of no known kind, which this verifier does not check (it checks Data Integrity proofs with the eddsa-rdfc-2022 cryptosuite). ${EVERY_PROOF}`,
  'verify.check.proofChained': (p: N<'index' | 'count'>) =>
    `Its ${nth(p)} is chained to an earlier proof (previousProof), which this verifier does not check. ${EVERY_PROOF}`,
  'verify.check.proofNoMethod': (p: N<'index' | 'count'>) =>
    `Its ${nth(p)} names no verification method. ${EVERY_PROOF}`,
  'verify.check.issuerNotDid': (p: P<'issuer'>) =>
    `The issuer ${p.issuer} is not a DID, so its key cannot be looked up.`,
  'verify.check.didNotResolved': (p: P<'reason'>) => p.reason,
  'verify.check.issuerUnresolved': (p: P<'issuer' | 'reason'>) =>
    `${p.issuer} could not be resolved: ${p.reason}`,
  'verify.check.foreignKey': (p: P<'method' | 'issuer'>) =>
    `The proof was made with ${p.method}, a key of someone other than the issuer ${p.issuer}.`,
  'verify.check.keyNotListed': (p: P<'issuer' | 'method'>) =>
    `${p.issuer} resolved, but it does not list the signing key ${p.method} for issuing credentials.`,
  'verify.check.issuerOwn': (p: P<'issuer' | 'local' | 'methods'>) =>
    `${p.issuer} resolved (${p.local}); it lists the signing key ${p.methods} for issuing credentials.`,
  'verify.check.issuerNameClaim': (p: P<'issuer' | 'methods' | 'local' | 'name'>) =>
    `${p.issuer} resolved and lists the signing key ${p.methods}, but it is not ${p.local}: it calls itself “${p.name}”, and that name is only its own claim.`,
  'verify.check.issuerResolved': (p: P<'issuer' | 'methods'>) =>
    `${p.issuer} resolved; it lists the signing key ${p.methods} for issuing credentials.`,
  'verify.check.issuerResolvedNotLocal': (p: P<'issuer' | 'methods' | 'local'>) =>
    `${p.issuer} resolved; it lists the signing key ${p.methods} for issuing credentials. It is not ${p.local}.`,
  // 4. the signature
  'verify.check.contextRefused': (p: P<'reason'>) =>
    `${p.reason} Contexts are never fetched from the network.`,
  'verify.check.proofMismatch': (p: N<'index' | 'count'> & P<'reason'>) =>
    `The Data Integrity ${nth(p)} does not match the content (${p.reason}).`,
  'verify.check.proofMatches': () =>
    'The Data Integrity proof (eddsa-rdfc-2022, Ed25519) matches every statement of the credential.',
  'verify.check.proofsMatch': (p: N<'count'>) =>
    `All ${p.count} Data Integrity proofs (eddsa-rdfc-2022, Ed25519) match every statement of the credential.`,
  // 5. the dates
  'verify.check.validOnlyFrom': (p: P<'date'>) => `Valid only from ${p.date}.`,
  'verify.check.expiredOn': (p: P<'date'>) => `Expired on ${p.date}.`,
  'verify.check.validFromUntil': (p: P<'from' | 'until'>) => `Valid from ${p.from} until ${p.until}.`,
  'verify.check.validFrom': (p: P<'from'>) => `Valid from ${p.from}, with no end date.`,
  'verify.check.validUntil': (p: P<'until'>) => `Valid from its issue until ${p.until}.`,
  'verify.check.validAlways': () => 'Valid from its issue, with no end date.',
  'verify.check.skipped': () => 'Not checked: an earlier step failed.',
  // 6. the status list
  'verify.check.noStatusList': () => 'It has no status list: its issuer cannot revoke it.',
  'verify.check.statusKind': (p: P<'types'>) =>
    `Its status (${p.types}) is of a kind this verifier does not read.`,
  'verify.check.statusNoAddress': () => 'Its status entry has no status list address or index.',
  'verify.check.statusUnread': (p: P<'url' | 'reason'>) =>
    `Its status list ${p.url} could not be read (${p.reason}).`,
  'verify.check.notStatusList': (p: P<'url'>) => `${p.url} is not a Bitstring Status List credential.`,
  'verify.check.statusOtherIssuer': (p: P<'url' | 'issuer'>) =>
    `The status list ${p.url} was issued by someone else (${p.issuer}).`,
  'verify.check.statusUnsigned': (p: P<'url'>) => `The status list ${p.url} is not signed by the issuer.`,
  'verify.check.statusPurpose': (p: P<'url' | 'purpose' | 'expected'>) =>
    `The status list ${p.url} is for ${p.purpose}, not ${p.expected}.`,
  'verify.check.statusUndecodable': (p: P<'url'>) => `The status list ${p.url} cannot be decoded.`,
  'verify.check.statusBeyond': (p: N<'index' | 'size'>) =>
    `Its index ${p.index} is beyond the status list's ${p.size} entries.`,
  'verify.check.statusMarked': (p: P<'purpose' | 'url' | 'source'> & N<'index'>) =>
    `Marked ${p.purpose === 'suspension' ? 'suspended' : 'revoked'} in the issuer's status list (${p.url}, entry ${p.index}, read from ${p.source}).`,
  'verify.check.statusClear': (p: P<'purpose' | 'url' | 'source'> & N<'index'>) =>
    `Not ${p.purpose === 'suspension' ? 'suspended' : 'revoked'}: entry ${p.index} of ${p.url} is clear (read from ${p.source}).`,
  // the Open Badges 3.0 data model, each problem followed by the property's path
  'verify.ob.notObject': () => 'the credential is not a JSON object',
  'verify.ob.vcContext': (p: P<'path'>) =>
    `the credential does not start with the W3C Verifiable Credentials context (${p.path})`,
  'verify.ob.obContext': (p: P<'path'>) =>
    `the credential does not use the Open Badges 3.0 context (${p.path})`,
  'verify.ob.id': (p: P<'path'>) => `the credential has no identifier that is a URI (${p.path})`,
  'verify.ob.vcType': (p: P<'path'>) =>
    `the credential does not say it is a VerifiableCredential (${p.path})`,
  'verify.ob.obType': (p: P<'path'>) =>
    `the credential does not say it is an OpenBadgeCredential or AchievementCredential (${p.path})`,
  'verify.ob.name': (p: P<'path'>) => `the credential has no name (${p.path})`,
  'verify.ob.issued': (p: P<'path'>) =>
    `the date it was issued is missing or not a date and time with a time zone (${p.path})`,
  'verify.ob.expires': (p: P<'path'>) => `the date it expires is not a date and time (${p.path})`,
  'verify.ob.issuerProfile': (p: P<'path'>) =>
    `the issuer is not described as a Profile (an object with an id and type "Profile") (${p.path})`,
  'verify.ob.issuerId': (p: P<'path'>) => `the issuer's identifier is not a URI (${p.path})`,
  'verify.ob.typed': (p: { what: What; n: number; type: string; path: string }) =>
    `${WHAT[p.what](p.n)} does not say it is ${/^[AEIOU]/.test(p.type) ? 'an' : 'a'} ${p.type} (its type must include "${p.type}") (${p.path})`,
  'verify.ob.subject': (p: P<'path'>) =>
    `the recipient and what they achieved are not described (an AchievementSubject) (${p.path})`,
  'verify.ob.recipientId': (p: P<'path'>) =>
    `the recipient is not identified: it needs an id or at least one identifier (${p.path})`,
  'verify.ob.identifierObject': (p: N<'n'> & P<'path'>) =>
    `the recipient's ${ordinal(p.n)} identifier is not an IdentityObject (${p.path})`,
  'verify.ob.identifierType': (p: N<'n'> & P<'path'>) =>
    `the recipient's ${ordinal(p.n)} identifier does not say it is an IdentityObject (${p.path})`,
  'verify.ob.identifierHashed': (p: N<'n'> & P<'path'>) =>
    `the recipient's ${ordinal(p.n)} identifier does not say whether it is hashed (true or false) (${p.path})`,
  'verify.ob.identifierValue': (p: N<'n'> & P<'path'>) =>
    `the recipient's ${ordinal(p.n)} identifier has no value (${p.path})`,
  'verify.ob.identifierKind': (p: N<'n'> & P<'path'>) =>
    `the recipient's ${ordinal(p.n)} identifier is of no known kind (its identityType must be one of the IdentifierTypeEnum values) (${p.path})`,
  'verify.ob.identifierHash': (p: N<'n'> & P<'path'>) =>
    `the recipient's ${ordinal(p.n)} identifier says it is hashed, but its value is not "sha256$" and a hex digest (${p.path})`,
  'verify.ob.identifierSalt': (p: N<'n'> & P<'path'>) =>
    `the recipient's ${ordinal(p.n)} identifier has a salt that is not text (${p.path})`,
  'verify.ob.achievement': (p: P<'path'>) =>
    `what was achieved is not described (an Achievement) (${p.path})`,
  'verify.ob.achievementId': (p: P<'path'>) => `the achievement's identifier is not a URI (${p.path})`,
  'verify.ob.achievementName': (p: P<'path'>) => `the achievement has no name (${p.path})`,
  'verify.ob.achievementDescription': (p: P<'path'>) => `the achievement has no description (${p.path})`,
  'verify.ob.criteria': (p: P<'path'>) =>
    `the achievement does not say how it is earned (its criteria) (${p.path})`,
  'verify.ob.criteriaEmpty': (p: P<'path'>) =>
    `the achievement's criteria have neither an address nor a narrative (${p.path})`,
  'verify.ob.achievementType': (p: P<'path'>) =>
    `the kind of achievement is not one of the AchievementType values (${p.path})`,
  'verify.ob.creator': (p: P<'path'>) => `the achievement's creator is not a Profile (${p.path})`,
  'verify.ob.creatorId': (p: P<'path'>) =>
    `the achievement's creator has no identifier that is a URI (${p.path})`,
  'verify.ob.resultDescription': (p: N<'n'> & P<'path'>) =>
    `the achievement's ${ordinal(p.n)} result description is not a ResultDescription (${p.path})`,
  'verify.ob.resultDescriptionId': (p: N<'n'> & P<'path'>) =>
    `the achievement's ${ordinal(p.n)} result description has no identifier that is a URI (${p.path})`,
  'verify.ob.resultDescriptionName': (p: N<'n'> & P<'path'>) =>
    `the achievement's ${ordinal(p.n)} result description has no name (${p.path})`,
  'verify.ob.resultDescriptionType': (p: N<'n'> & P<'path'>) =>
    `the achievement's ${ordinal(p.n)} result description does not say what kind of result it is (${p.path})`,
  'verify.ob.result': (p: N<'n'> & P<'path'>) =>
    `the recipient's ${ordinal(p.n)} result is not a Result (${p.path})`,
  'verify.ob.evidence': (p: N<'n'> & P<'path'>) =>
    `the ${ordinal(p.n)} piece of evidence is not an Evidence object (${p.path})`,
  'verify.ob.image': (p: { what: What; n: number; path: string }) =>
    `${WHAT[p.what](p.n)} is not an Image (an object with an id and type "Image") (${p.path})`,
  'verify.ob.imageId': (p: { what: What; n: number; path: string }) =>
    `${WHAT[p.what](p.n)} has no address that is a URI (${p.path})`,
  'verify.ob.imageType': (p: { what: What; n: number; path: string }) =>
    `${WHAT[p.what](p.n)} does not say it is an Image (its type must be "Image") (${p.path})`,
} satisfies Partial<Record<MessageKey, (p: never) => string>>;

export type WordCode = keyof typeof ENGLISH;
export type ParamsOf<C extends WordCode> = Parameters<(typeof ENGLISH)[C]>;

/** A finding in words: its code, its values, and its English. */
export interface Said {
  code: WordCode;
  params?: MessageValues;
  message: string;
}

/** Says `code` with its values. */
export function said<C extends WordCode>(code: C, ...params: ParamsOf<C>): Said {
  const values = params[0] as MessageValues | undefined;
  return {
    code,
    ...(values ? { params: values } : {}),
    message: (ENGLISH[code] as (p?: MessageValues) => string)(values),
  };
}

/** Every code and its English (for the test that holds the catalogue equal). */
export const WORD_CODES = Object.keys(ENGLISH) as WordCode[];
export const englishOf = (code: WordCode, params?: MessageValues) =>
  (ENGLISH[code] as (p?: MessageValues) => string)(params);
