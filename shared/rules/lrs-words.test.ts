/**
 * The LRS test's result said by code (issue 31, decision 048): the English the API's `message` keeps is
 * en.json's text of the code with the same values.
 */
import { english } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../i18n/translator';
import { LRS_CODES, lrsSaid } from './lrs-words';

const en = createTranslator('en', english);

describe("the LRS test's words", () => {
  it('say in English what en.json says of each code', () => {
    const said = [
      lrsSaid('xapi.result.stored', {}),
      lrsSaid('xapi.result.answered', { status: 401 }),
      lrsSaid('xapi.result.answeredBody', { status: 400, body: '{"error": "bad actor"}' }),
      lrsSaid('xapi.result.refused', { reason: 'the address is private' }),
      lrsSaid('xapi.result.noAnswer', { reason: 'timed out after 10 s' }),
    ];
    expect(said.map((s) => s.code).sort()).toEqual([...LRS_CODES].sort());
    for (const s of said) expect(en.t(s.code, s.params)).toBe(s.message);
  });
});
