/**
 * The props of <Award> and the attributes of <wm-award>. Only zod schemas here: the embed build compiles
 * this module to a small validator (see widgets/embed/light-schema.ts).
 */
import * as z from 'zod/mini';

export const AwardProps = z.object({
  /** The award's link id (the test link that earned it; shown on the award as its credential id). */
  linkId: z
    .string({ error: 'is required' })
    .check(
      z.regex(/^[A-Za-z0-9_-]{10,64}$/, 'must be an award link id'),
      z.describe('must be an award link id'),
    ),
  /** feather, badge or certificate: an award of another kind is shown as not found. Any kind when absent. */
  kind: z.optional(z.enum(['feather', 'badge', 'certificate'])),
  /** auto (default): the stored image once it exists, else the design drawn live; live: always the design. */
  view: z.optional(z.enum(['auto', 'live'])),
});
export type AwardProps = z.infer<typeof AwardProps>;
