/** <wm-roadmap-catalogue>: the element class, documented for the Custom Elements Manifest (widgets/build-embed.mjs). */
import { widgetElement } from '../embed/define-element';
import css from './catalogue.css?inline';
import { RoadmapCatalogueProps } from './props';
import { RoadmapCatalogue } from './RoadmapCatalogue';

/**
 * Waymark's public roadmaps as cards, as on Waymark's landing page ('Select Roadmap'): each card shows the
 * roadmap's image, its first curator's photo and badge, the name, 'Curated By' the first curator, the
 * language, and a Select button that opens the prerequisite-assessment or assignment dialog. No sign-in
 * is needed; the visitor continues on Waymark.
 *
 * @tagname wm-roadmap-catalogue
 * @summary Waymark's public roadmap catalogue as cards, with Select.
 *
 * @attr {string} language - Only roadmaps in this language (its id or its name, any case).
 * @attr {string} subject - Only roadmaps of this subject (id or name).
 * @attr {string} topic - Only roadmaps of this topic (id or name).
 * @attr {string} heading - The heading above the cards (default `Select Roadmap`; an empty value hides it).
 * @attr {string} limit - At most this many roadmaps (a whole number from 1).
 * @attr {string} api-base - The Waymark server's URL, e.g. `https://waymark.example.com` (default: where `roadmap-catalogue.js` came from).
 * @attr {'light' | 'dark' | 'auto'} theme - The colour theme: `light`, `dark`, or `auto` (the visitor's setting, `prefers-color-scheme`); without it the page's `color-scheme` decides (light unless the page says dark).
 *
 * @fires {CustomEvent<{ count: number }>} wm-load - The roadmaps arrived: `count` is the number of cards shown.
 * @fires {CustomEvent<{ count: number }>} wm-ready - The cards (or the empty state) are drawn: `count` is the number shown.
 * @fires {CustomEvent<{ status: number; code: ErrorCode; message: string }>} wm-error - Loading or an action failed; the message is the one shown, e.g. "Couldn't fetch the Roadmap please try later." `status` is the HTTP status (0 when no answer was involved); `code` says what failed (docs/embed.md, "Failures").
 * @fires {CustomEvent<{ roadmapId: string; href: string }>} wm-open-course - A card's image was activated. **Cancelable**: the default opens `/course-detail/{roadmapId}` on Waymark.
 * @fires {CustomEvent<{ roadmapId: string; roadmapName: string }>} wm-select - Select was pressed. **Cancelable**: the default opens the selection dialog.
 * @fires {CustomEvent<{ roadmapId: string; linkId: string; href: string }>} wm-assessment - The roadmap has prerequisites, the visitor chose 'Yes, I like to take assessment' and the questions are ready. **Cancelable**: the default opens the assessment on Waymark.
 * @fires {CustomEvent<{ roadmapId: string; assignedRoadmapId: string; href: string }>} wm-assigned - The visitor chose 'Yes, I want to assign' and the roadmap was assigned. **Cancelable**: the default opens its preview on Waymark, where the visitor signs in and it becomes theirs.
 *
 * @csspart catalogue - The section around everything.
 * @csspart heading - The heading.
 * @csspart grid - The list of cards.
 * @csspart card - One card.
 * @csspart card-image - The image link of a card.
 * @csspart card-author - The curator's photo and badge.
 * @csspart card-title - A card's roadmap name.
 * @csspart select-button - A card's Select button.
 * @csspart empty - The empty state (no roadmap matches).
 * @csspart error - The error message.
 *
 * @slot heading - The heading's text instead of `Select Roadmap` (or the `heading` attribute), e.g. `<span slot="heading">Our courses</span>`.
 * @slot empty - What shows when no roadmap matches, instead of 'No Roadmaps found'.
 *
 * @cssprop {<color>} [--wm-primary=#3730a3] - Buttons and links.
 * @cssprop {<color>} [--wm-primary-hover=#312e81] - Buttons and links under the pointer.
 * @cssprop {<color>} [--wm-on-primary=#ffffff] - Text on buttons (on `--wm-primary`).
 * @cssprop {<color>} [--wm-text=#1f2937] - Text colour.
 * @cssprop {<color>} [--wm-muted=#4b5563] - Secondary text colour.
 * @cssprop {<color>} [--wm-surface=#ffffff] - Card background.
 * @cssprop {<length>} [--wm-radius=10px] - Corner radius of cards.
 * @cssprop {<family-name>} [--wm-font=system-ui] - Font family.
 * @cssprop {<length>} [--wm-space=16px] - The spacing unit: paddings and gaps are multiples of it.
 * @cssprop {<shadow>} [--wm-focus=0 0 0 3px rgb(55 48 163 / 45%)] - The focus ring (a box-shadow) of links, buttons and fields.
 * @cssprop {<length>} [--wm-card-min-width=250px] - The narrowest a card gets.
 * @cssprop {<length>} [--wm-card-gap=calc(var(--wm-space) * 1.25)] - The space between cards.
 * @cssprop {<ratio>} [--wm-card-image-ratio=16 / 9] - The shape of card images.
 */
export class WmRoadmapCatalogue extends widgetElement({
  component: RoadmapCatalogue,
  props: RoadmapCatalogueProps,
  css,
}) {}

if (!customElements.get('wm-roadmap-catalogue'))
  customElements.define('wm-roadmap-catalogue', WmRoadmapCatalogue);
