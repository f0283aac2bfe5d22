/**
 * The props of <Dashboard> and the attributes of <wm-dashboard>. Only zod schemas here: the embed build
 * compiles this module to a small validator (see widgets/embed/light-schema.ts).
 */
import { DATE_RANGES } from '@shared/rules/date-ranges';
import * as z from 'zod/mini';

export const DashboardProps = z.object({
  /** The date range shown first: Yesterday, Past 7 days (when absent) or Last 28 Days. */
  range: z.optional(z.enum(DATE_RANGES)),
});
export type DashboardProps = z.infer<typeof DashboardProps>;
