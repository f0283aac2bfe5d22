/** The sandbox's English words (the CLI's, the logs') and the catalogue's English are the same words. */
import { describe, expect, it } from 'vitest';
import english from '../i18n/messages/en.json';
import spanish from '../i18n/messages/es.json';
import { SANDBOX_TEXT, SANDBOX_WORDS } from './sandbox';

describe("the sandbox's words", () => {
  it.each(Object.keys(SANDBOX_TEXT) as (keyof typeof SANDBOX_TEXT)[])(
    '%s is the catalogue’s English',
    (name) => {
      expect(english[SANDBOX_WORDS[name]]).toBe(SANDBOX_TEXT[name]);
      expect(spanish[SANDBOX_WORDS[name]]).not.toBe(SANDBOX_TEXT[name]);
    },
  );
});
