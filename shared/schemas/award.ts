import { z } from 'zod';
import { TestType } from './assessment';
import { DateTime, Id } from './common';

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
  percentage: z.number().nullable(),
  createdAt: DateTime,
  s3CertificateUrl: z.string().nullable(),
  certificateUrl: z.string(),
  certificateGenerated: z.boolean(),
  orgId: z.string(),
  completetedYear: z.number().int(),
  completetedMonth: z.number().int().min(1).max(12),
  ownerId: Id,
});
export type CertificateInfo = z.infer<typeof CertificateInfo>;

export const PresignInput = z.object({
  fileDetails: z.object({ extension: z.enum(['jpg', 'jpeg'], { error: 'must be jpg' }) }),
  certificateId: z.string().min(1, 'certificateId is required'),
});
