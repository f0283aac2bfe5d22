import { z } from 'zod';
import type { MessageKey } from '../i18n/keys';
import { ResourceType } from './catalogue';
import { Id, UnixMillisInput, UnixSeconds } from './common';
import { entities } from './entities';

export const DailyTime = z.object({ date: UnixSeconds, timespent: z.number().nonnegative() });
entities.add(DailyTime, { id: 'DailyTime' });
export const ResourceTime = z.object({
  resource: z.object({ _id: Id, userTitle: z.string() }),
  timespent: z.number().nonnegative(),
});
entities.add(ResourceTime, { id: 'ResourceTime' });
export const DashboardCard = z.object({
  roadmapName: z.string(),
  resourceName: z.string(),
  resourceUrl: z.string(),
  resourceType: ResourceType,
  latestTimestamp: UnixSeconds,
  totalTimeSpent: z.number().nonnegative(),
  roadmapId: Id,
  sectionId: Id,
  resourceId: Id,
  /** When the resource's test can be retaken, while a failure holds it back (the retake cool-down). */
  retakeAt: z.string().nullable().optional(),
});
entities.add(DashboardCard, { id: 'DashboardCard' });
export type DashboardCard = z.infer<typeof DashboardCard>;

export const ExtensionStatus = z.object({
  isPresent: z.boolean(),
  isLogedIn: z.boolean(),
  isChecked: z.boolean(),
});
entities.add(ExtensionStatus, { id: 'ExtensionStatus' });
export type ExtensionStatus = z.infer<typeof ExtensionStatus>;

/** One heartbeat from the extension. */
export const Heartbeat = z.object({
  /** A client-made id, so a resent batch counts once. */
  id: z.string().min(8).max(64),
  resourceId: Id,
  url: z.url().max(2048),
  /** Unix milliseconds. */
  time: UnixMillisInput.positive(),
  tabActive: z.boolean(),
  audible: z.boolean(),
});
entities.add(Heartbeat, { id: 'Heartbeat' });

export const UNINSTALL_REASONS = [
  'I need more info about my activity on web',
  "It doesn't work",
  'I use other extension for time tracker in web',
  "I don't use it anymore",
  "It's not what I was looking for (please describe what was it)",
  'other',
] as const;
/** The uninstall form's messages (message keys). */
export const uninstallMessages = {
  reasonRequired: 'uninstall.reasonRequired',
  otherRequired: 'uninstall.otherRequired',
  emailRequired: 'uninstall.emailRequired',
  emailInvalid: 'auth.emailInvalid',
} as const satisfies Record<string, MessageKey>;
export const UninstallFeedbackInput = z
  .object({
    emailId: z
      .string({ error: uninstallMessages.emailRequired })
      .trim()
      .min(1, uninstallMessages.emailRequired)
      .max(254, uninstallMessages.emailInvalid)
      .pipe(z.email({ error: uninstallMessages.emailInvalid })),
    reason: z
      .array(z.enum(UNINSTALL_REASONS))
      .min(1, uninstallMessages.reasonRequired)
      .max(UNINSTALL_REASONS.length),
    other: z.string().trim().max(500).optional(),
    message: z.string().trim().max(2000).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.reason.includes('other') && !v.other) {
      ctx.addIssue({ code: 'custom', message: uninstallMessages.otherRequired, path: ['other'] });
    }
  });
entities.add(UninstallFeedbackInput, { id: 'UninstallFeedbackInput' });
