import { z } from 'zod';
import { TestType } from './assessment';
import { DateTime } from './common';
import { entities } from './entities';

export const AWARD_KINDS = ['feather', 'badge', 'certificate'] as const;
export type AwardKind = (typeof AWARD_KINDS)[number];

/** How long an award stands (issue 30, decision 037). */
export const AwardValidity = z.object({
  /** The award's end; null: it does not expire. */
  validUntil: DateTime.nullable(),
  state: z.enum(['no-end', 'valid', 'expiring', 'expired']),
  /** A later award of the same test by the same learner (its renewal), when there is one. */
  renewedBy: z.string().nullable(),
  /** Every award of the same test the learner earned, oldest first, this one among them. */
  history: z.array(z.object({ awardId: z.string(), earnedAt: DateTime, validUntil: DateTime.nullable() })),
  /**
   * To its learner, once it expires within 30 days or has expired: how to renew it — a subject test taken
   * again, or the assessment's renewal test (its link once made; POST /certificate/{id}/renew makes it).
   */
  renewal: z
    .discriminatedUnion('kind', [
      z.object({
        kind: z.literal('SUBJECT'),
        subjectId: z.string(),
        lookingForJob: z.enum(['YES', 'NO', 'IN FUTURE']),
      }),
      z.object({ kind: z.literal('ASSESSMENT'), testLinkId: z.string().nullable() }),
    ])
    .nullable(),
});
entities.add(AwardValidity, { id: 'AwardValidity' });
export type AwardValidity = z.infer<typeof AwardValidity>;

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
  /** How long it stands; absent from servers before issue 30. */
  validity: AwardValidity.optional(),
  /**
   * An award of a tenant's sandbox (decision 041): shown marked as such, never issued as a credential
   * (its credential calls answer 404 SANDBOX_AWARD).
   */
  sandbox: z.boolean(),
});
entities.add(CertificateInfo, { id: 'CertificateInfo' });
export type CertificateInfo = z.infer<typeof CertificateInfo>;

/** The largest image an upload address accepts. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** An image's size in bytes as an uploader declares it, to be signed into its upload address. */
export const ImageSize = z
  .number()
  .int('must be a size in bytes')
  .min(1, 'must be a size in bytes')
  .max(MAX_IMAGE_BYTES, 'must be at most 5 MB');
entities.add(ImageSize, { id: 'ImageSize' });

export const PresignInput = z.object({
  fileDetails: z.object({
    extension: z.enum(['jpg', 'jpeg'], { error: 'must be jpg' }),
    /**
     * The image's size in bytes. Signed into the upload address, which then takes exactly that many bytes;
     * required when the server stores files in S3.
     */
    size: ImageSize.optional(),
  }),
  certificateId: z.string().min(1, 'certificateId is required').max(64, 'is not an award id'),
});
entities.add(PresignInput, { id: 'PresignInput' });
