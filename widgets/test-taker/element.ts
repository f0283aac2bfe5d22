/**
 * <wm-test-taker> — takes a Waymark test by its link id: 'Ready to Take Test?' with its warnings, then
 * question by question with Prev, Next, numbered navigation and Finish, a countdown on the server's clock,
 * every answer saved as it is given (a reload resumes where the learner was), evaluation on the server,
 * the score gauge and the award earned; or the screen of a link that cannot be taken (Link Expired,
 * Test Completed, Assessment Not Yet Started, Something Went Wrong). No sign-in is needed: the link id is
 * the capability. While it runs it reports the test's focus record (the page left and back, pastes into
 * an answer, a second tab, the connection lost and back), as the Ready screen tells the taker; with the
 * test open in two tabs of one browser, one tab is in charge and the other saves nothing.
 *
 * @attr api-base - The Waymark server's URL, e.g. https://waymark.example.com (default: the origin this file was loaded from).
 * @attr link-id - The test link's id, as in /test/{linkId} (required).
 * @attr heading-level - 1 (default) when the test is the page's main content, 2 inside another page.
 *
 * @event wm-state - The screen changed. detail: { linkId, state } with state one of loading, ready, starting, started, open-elsewhere (the test is open in another tab, which saves the answers; this one saves nothing until 'Continue in this tab'), evaluating, score, expired, completed, not-yet-started, error. A host can warn before leaving while it is started.
 * @event wm-start - The test started, or a started test was opened again. detail: { linkId, deadlineAt, questionCount, resumed }.
 * @event wm-evaluated - The test was evaluated on the server. detail: { linkId, testType, score, percentage, questionCount, status, certificateEligible, awardHref }.
 * @event wm-open-award - The award link was activated. detail: { linkId, award, href }. Cancelable: the default opens the award page on Waymark.
 * @event wm-home - Home or 'generate a new link' was activated. detail: { href }. Cancelable: the default opens that page on Waymark.
 * @event wm-error - The test could not be loaded or started (the expired, completed and not-yet-open screens included). detail: { message, status? }.
 *
 * @slot - None: the element renders everything itself.
 *
 * @csspart test - The panel around each screen.
 * @csspart start-button - Start.
 * @csspart timer - The time left.
 * @csspart save-status - Saving, saved, or not saved yet with Retry now.
 * @csspart other-tab - The notice that the test is also open in another tab.
 * @csspart take-over-button - 'Continue in this tab', where the test is open in another tab.
 * @csspart nav - The numbered question buttons.
 * @csspart question - The current question.
 * @csspart option - One option of a choice question.
 * @csspart answer-input - The text box of a fill-in-the-blank question.
 * @csspart finish-button - Finish.
 * @csspart gauge - The score gauge.
 * @csspart award - The award step.
 * @csspart award-link - View Feather, View Badge or View Certificate.
 * @csspart error - An error message.
 *
 * @cssprop --wm-primary - Buttons, the current question and the timer (default #3730a3).
 * @cssprop --wm-primary-soft - Chosen options and the timer's background.
 * @cssprop --wm-success - The gauge from 60 % and saved answers.
 * @cssprop --wm-warning - The gauge below 60 %.
 * @cssprop --wm-danger - The last minute and failed saves.
 * @cssprop --wm-text - Text colour.
 * @cssprop --wm-muted - Secondary text colour.
 * @cssprop --wm-surface - Panel background.
 * @cssprop --wm-radius - Corner radius of panels.
 * @cssprop --wm-font - Font family.
 * @cssprop --wm-test-max-width - The widest the panel gets (default 860px).
 */
import { defineWidgetElement } from '../embed/define-element';
import { TestTakerProps } from './props';
import { TestTaker } from './TestTaker';
import css from './test-taker.css?inline';

defineWidgetElement({
  tag: 'wm-test-taker',
  component: TestTaker,
  props: TestTakerProps,
  css,
});
