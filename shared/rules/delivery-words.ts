/**
 * Why a webhook delivery or an xAPI statement entry failed, by stable codes — their keys in the message
 * catalogues (decision 048) — with the values they name, sentence by sentence, beside the English the row's
 * `last_error` keeps (the CLI, logs and exports read it). The Webhooks and learning record store pages say
 * the codes in the reader's language; what the receiver or the network said (an answer's body, a refusal's
 * reason, a redirect's address) stays as it was written, inside the sentence. delivery-words.test.ts holds
 * the English catalogue equal to this table.
 */
import { lrsSaid } from './lrs-words';

type P<K extends string> = Readonly<Record<K, string | number>>;

const ENGLISH = {
  'deliveries.error.eventGone': () => "The event no longer exists: its learner's account was deleted.",
  'deliveries.error.otherTenant': () => 'The event is not this tenant’s.',
  'deliveries.error.tooLarge': (p: P<'kb'>) => `The event is larger than ${p.kb} KB and is not sent.`,
  'deliveries.error.answered': (p: P<'status'>) => `The endpoint answered ${p.status}.`,
  'deliveries.error.redirect': (p: P<'status'>) =>
    `The endpoint answered ${p.status}: redirects are not followed; give the endpoint's own address.`,
  'deliveries.error.redirectTo': (p: P<'status' | 'location'>) =>
    `The endpoint answered ${p.status}: redirects are not followed; give the endpoint's own address (it points to ${p.location}).`,
  'deliveries.error.givenUp': (p: P<'attempts'>) => `Given up after ${p.attempts} attempts.`,
  'deliveries.error.disabled': () => 'The endpoint was disabled.',
  'deliveries.error.disabledGone': () =>
    'The endpoint was disabled: The endpoint answered 410 Gone: it no longer wants events.',
  'deliveries.error.disabledFailing': (p: P<'since' | 'days'>) =>
    `The endpoint was disabled: No delivery has succeeded since ${p.since}: the endpoint failed for ${p.days} days.`,
  'deliveries.error.lrsHolds': () => 'The LRS already holds these statements (409 Conflict).',
  'deliveries.error.lrsAnswered': (p: P<'status'>) => `The LRS answered ${p.status}.`,
  'deliveries.error.lrsAnsweredBody': (p: P<'status' | 'body'>) => `The LRS answered ${p.status}: ${p.body}`,
  'deliveries.error.notResent': () => 'It is not sent again until you resend it.',
} as const;

export type DeliveryCode = keyof typeof ENGLISH;
export const DELIVERY_CODES = Object.keys(ENGLISH) as [DeliveryCode, ...DeliveryCode[]];
type ParamsOf<C extends DeliveryCode> = Parameters<(typeof ENGLISH)[C]>[0] extends undefined
  ? Record<string, never>
  : Parameters<(typeof ENGLISH)[C]>[0];

/** One sentence by its code (a delivery's, or the LRS test's refusal and no answer) and its values. */
export interface DeliveryWords {
  code: DeliveryCode | 'xapi.result.refused' | 'xapi.result.noAnswer';
  params: Readonly<Record<string, string | number>>;
}

/** A failure in sentences: the codes and values the row keeps, and its English (their English joined). */
export interface DeliveryError {
  parts: DeliveryWords[];
  message: string;
}

/** One sentence by its code and values. */
export function deliverySaid<C extends DeliveryCode>(code: C, params: ParamsOf<C>): DeliveryWords {
  return { code, params: params as DeliveryWords['params'] };
}

/** The English of one sentence. */
function englishOf(w: DeliveryWords): string {
  if (w.code === 'xapi.result.refused' || w.code === 'xapi.result.noAnswer')
    return lrsSaid(w.code, w.params as { reason: string }).message;
  return (ENGLISH[w.code] as (p: unknown) => string)(w.params);
}

/** A failure of these sentences, with its English. */
export function deliveryError(...parts: DeliveryWords[]): DeliveryError {
  return { parts, message: parts.map(englishOf).join(' ') };
}
