/**
 * <wm-roadmap-catalogue> — Waymark's public roadmap catalogue as cards, with Select opening the
 * prerequisite-assessment or assignment dialog. Works before sign-in; the visitor continues on Waymark.
 *
 * @attr api-base - The Waymark server's URL, e.g. https://waymark.example.com (default: the origin this file was loaded from).
 * @attr language - Only roadmaps in this language (an id or a name).
 * @attr subject - Only roadmaps of this subject (an id or a name).
 * @attr topic - Only roadmaps of this topic (an id or a name).
 * @attr heading - The heading above the cards (default 'Select Roadmap'; an empty value hides it).
 * @attr limit - Show at most this many roadmaps (a whole number from 1).
 *
 * @event wm-load - The roadmaps arrived. detail: { count }.
 * @event wm-error - Loading or an action failed. detail: { message, status? }.
 * @event wm-open-course - A card's image was activated. detail: { roadmapId, href }. Cancelable: the default opens Waymark's course page.
 * @event wm-select - Select was pressed. detail: { roadmapId, roadmapName }. Cancelable: the default opens the selection dialog.
 * @event wm-assessment - The prerequisite assessment is ready. detail: { roadmapId, linkId, href }. Cancelable: the default opens it on Waymark.
 * @event wm-assigned - The roadmap was assigned. detail: { roadmapId, assignedRoadmapId, href }. Cancelable: the default opens its preview on Waymark.
 *
 * @slot - None: the element renders everything itself.
 *
 * @csspart catalogue - The section around everything.
 * @csspart heading - The heading.
 * @csspart grid - The list of cards.
 * @csspart card - One card.
 * @csspart card-image - The image link of a card.
 * @csspart card-author - The curator's photo and badge.
 * @csspart card-title - A card's roadmap name.
 * @csspart select-button - A card's Select button.
 * @csspart error - The error message.
 *
 * @cssprop --wm-primary - Buttons and links (default #3730a3).
 * @cssprop --wm-primary-hover - Buttons and links under the pointer.
 * @cssprop --wm-text - Text colour.
 * @cssprop --wm-muted - Secondary text colour.
 * @cssprop --wm-surface - Card background.
 * @cssprop --wm-radius - Corner radius of cards.
 * @cssprop --wm-font - Font family.
 * @cssprop --wm-card-min-width - The narrowest a card gets (default 250px).
 * @cssprop --wm-card-gap - The space between cards (default 20px).
 * @cssprop --wm-card-image-ratio - The shape of card images (default 16 / 9).
 */
import { defineWidgetElement } from '../embed/define-element';
import css from './catalogue.css?inline';
import { RoadmapCatalogueProps } from './props';
import { RoadmapCatalogue } from './RoadmapCatalogue';

defineWidgetElement({
  tag: 'wm-roadmap-catalogue',
  component: RoadmapCatalogue,
  props: RoadmapCatalogueProps,
  css,
});
