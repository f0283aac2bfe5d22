/**
 * <wm-award> — a learner's Waymark award as a credential: a feather (resource), a badge (section) or a
 * certificate (roadmap or subject), carrying the learner's name, what was achieved, the date, the issuer
 * and the credential id, with its Open Badges 3.0 credential's mark ('Verified' or 'Revoked') and a link
 * to verify it on Waymark. Shows the stored image once the learner has
 * generated it, else draws the design live. Public: no sign-in. Generating the image happens on
 * Waymark's own award page; this element never uploads anything.
 *
 * @attr api-base - The Waymark server's URL, e.g. https://waymark.example.com (default: the origin this file was loaded from).
 * @attr link-id - The award's link id, as in /feather/{link-id} (required).
 * @attr kind - feather, badge or certificate: an award of another kind shows as not found (default: any kind).
 * @attr view - auto (default): the stored image once generated, else the live design; live: always the live design.
 *
 * @event wm-load - The award arrived. detail: { linkId, kind, name (what was achieved), learner, imageUrl (null until generated) }.
 * @event wm-error - No such award (status 404, message 'Award not found') or loading failed (message 'Certificate Issue'). detail: { message, status? }.
 *
 * @slot - None: the element renders everything itself.
 *
 * @csspart award - The figure around the award and its caption.
 * @csspart art - The live design.
 * @csspart image - The stored image (instead of the live design).
 * @csspart verified - The credential's mark under the award: '✓ Verified', or '⊘ Revoked' once revoked.
 * @csspart verify-link - The 'Verify this … on Waymark' link under the award, to the verify page.
 * @csspart error - The not-found or error message.
 *
 * @cssprop --wm-primary - Links (default #3730a3).
 * @cssprop --wm-text - Text colour around the award.
 * @cssprop --wm-font - Font family around the award (the designs keep their own type).
 * @cssprop --wm-award-radius - Corner radius of the award (default 0).
 * @cssprop --wm-award-shadow - The award's shadow (default a soft drop shadow; none when printed).
 * @cssprop --wm-award-certificate-width - The widest a certificate gets (default 1100px).
 * @cssprop --wm-award-badge-width - The widest a badge gets (default 600px).
 * @cssprop --wm-award-feather-width - The widest a feather gets (default 560px).
 */
import { defineWidgetElement } from '../embed/define-element';
import { Award } from './Award';
import css from './award.css?inline';
import { AwardProps } from './props';

defineWidgetElement({
  tag: 'wm-award',
  component: Award,
  props: AwardProps,
  css,
});
