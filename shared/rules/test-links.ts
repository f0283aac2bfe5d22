/**
 * What a test link that cannot be taken says (learner §2, mentor §4 "Test page flow"), written once: the
 * server sends these messages with their errorCode, and the test page shows the same statement by the code,
 * with the advice to generate a new link as a link of its own, instead of taking the server's text apart.
 */
import { retakeMessage } from './retakes';

/** The advice after a link that is spent, in the parts the test page renders (the middle one is a link). */
export const NEW_LINK_ADVICE = {
  before: 'If you like to take a test, ',
  link: 'generate a new link',
  after: '.',
} as const;
const advice = `${NEW_LINK_ADVICE.before}${NEW_LINK_ADVICE.link}${NEW_LINK_ADVICE.after}`;

/** The statement of a spent link, by its errorCode (410), without the advice. */
export const LINK_GONE = {
  LINK_EXPIRED: 'This test link has expired.',
  TEST_COMPLETED: 'This test is already completed.',
} as const;
export type LinkGoneCode = keyof typeof LINK_GONE;

/** The time a custom test opens, as the 403 ASSESSMENT_NOT_YET_STARTED names it. */
const utcMinute = (at: Date) => `${at.toISOString().replace('T', ' ').slice(0, 16)} UTC`;

/** The messages of the test-link errors, as the server sends them. */
export const LINK_MESSAGES = {
  expired: `${LINK_GONE.LINK_EXPIRED} ${advice}`,
  completed: `${LINK_GONE.TEST_COMPLETED} ${advice}`,
  notYetStarted: (start: Date) => `This assessment has not started yet. It starts at ${utcMinute(start)}.`,
  notStarted: 'Start the test first.',
  notYours: 'This test belongs to another person.',
  /** A write without the attempt's token (ATTEMPT_TOKEN_REQUIRED, ATTEMPT_TOKEN_INVALID; decision 031). */
  heldElsewhere:
    'This test is being taken in another browser, and only that browser can save its answers. Continue it there, or sign in as the learner it is for to continue it here.',
  retakeCooldown: retakeMessage,
} as const;
