/**
 * A form's complaint in the reader's language (issue 31, decision 052). zod's own messages are English
 * ('Too small: expected string to have >=1 characters'); here each issue zod raises without a message of
 * the schema's own is said by its code and what it names (minimum, maximum, format…) through the
 * catalogues' `forms.*` messages. A schema's own message is a key of the catalogues (said as it is) or one
 * of the few English ones the shared schemas still carry for the server and the CLI ('Required', 'must be
 * at most 100 characters'), found here by its words.
 *
 * The portal and the elements pass `formWordsIn(translator)` as the parse's `error` (zodResolver's second
 * argument: `useFormWords()`); the server says its 400s' fields with the same words and sends their code.
 */
import type { MessageKey } from './keys';
import { type LocalMessage, localMessage } from './message';
import type { MessageValues, Translator } from './translator';

/** The parts of a zod issue the words depend on (a raw issue, before zod gives it a message, or a final one). */
export interface IssueLike {
  readonly code?: string;
  readonly input?: unknown;
  readonly message?: string;
  readonly origin?: string;
  readonly expected?: string;
  readonly format?: string;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly inclusive?: boolean;
  readonly exact?: boolean;
  readonly divisor?: unknown;
  readonly keys?: readonly string[];
}

const COUNTED = new Set(['string', 'array', 'set', 'map', 'file']);
const NUMERIC = new Set(['number', 'int', 'bigint']);

