/**
 * The props of <TestTaker> and the attributes of <wm-test-taker>. Only zod schemas here: the embed
 * build compiles this module to a small validator (see widgets/embed/light-schema.ts).
 */
import * as z from 'zod/mini';

export const TestTakerProps = z.object({
  /** The test link's id, as in /test/{linkId}. */
  linkId: z
    .string({ error: 'must be a test link id' })
    .check(z.regex(/^[A-Za-z0-9_-]{10,64}$/, 'must be a test link id'), z.describe('must be a test link id')),
  /** The level of the screen headings: 1 when the test is the page's main content (default), 2 inside another page. */
  headingLevel: z.optional(z.enum(['1', '2'])),
});
export type TestTakerProps = z.infer<typeof TestTakerProps>;
