/**
 * What a test link that cannot be taken says (learner §2, mentor §4 "Test page flow"), written once: the
 * server sends these messages with their errorCode (in the reader's language, decision 040), and the test
 * page shows the same statement by the code, with the advice to generate a new link as a link of its own,
 * instead of taking the server's text apart.
 */
import type { MessageKey } from '../i18n/keys';
import { type LocalMessage, localMessage } from '../i18n/message';
import { retakeMessage } from './retakes';

/** The statement of a spent link, by its errorCode (410), without the advice. */
export const LINK_GONE = {
  LINK_EXPIRED: 'test.link.expired',
  TEST_COMPLETED: 'test.link.completed',
} as const satisfies Record<string, MessageKey>;
export type LinkGoneCode = keyof typeof LINK_GONE;

/** The time a custom test opens, as the 403 ASSESSMENT_NOT_YET_STARTED names it. */
const utcMinute = (at: Date) => `${at.toISOString().replace('T', ' ').slice(0, 16)} UTC`;

/** The messages of the test-link errors, as the server sends them. */
export const LINK_MESSAGES = {
  expired: localMessage('test.link.expiredAdvice'),
  completed: localMessage('test.link.completedAdvice'),
  notYetStarted: (start: Date): LocalMessage =>
    localMessage('test.link.notYetStarted', { at: utcMinute(start) }),
  notStarted: localMessage('test.link.notStarted'),
  notYours: localMessage('test.link.notYours'),
  /** A write without the attempt's token (ATTEMPT_TOKEN_REQUIRED, ATTEMPT_TOKEN_INVALID; decision 031). */
  heldElsewhere: localMessage('test.link.heldElsewhere'),
  retakeCooldown: retakeMessage,
} as const;
