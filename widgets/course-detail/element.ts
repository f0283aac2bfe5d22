/**
 * <wm-course-detail> — one roadmap's public course page: curators, language, price, what it includes,
 * curator profiles, Description and Curriculum (sections and tasks), and Select Course.
 *
 * @attr api-base - The Waymark server's URL, e.g. https://waymark.example.com (default: the origin this file was loaded from).
 * @attr roadmap-id - The roadmap to show (required).
 * @attr heading-level - 1 when the course is the page's main content, 2 (default) inside another page.
 *
 * @event wm-load - The course arrived. detail: { roadmapId, name }.
 * @event wm-error - Loading or an action failed. detail: { message, status? }.
 * @event wm-select - Select Course was pressed. detail: { roadmapId, roadmapName }. Cancelable: the default opens the selection dialog.
 * @event wm-assessment - The prerequisite assessment is ready. detail: { roadmapId, linkId, href }. Cancelable: the default opens it on Waymark.
 * @event wm-assigned - The roadmap was assigned. detail: { roadmapId, assignedRoadmapId, href }. Cancelable: the default opens its preview on Waymark.
 *
 * @slot - None: the element renders everything itself.
 *
 * @csspart course - The article around everything.
 * @csspart hero - The top band with name, curators, price and Select Course.
 * @csspart title - The course name.
 * @csspart price - The price ('Free').
 * @csspart select-button - Select Course.
 * @csspart features - What the course includes.
 * @csspart curators - The curator profiles.
 * @csspart sections - The curriculum's sections.
 * @csspart error - The error message.
 *
 * @cssprop --wm-primary - Buttons, links and the selected tab (default #3730a3).
 * @cssprop --wm-text - Text colour.
 * @cssprop --wm-muted - Secondary text colour.
 * @cssprop --wm-surface - Panel background.
 * @cssprop --wm-radius - Corner radius of panels.
 * @cssprop --wm-font - Font family.
 * @cssprop --wm-course-hero-background - The top band's background (default an indigo gradient).
 * @cssprop --wm-course-hero-text - The top band's text colour (default white).
 */
import catalogueCss from '../catalogue/catalogue.css?inline';
import { defineWidgetElement } from '../embed/define-element';
import { CourseDetail } from './CourseDetail';
import css from './course-detail.css?inline';
import { CourseDetailProps } from './props';

defineWidgetElement({
  tag: 'wm-course-detail',
  component: CourseDetail,
  props: CourseDetailProps,
  css: `${catalogueCss}\n${css}`,
});
