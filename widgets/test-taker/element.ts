/** <wm-test-taker>: the element class, documented for the Custom Elements Manifest (widgets/build-embed.mjs). */
import { widgetElement } from '../embed/define-element';
import { TestTakerProps } from './props';
import { TestTaker } from './TestTaker';
import css from './test-taker.css?inline';

/**
 * Takes one Waymark test by its link id, the same way the `/test/{link-id}` page does: 'Ready to Take
 * Test?' with its warnings, then question by question (Prev, Next, numbered question buttons, Finish with a
 * confirmation), a countdown on the server's clock, every answer saved on the server as it is given (a
 * reload resumes where the learner was), evaluation on the server, the score gauge and the award earned;
 * or the screen of a link that cannot be taken (Link Expired, Test Completed, Assessment Not Yet Started,
 * Something Went Wrong). No sign-in is needed: the link id opens the test. The browser that starts it keeps
 * the attempt's token (local storage) and alone saves its answers and its focus record (the page left and
 * back, pastes into an answer, a second tab, the connection lost and back, as the Ready screen tells the
 * taker); with the test open in two tabs of that browser, one tab is in charge and the other saves nothing
 * until 'Continue in this tab'. In another browser the test shows that it is open elsewhere (continuing
 * it in that browser needs the learner's sign-in, which the portal's test page has and a partner's page
 * does not).
 *
 * @tagname wm-test-taker
 * @summary Takes a Waymark test by its link id: questions, autosave, server clock, score and award.
 *
 * @attr {string} link-id - The test link's id, as in `/test/{link-id}` (required; letters, digits, `_` and `-`, 10 to 64).
 * @attr {'1' | '2'} heading-level - `1` (default) when the test is the page's main content, `2` inside another page.
 * @attr {string} api-base - The Waymark server's URL, e.g. `https://waymark.example.com` (default: where `test-taker.js` came from).
 * @attr {'light' | 'dark' | 'auto'} theme - The colour theme: `light`, `dark`, or `auto` (the visitor's setting, `prefers-color-scheme`); without it the page's `color-scheme` decides (light unless the page says dark).
 *
 * @fires {CustomEvent<{ linkId: string; state: 'loading' | 'ready' | 'starting' | 'started' | 'open-elsewhere' | 'open-in-another-browser' | 'evaluating' | 'score' | 'expired' | 'completed' | 'not-yet-started' | 'error' }>} wm-state - The screen changed; a host can warn before leaving while it is `started`. `open-elsewhere`: the test is open in another tab, which saves the answers; this one saves nothing until 'Continue in this tab'. `open-in-another-browser`: another browser started the test (or continued it) and alone saves its answers.
 * @fires {CustomEvent<{ linkId: string; deadlineAt: string | null; questionCount: number; resumed: boolean }>} wm-start - The test started, or a started test was opened again.
 * @fires {CustomEvent<{ linkId: string; testType: string; score: number; percentage: number; questionCount: number; status: string; certificateEligible: boolean; awardHref: string | null }>} wm-evaluated - The server evaluated the test (`awardHref` is null without an award).
 * @fires {CustomEvent<{ linkId: string; award: string; href: string }>} wm-open-award - The award link was activated. **Cancelable**: the default opens the award page on Waymark.
 * @fires {CustomEvent<{ href: string }>} wm-home - Home or 'generate a new link' was activated. **Cancelable**: the default opens that page on Waymark.
 * @fires {CustomEvent<{ linkId: string; state: 'ready' | 'started' | 'open-elsewhere' | 'open-in-another-browser' | 'score' }>} wm-ready - The test's first screen is drawn (once per load): `state` is that screen.
 * @fires {CustomEvent<{ status: number; code: ErrorCode; message: string }>} wm-error - The test could not be loaded or started, with the screen's message; the expired, completed and not-yet-open screens are told too (`code` `link-expired`, `test-completed`, `not-yet-started`), without a failed request in the page's console. `status` is the HTTP status (0 when no answer was involved); `code` says what failed (docs/embed.md, "Failures").
 *
 * @csspart test - The panel of each screen.
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
 * @csspart sandbox - Above every screen of a sandbox's test: 'Sandbox' and what it means.
 *
 * @slot ready-heading - The heading of the Ready screen instead of 'Ready to Take Test?'.
 *
 * @cssprop {<color>} [--wm-primary=#3730a3] - Buttons, the current question and the timer.
 * @cssprop {<color>} [--wm-primary-soft=#eef2ff] - Chosen options and the timer's background.
 * @cssprop {<color>} [--wm-success=#15803d] - The gauge from 60 % and saved answers.
 * @cssprop {<color>} [--wm-warning=#92400e] - The gauge below 60 %.
 * @cssprop {<color>} [--wm-danger=#b91c1c] - The last minute and failed saves.
 * @cssprop {<color>} [--wm-text=#1f2937] - Text colour.
 * @cssprop {<color>} [--wm-muted=#4b5563] - Secondary text colour.
 * @cssprop {<color>} [--wm-surface=#ffffff] - Panel background.
 * @cssprop {<length>} [--wm-radius=10px] - Corner radius of panels.
 * @cssprop {<family-name>} [--wm-font=system-ui] - Font family.
 * @cssprop {<length>} [--wm-space=16px] - The spacing unit: paddings and gaps are multiples of it.
 * @cssprop {<shadow>} [--wm-focus=0 0 0 3px rgb(55 48 163 / 45%)] - The focus ring (a box-shadow) of links, buttons and fields.
 * @cssprop {<color>} [--wm-on-primary=#ffffff] - Text on buttons (on `--wm-primary`).
 * @cssprop {<length>} [--wm-test-max-width=860px] - The widest the panel gets.
 */
export class WmTestTaker extends widgetElement({ component: TestTaker, props: TestTakerProps, css }) {}

if (!customElements.get('wm-test-taker')) customElements.define('wm-test-taker', WmTestTaker);
