/** The test page's words (mentor §2.14, §4; spelling as docs/copy-errata.json records) and test-type labels. */
import { NEW_LINK_ADVICE } from '@shared/rules/test-links';
import type { TestType } from '@shared/schemas/assessment';

export const TEST_TEXT = {
  ready: 'Ready to Take Test?',
  warnings: [
    'Keep a stable internet connection.',
    'Do not refresh, reload or press back.',
    'Do not switch tab.',
  ],
  finish: 'Do you want to finish?',
  notEnough: 'Not enough score to generate certificate',
  newLinkBefore: NEW_LINK_ADVICE.before,
  newLink: NEW_LINK_ADVICE.link,
  error: 'Something Went Wrong',
  resumed: 'Welcome back: your answers are kept, and the clock kept running.',
  recorded:
    'While the test runs, leaving its tab or window, pasting into an answer, opening it in a second tab and going offline are recorded with their times. You and your mentor see them beside your answers, as context.',
  elsewhere: 'This test is open in another tab',
  elsewhereText:
    'Your answers are saved from the other tab only, so nothing you answered there is overwritten from here. Go back to that tab, or continue in this one: the other tab then stops saving.',
  takeOver: 'Continue in this tab',
  alsoOpen:
    'This test is also open in another tab. Only this tab saves your answers; the other one shows a notice.',
  heldElsewhere: 'This test is open in another browser',
  heldElsewhereText:
    'It was started, or continued, in another browser, and only that browser saves its answers: nothing is saved from here. Go back to it to go on with the test.',
  moveHereText:
    'Or continue in this browser: the other one then stops saving, and every answer it saved is kept.',
  moveHere: 'Continue in this browser',
  moving: 'Opening the test here…',
  signInToMove:
    'If this test is yours, sign in to Waymark in this browser and open its link again to continue it here.',
} as const;

export const TYPE_LABELS: Partial<Record<TestType, string>> = {
  RESOURCE: 'Resource assessment',
  'RESOURCE-FROM-WHATSAPP': 'Resource assessment',
  SECTION: 'Section assessment',
  ROADMAP: 'Final assessment',
  SUBJECT: 'Subject assessment',
  'CUSTOM-TEST': 'Assessment',
};
