/**
 * A tenant's sandbox (decision 041): the words that mark it wherever it shows — the test page and
 * <wm-test-taker>, the award pages, images and <wm-award>, the portal's sandbox page, the CLI — and the
 * server's refusal of a sandbox award's credential. One place, so each says the same: `SANDBOX_TEXT` in
 * English (the CLI, the logs), `SANDBOX_WORDS` their keys in the catalogues, which the pages, the elements
 * and the server's answers say in the reader's language (sandbox.unit.test.ts holds the two equal).
 */
import type { MessageKey } from '../i18n/keys';

export const SANDBOX_TEXT = {
  /** The mark on every sandbox page and award. */
  mark: 'Sandbox',
  /** Beside the mark on a test. */
  test: 'Sandbox test: its attempts are reset by the mentor; no award it gives is a credential.',
  /** In place of the credential's mark under a sandbox award. */
  award: 'Sandbox award: not a credential',
  /** The credential calls' 404 (errorCode SANDBOX_AWARD) for a sandbox award. */
  notCredential:
    'This is a sandbox award: Waymark issues no credential for it, so there is nothing to verify.',
  /** The refusal of a reset when the tenant has no sandbox. */
  none: 'You have no sandbox yet: create one first.',
} as const;

/** The keys of `SANDBOX_TEXT`'s words in the catalogues. */
export const SANDBOX_WORDS = {
  mark: 'sandbox.mark',
  test: 'sandbox.testNote',
  award: 'sandbox.awardNote',
  notCredential: 'sandbox.notCredential',
  none: 'sandbox.none',
} as const satisfies Record<keyof typeof SANDBOX_TEXT, MessageKey>;

/** The domain of the demo learners' addresses: reserved (RFC 2606), so no mailbox or identity can have it. */
export const SANDBOX_EMAIL_DOMAIN = 'sandbox.waymark.invalid';
