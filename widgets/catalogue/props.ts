/**
 * The props of <RoadmapCatalogue> and the attributes of <wm-roadmap-catalogue>. Only zod schemas here:
 * the embed build compiles this module to a small validator (see widgets/embed/light-schema.ts).
 */
import * as z from 'zod/mini';

export const RoadmapCatalogueProps = z.object({
  /** Only roadmaps in this language (an id or a name). */
  language: z.optional(z.string()),
  /** Only roadmaps of this subject (an id or a name). */
  subject: z.optional(z.string()),
  /** Only roadmaps of this topic (an id or a name). */
  topic: z.optional(z.string()),
  /** The heading above the cards ('Select Roadmap' when absent; empty hides it). */
  heading: z.optional(z.string()),
  /** At most this many roadmaps. */
  limit: z.optional(
    z
      .string()
      .check(
        z.regex(/^[1-9][0-9]{0,3}$/, 'must be a whole number from 1'),
        z.describe('must be a whole number from 1'),
      ),
  ),
});
export type RoadmapCatalogueProps = z.infer<typeof RoadmapCatalogueProps>;
