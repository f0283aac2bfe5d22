/**
 * The props of <CourseDetail> and the attributes of <wm-course-detail>. Only zod schemas here:
 * the embed build compiles this module to a small validator (see widgets/embed/light-schema.ts).
 */
import * as z from 'zod/mini';

export const CourseDetailProps = z.object({
  /** The roadmap to show. */
  roadmapId: z
    .string({ error: 'is required' })
    .check(z.minLength(1, 'is required'), z.describe('is required')),
  /** The level of the course name's heading: 1 on a page of its own, 2 (default) inside another page. */
  headingLevel: z.optional(z.enum(['1', '2'])),
});
export type CourseDetailProps = z.infer<typeof CourseDetailProps>;
