/** <wm-course-detail>: the element class, documented for the Custom Elements Manifest (widgets/build-embed.mjs). */

import * as messages from 'virtual:wm-messages';
import catalogueCss from '../catalogue/catalogue.css?inline';
import { widgetElement } from '../embed/define-element';
import { CourseDetail } from './CourseDetail';
import css from './course-detail.css?inline';
import { CourseDetailProps } from './props';

/**
 * One roadmap's public course page, as `/course-detail/{roadmapId}` on Waymark shows it: the name, its
 * curators (up to three, then '...'), language, subject, 'Free', the image, what the course includes, each
 * curator's profile, and the tabs Description and Curriculum (sections with their lectures and resources,
 * and the tasks). Select Course opens the same selection dialog as the catalogue.
 *
 * @tagname wm-course-detail
 * @summary One roadmap's public course page, with Select Course.
 *
 * @attr {string} roadmap-id - The roadmap to show (required).
 * @attr {'1' | '2'} heading-level - `1` when the course is the page's main content, `2` (default) inside another page.
 * @attr {string} api-base - The Waymark server's URL, e.g. `https://waymark.example.com` (default: where `course-detail.js` came from).
 *
 * @fires {CustomEvent<{ roadmapId: string; name: string }>} wm-load - The course arrived.
 * @fires {CustomEvent<{ message: string; status?: number }>} wm-error - Loading or an action failed: "Please, try again later. Thanks" when the course cannot be loaded.
 * @fires {CustomEvent<{ roadmapId: string; roadmapName: string }>} wm-select - Select Course was pressed. **Cancelable**: the default opens the selection dialog.
 * @fires {CustomEvent<{ roadmapId: string; linkId: string; href: string }>} wm-assessment - The prerequisite assessment is ready. **Cancelable**: the default opens it on Waymark.
 * @fires {CustomEvent<{ roadmapId: string; assignedRoadmapId: string; href: string }>} wm-assigned - The roadmap was assigned. **Cancelable**: the default opens its preview on Waymark.
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
 * @cssprop {<color>} [--wm-primary=#3730a3] - Buttons, links and the selected tab.
 * @cssprop {<color>} [--wm-text=#1f2937] - Text colour.
 * @cssprop {<color>} [--wm-muted=#4b5563] - Secondary text colour.
 * @cssprop {<color>} [--wm-surface=#ffffff] - Panel background.
 * @cssprop {<length>} [--wm-radius=10px] - Corner radius of panels.
 * @cssprop {<family-name>} [--wm-font=system-ui] - Font family.
 * @cssprop {<image>} [--wm-course-hero-background=linear-gradient(135deg, #1e1b4b, #3730a3)] - The top band's background.
 * @cssprop {<color>} [--wm-course-hero-text=#ffffff] - The top band's text colour.
 */
export class WmCourseDetail extends widgetElement({
  component: CourseDetail,
  props: CourseDetailProps,
  css: `${catalogueCss}\n${css}`,
  messages,
}) {}

if (!customElements.get('wm-course-detail')) customElements.define('wm-course-detail', WmCourseDetail);
