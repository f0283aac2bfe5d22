/**
 * A delivery's error said by code (issue 31, decision 048): the English a row's `last_error` keeps is en.json's
 * text of its codes with the same values, joined by a space.
 */
import { english } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../i18n/translator';
import { DELIVERY_CODES, deliveryError, deliverySaid } from './delivery-words';

const en = createTranslator('en', english);

describe("a delivery's words", () => {
  it('say in English what en.json says of each code', () => {
    const said = [
      deliverySaid('deliveries.error.eventGone', {}),
      deliverySaid('deliveries.error.otherTenant', {}),
      deliverySaid('deliveries.error.tooLarge', { kb: 256 }),
      deliverySaid('deliveries.error.answered', { status: 503 }),
      deliverySaid('deliveries.error.redirect', { status: 301 }),
      deliverySaid('deliveries.error.redirectTo', { status: 308, location: 'https://b.example/in' }),
      deliverySaid('deliveries.error.givenUp', { attempts: 10 }),
      deliverySaid('deliveries.error.disabled', {}),
      deliverySaid('deliveries.error.disabledGone', {}),
      deliverySaid('deliveries.error.disabledFailing', { since: '2026-03-01T09:00:00.000Z', days: 3 }),
      deliverySaid('deliveries.error.lrsHolds', {}),
      deliverySaid('deliveries.error.lrsAnswered', { status: 502 }),
      deliverySaid('deliveries.error.lrsAnsweredBody', { status: 400, body: '{"error": "bad actor"}' }),
      deliverySaid('deliveries.error.notResent', {}),
    ];
    expect(said.map((s) => s.code).sort()).toEqual([...DELIVERY_CODES].sort());
    for (const s of said) expect(en.t(s.code, s.params)).toBe(deliveryError(s).message);
  });

  it('join sentences as the stored English had them', () => {
    const e = deliveryError(
      { code: 'xapi.result.noAnswer', params: { reason: 'timed out after 10 s' } },
      deliverySaid('deliveries.error.givenUp', { attempts: 10 }),
    );
    expect(e.message).toBe('No answer: timed out after 10 s. Given up after 10 attempts.');
    expect(e.parts.map((p) => en.t(p.code, p.params)).join(' ')).toBe(e.message);
  });
});