/** A bound as a value of a message: a number, or (a bigint, a date) its text. */
function bound(value: unknown): string | number {
  if (typeof value === 'number') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

function tooSmall(issue: IssueLike, empty: boolean): LocalMessage {
  const minimum = bound(issue.minimum);
  if (issue.origin === 'string') {
    if (empty || minimum === 1) return localMessage('forms.required');
    return issue.exact
      ? localMessage('forms.exactLength', { length: minimum })
      : localMessage('forms.tooShort', { minimum });
  }
  if (issue.origin && COUNTED.has(issue.origin)) return localMessage('forms.tooFew', { minimum });
  if (issue.origin && NUMERIC.has(issue.origin)) {
    return localMessage(issue.inclusive === false ? 'forms.moreThan' : 'forms.atLeast', { minimum });
  }
  return localMessage('forms.invalid');
}

function tooBig(issue: IssueLike): LocalMessage {
  const maximum = bound(issue.maximum);
  if (issue.origin === 'string') {
    return issue.exact
      ? localMessage('forms.exactLength', { length: maximum })
      : localMessage('forms.tooLong', { maximum });
  }
  if (issue.origin && COUNTED.has(issue.origin)) return localMessage('forms.tooMany', { maximum });
  if (issue.origin && NUMERIC.has(issue.origin)) {
    return localMessage(issue.inclusive === false ? 'forms.lessThan' : 'forms.atMost', { maximum });
  }
  return localMessage('forms.invalid');
}

function badFormat(issue: IssueLike): LocalMessage {
  if (issue.format === 'email') return localMessage('forms.email');
  if (issue.format === 'url') return localMessage('forms.url');
  return localMessage('forms.format');
}

/** Nothing entered: no value, or (a form's text field) only spaces. */
const isEmpty = (input: unknown) =>
  input === undefined || input === null || (typeof input === 'string' && input.trim() === '');

/**
 * The words of an issue zod raised with no message of the schema's own, by its code. `missing` says
 * whether the field had no value (a raw issue knows from its input; a final one has no input).
 */
export function issueWords(issue: IssueLike, missing = isEmpty(issue.input)): LocalMessage {
  switch (issue.code) {
    case 'invalid_type':
      if (missing) return localMessage('forms.required');
      return localMessage('forms.invalidType', { expected: issue.expected ?? 'other' });
    case 'too_small':
      return tooSmall(issue, missing);
    case 'too_big':
      return tooBig(issue);
    case 'invalid_format':
      return badFormat(issue);
    case 'invalid_value':
      return localMessage('forms.choose');
    case 'not_multiple_of':
      return localMessage('forms.multipleOf', { divisor: bound(issue.divisor) });
    case 'unrecognized_keys':
      return localMessage('forms.unknownFields', {
        count: issue.keys?.length ?? 0,
        keys: (issue.keys ?? []).join(', '),
      });
    default:
      return localMessage('forms.invalid');
  }
}

/** The English the shared schemas still give as their own message, and its words (see `ownWords`). */
const OWN_ENGLISH: readonly [RegExp, (m: RegExpMatchArray) => LocalMessage][] = [
  [/^\*?Required\*?$/i, () => localMessage('forms.required')],
  [/^(\w+ )?is required$/, () => localMessage('forms.required')],
  [/^Invalid email address$/, () => localMessage('auth.emailInvalid')],
  [
    /^must be at most ([\d,]+) characters$/,
    (m) => localMessage('forms.tooLong', { maximum: Number(m[1]!.replaceAll(',', '')) }),
  ],
  [/^must be an address such as (\S+)$/, (m) => localMessage('forms.addressSuchAs', { example: m[1]! })],
  [/^must be an https address$/, () => localMessage('forms.httpsAddress')],
  [/^must name at least one deployment id$/, () => localMessage('lms.needsDeployment')],
  [/^must be a URL \(the issuer your identity provider shows\)$/, () => localMessage('forms.issuerUrl')],
  [
    /^must be a URL \(where your identity provider publishes its metadata\)$/,
    () => localMessage('forms.metadataUrl'),
  ],
  [/^must be the six digits we mailed$/, () => localMessage('forms.sixDigits')],
  [/^must be an e-mail address$/, () => localMessage('forms.email')],
  [
    /^must be admin, administrator, hostmaster, postmaster or webmaster$/,
    () => localMessage('forms.mailbox'),
  ],
  [/^must be a number of days$/, () => localMessage('forms.days')],
  [/^must be a whole number of days$/, () => localMessage('forms.wholeDays')],
  [
    /^must be at least ([\d,]+) days?$/,
    (m) => localMessage('forms.atLeastDays', { minimum: Number(m[1]!.replaceAll(',', '')) }),
  ],
  [
    /^must be at most ([\d,]+) days?$/,
    (m) => localMessage('forms.atMostDays', { maximum: Number(m[1]!.replaceAll(',', '')) }),
  ],
  [
    /^must be at most ([\d,]+)$/,
    (m) => localMessage('forms.atMost', { maximum: Number(m[1]!.replaceAll(',', '')) }),
  ],
];

/**
 * The words of a message a schema gives itself, or the server sends: a key of the catalogues (`isKey`
 * tells), or English of `OWN_ENGLISH`; null for any other text, which stays as it is.
 */
export function ownWords(message: string, isKey: (text: string) => boolean): LocalMessage | null {
  if (isKey(message)) return localMessage(message as MessageKey);
  for (const [pattern, words] of OWN_ENGLISH) {
    const m = message.match(pattern);
    if (m) return words(m);
  }
  return null;
}

/** Whether `text` is a key of `translator`'s catalogue (a key missing from it comes back as it is). */
export const isKeyOf = (translator: Pick<Translator, 't'>) => (text: string) =>
  /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+$/.test(text) && translator.t(text as MessageKey) !== text;

/** Says words with `translator`. */
export const say = (translator: Pick<Translator, 't'>, words: LocalMessage) =>
  translator.t(words.key, words.values as MessageValues | undefined);

/**
 * The parse option that gives every issue without a message of the schema's own its words in
 * `translator`'s language: `schema.safeParse(values, formWordsIn(t))`, `zodResolver(schema, formWordsIn(t))`.
 */
export function formWordsIn(translator: Pick<Translator, 't'>) {
  return { error: (issue: IssueLike) => say(translator, issueWords(issue)) };
}

/**
 * A field's message as the form shows it: a key of the catalogues or a schema's English said in the
 * reader's language; any other text (already said in it, or a server's words it cannot say) as it is.
 */
export function fieldText(translator: Pick<Translator, 't'>, message: string): string {
  const words = ownWords(message, isKeyOf(translator));
  return words ? say(translator, words) : message;
}

/** What a 400 says of each field: its words (`fields`) and their codes (`fieldCodes`, decision 052). */
export interface FieldRefusal {
  readonly fields?: Readonly<Record<string, string>>;
  readonly fieldCodes?: Readonly<Record<string, { code: string; params?: MessageValues }>>;
}

/**
 * A refusal's field messages as a form shows them: each said from the catalogue by its code, where this
 * page knows the code; else the server's words (said in the request's language already).
 */
export function fieldTextsOf(
  translator: Pick<Translator, 't'>,
  refusal: FieldRefusal,
): Record<string, string> {
  const isKey = isKeyOf(translator);
  return Object.fromEntries(
    Object.entries(refusal.fields ?? {}).map(([field, text]) => {
      const coded = refusal.fieldCodes?.[field];
      if (!coded || !isKey(coded.code)) return [field, text];
      return [field, translator.t(coded.code as MessageKey, coded.params)];
    }),
  );
}
