/**
 * What the learning record store's test answered, by a stable code — its key in the message catalogues
 * (decision 048) — with the values it names, beside the English the API's `message` keeps. The integrations
 * page says the code in the reader's language; the LRS's own words (its answer's body, a network error)
 * stay as they were written. lrs-words.test.ts holds the English catalogue equal to this table.
 */
type P<K extends string> = Readonly<Record<K, string | number>>;

const ENGLISH = {
  'xapi.result.stored': () => 'The learning record store stored the test statement.',
  'xapi.result.answered': (p: P<'status'>) => `The learning record store answered ${p.status}.`,
  'xapi.result.answeredBody': (p: P<'status' | 'body'>) =>
    `The learning record store answered ${p.status}: ${p.body}`,
  'xapi.result.refused': (p: P<'reason'>) => `Refused: ${p.reason}.`,
  'xapi.result.noAnswer': (p: P<'reason'>) => `No answer: ${p.reason}.`,
} as const;

export type LrsCode = keyof typeof ENGLISH;
export const LRS_CODES = Object.keys(ENGLISH) as [LrsCode, ...LrsCode[]];
type ParamsOf<C extends LrsCode> = Parameters<(typeof ENGLISH)[C]>[0] extends undefined
  ? Record<string, never>
  : Parameters<(typeof ENGLISH)[C]>[0];

/** A result by its code and values, with its English. */
export function lrsSaid<C extends LrsCode>(code: C, params: ParamsOf<C>) {
  const english = (ENGLISH[code] as (p: unknown) => string)(params);
  return { code, params: params as Readonly<Record<string, string | number>>, message: english };
}
