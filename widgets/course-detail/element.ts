/** <wm-course-detail>: the element class, documented for the Custom Elements Manifest (widgets/build-embed.mjs). */
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
 * @attr {'light' | 'dark' | 'auto'} theme - The colour theme: `light`, `dark`, or `auto` (the visitor's setting, `prefers-color-scheme`); without it the page's `color-scheme` decides (light unless the page says dark).
 *
 * @fires {CustomEvent<{ roadmapId: string; name: string }>} wm-load - The course arrived.
 * @fires {CustomEvent<{ roadmapId: string }>} wm-ready - The course is drawn.
 * @fires {CustomEvent<{ status: number; code: ErrorCode; message: string }>} wm-error - Loading or an action failed: "Please, try again later. Thanks" when the course cannot be loaded. `status` is the HTTP status (0 when no answer was involved); `code` says what failed (docs/embed.md, "Failures").
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
 * @csspart empty - The curriculum's 'No Task Found'.
 * @csspart error - The error message.
 *
 * @slot no-tasks - What the Task tab shows when the course has no tasks, instead of 'No Task Found'.
 *
 * @cssprop {<color>} [--wm-primary=#3730a3] - Buttons, links and the selected tab.
 * @cssprop {<color>} [--wm-text=#1f2937] - Text colour.
 * @cssprop {<color>} [--wm-muted=#4b5563] - Secondary text colour.
 * @cssprop {<color>} [--wm-surface=#ffffff] - Panel background.
 * @cssprop {<length>} [--wm-radius=10px] - Corner radius of panels.
 * @cssprop {<family-name>} [--wm-font=system-ui] - Font family.
 * @cssprop {<length>} [--wm-space=16px] - The spacing unit: paddings and gaps are multiples of it.
 * @cssprop {<shadow>} [--wm-focus=0 0 0 3px rgb(55 48 163 / 45%)] - The focus ring (a box-shadow) of links, buttons and fields.
 * @cssprop {<image>} [--wm-course-hero-background=linear-gradient(135deg, #1e1b4b, #3730a3)] - The top band's background.
 * @cssprop {<color>} [--wm-course-hero-text=#ffffff] - The top band's text colour.
 */
export class WmCourseDetail extends widgetElement({
  component: CourseDetail,
  props: CourseDetailProps,
  css: `${catalogueCss}\n${css}`,
}) {}

if (!customElements.get('wm-course-detail')) customElements.define('wm-course-detail', WmCourseDetail);
