/** <wm-award>: the element class, documented for the Custom Elements Manifest (widgets/build-embed.mjs). */

import * as messages from 'virtual:wm-messages';
import { widgetElement } from '../embed/define-element';
import { Award } from './Award';
import css from './award.css?inline';
import { AwardProps } from './props';

/**
 * A learner's Waymark award as a credential: a feather (resource), a badge (section) or a
 * certificate (roadmap or subject), carrying the learner's name, what was achieved, the date, the issuer
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
 *
 * @fires {CustomEvent<{ linkId: string; kind: 'feather' | 'badge' | 'certificate'; name: string; learner: string; imageUrl: string | null }>} wm-load - The award arrived: `name` is what was achieved; `imageUrl` is null until generated.
 * @fires {CustomEvent<{ message: string; status?: number }>} wm-error - No such award (`status` 404, message 'Award not found') or loading failed (message 'Certificate Issue').
 *
 * @csspart award - The figure around the award and its caption.
 * @csspart art - The live design.
 * @csspart image - The stored image (instead of the live design).
 * @csspart verified - The credential's mark under the award: '✓ Verified', or '⊘ Revoked' once revoked.
 * @csspart issuer - Who issued the credential, by its DID ('Issued by did:web:…'), beside the mark.
 * @csspart verify-link - The 'Verify this … on Waymark' link under the award, to the verify page.
 * @csspart error - The not-found or error message.
 *
 * @cssprop {<color>} [--wm-primary=#3730a3] - Links.
 * @cssprop {<color>} [--wm-text=#1f2937] - Text colour around the award (the designs keep their own colours).
 * @cssprop {<family-name>} [--wm-font=system-ui] - Font family around the award (the designs keep their own type).
 * @cssprop {<length>} [--wm-award-radius=0] - Corner radius of the award.
 * @cssprop {<shadow>} [--wm-award-shadow=0 2px 6px rgb(16 24 40 / 8%), 0 12px 32px rgb(16 24 40 / 12%)] - The award's shadow (none when printed).
 * @cssprop {<length>} [--wm-award-certificate-width=1100px] - The widest a certificate gets.
 * @cssprop {<length>} [--wm-award-badge-width=600px] - The widest a badge gets.
 * @cssprop {<length>} [--wm-award-feather-width=560px] - The widest a feather gets.
 */
export class WmAward extends widgetElement({ component: Award, props: AwardProps, css, messages }) {}

if (!customElements.get('wm-award')) customElements.define('wm-award', WmAward);
