/**
 * A delivery's or an entry's error in the reader's language (issue 31): by its codes, a date as the
 * language writes it, the receiver's words as they were; the server's English when there are no codes or
 * one this portal does not know.
 */
import { english } from 'virtual:wm-messages';
import { createTranslator } from '@shared/i18n/translator';
import { beforeAll, describe, expect, it } from 'vitest';
import { translatorIn } from '../../testing/render';
import { errorText } from './errorWords';

type Failed = Parameters<typeof errorText>[1];

let es: Awaited<ReturnType<typeof translatorIn>>;
beforeAll(async () => {
  es = await translatorIn('es');
});

describe('errorText', () => {
  it('says each sentence from its code, the date in the reader’s language', () => {
    const e: Failed = {
      error:
        'The endpoint was disabled: No delivery has succeeded since 2026-03-01T09:00:00.000Z: the endpoint failed for 3 days.',
      errorParts: [
        { code: 'deliveries.error.disabledFailing', params: { since: '2026-03-01T09:00:00.000Z', days: 3 } },
      ],
    };
    expect(errorText(es, e)).toMatch(
      /^El endpoint se desactivó: ninguna entrega .* desde .*2026.* 3 días\.$/,
    );
    expect(errorText(es, e)).not.toContain('2026-03-01T09');
  });

  it('keeps what the receiver said inside the sentence', () => {
    const e: Failed = {
      error: 'Refused: the address is private. Given up after 10 attempts.',
      errorParts: [
        { code: 'xapi.result.refused', params: { reason: 'the address is private' } },
        { code: 'deliveries.error.givenUp', params: { attempts: 10 } },
      ],
    };
    expect(errorText(es, e)).toBe('Rechazado: the address is private. Abandonado tras 10 intentos.');
  });

  it('shows the server’s English for an error without codes, or with a code it does not know', () => {
    const en = createTranslator('en', english);
    expect(errorText(es, { error: 'The endpoint answered 500.', errorParts: null })).toBe(
      'The endpoint answered 500.',
    );
    const newer: Failed = {
      error: 'Something new.',
      errorParts: [{ code: 'deliveries.error.fromANewerServer', params: {} }],
    };
    expect(errorText(es, newer)).toBe('Something new.');
    expect(errorText(en, { error: null, errorParts: null })).toBeNull();
  });
});
