/** <wm-award>: the element class, documented for the Custom Elements Manifest (widgets/build-embed.mjs). */
import { widgetElement } from '../embed/define-element';
import { Award } from './Award';
import css from './award.css?inline';
import { AwardProps } from './props';

/**
 * A learner's Waymark award as a credential: a feather (resource), a badge (section) or a
 * certificate (roadmap, subject or a mentor's assessment), carrying the learner's name, what was achieved, the date, the issuer
 * and the credential id, with its Open Badges 3.0 credential's mark ('Verified' or 'Revoked'), the DID
 * that issued it, and a link to verify it on Waymark. Shows the stored image once the learner has
 * generated it, else draws the design live. Public: no sign-in. Generating the image happens on
 * Waymark's own award page; this element never uploads anything.
 *
 * @tagname wm-award
 * @summary A learner's award (feather, badge or certificate), with a link to verify it on Waymark.
 *
 * @attr {string} link-id - The award's link id, as in `/feather/{link-id}` (required; letters, digits, `_` and `-`, 10 to 64).
 * @attr {'feather' | 'badge' | 'certificate'} kind - An award of another kind shows as not found (default: any kind).
 * @attr {'auto' | 'live'} view - `auto` (default): the stored image once generated, else the live design; `live`: always the live design.
 * @attr {string} api-base - The Waymark server's URL, e.g. `https://waymark.example.com` (default: where `award.js` came from).
 * @attr {'light' | 'dark' | 'auto'} theme - The colour theme: `light`, `dark`, or `auto` (the visitor's setting, `prefers-color-scheme`); without it the page's `color-scheme` decides (light unless the page says dark).
 *
 * @fires {CustomEvent<{ linkId: string; kind: 'feather' | 'badge' | 'certificate'; name: string; learner: string; imageUrl: string | null }>} wm-load - The award arrived: `name` is what was achieved; `imageUrl` is null until generated.
 * @fires {CustomEvent<{ linkId: string }>} wm-ready - The award is drawn.
 * @fires {CustomEvent<{ status: number; code: ErrorCode; message: string }>} wm-error - No such award (`status` 404, `code` `not-found`, message 'Award not found') or loading failed (message 'Certificate Issue'). `status` is the HTTP status (0 when no answer was involved); `code` says what failed (docs/embed.md, "Failures").
 *
 * @csspart award - The figure around the award and its caption.
 * @csspart art - The live design.
 * @csspart image - The stored image (instead of the live design).
 * @csspart verified - The credential's mark under the award: '✓ Verified', or '⊘ Revoked' once revoked.
 * @csspart issuer - Who issued the credential, by its DID ('Issued by did:web:…'), beside the mark.
 * @csspart validity - When the award expires, in words ('Valid until 3rd Mar 2027', 'Expired on …'); only for an award that expires.
 * @csspart verify-link - The 'Verify this … on Waymark' link under the award, to the verify page.
 * @csspart sandbox - A sandbox award's mark ('Sandbox award: not a credential'), instead of the credential's mark, issuer and verify link.
 * @csspart error - The not-found or error message.
 *
 * @slot not-found - What shows for an award that does not exist, instead of 'Award not found' and its explanation.
 *
 * @cssprop {<color>} [--wm-primary=#3730a3] - Links.
 * @cssprop {<color>} [--wm-text=#1f2937] - Text colour around the award (the designs keep their own colours).
 * @cssprop {<family-name>} [--wm-font=system-ui] - Font family around the award (the designs keep their own type).
 * @cssprop {<length>} [--wm-space=16px] - The spacing unit: paddings and gaps are multiples of it.
 * @cssprop {<shadow>} [--wm-focus=0 0 0 3px rgb(55 48 163 / 45%)] - The focus ring (a box-shadow) of links, buttons and fields.
 * @cssprop {<length>} [--wm-award-radius=0] - Corner radius of the award.
 * @cssprop {<shadow>} [--wm-award-shadow=0 2px 6px rgb(16 24 40 / 8%), 0 12px 32px rgb(16 24 40 / 12%)] - The award's shadow (none when printed).
 * @cssprop {<length>} [--wm-award-certificate-width=1100px] - The widest a certificate gets.
 * @cssprop {<length>} [--wm-award-badge-width=600px] - The widest a badge gets.
 * @cssprop {<length>} [--wm-award-feather-width=560px] - The widest a feather gets.
 */
export class WmAward extends widgetElement({ component: Award, props: AwardProps, css }) {}

if (!customElements.get('wm-award')) customElements.define('wm-award', WmAward);
