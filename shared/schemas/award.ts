import { z } from 'zod';
import { TestType } from './assessment';
import { DateTime } from './common';

export const AWARD_KINDS = ['feather', 'badge', 'certificate'] as const;
export type AwardKind = (typeof AWARD_KINDS)[number];

export const CertificateInfo = z.object({
  linkId: z.string(),
  type: TestType,
  userName: z.string(),
  assignedSectionName: z.string().nullable(),
  assignedRoadMapName: z.string().nullable(),
  assignedResourceName: z.string().nullable(),
  subject: z.object({ name: z.string() }).nullable(),
  /** When the award was earned. */
  createdAt: DateTime,
  s3CertificateUrl: z.string().nullable(),
  certificateUrl: z.string(),
  certificateGenerated: z.boolean(),
  orgId: z.string(),
  completetedYear: z.number().int(),
  completetedMonth: z.number().int().min(1).max(12),
  /**
   * Whether the request carries the token of the learner who earned it (only they generate the image and
   * get the add-to-LinkedIn link). The public info names no user id and no score.
   */
  isOwner: z.boolean(),
});
export type CertificateInfo = z.infer<typeof CertificateInfo>;

export const PresignInput = z.object({
  fileDetails: z.object({ extension: z.enum(['jpg', 'jpeg'], { error: 'must be jpg' }) }),
  certificateId: z.string().min(1, 'certificateId is required').max(64, 'is not an award id'),
});
