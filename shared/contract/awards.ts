/**
 * Awards (feather, badge, certificate) of evaluated test links, served by server/awards: what an award page
 * shows, and generating its image (an upload address, then marking it generated).
 * A test link id is an unguessable capability: the award pages open without signing in.
 */
import { z } from 'zod';
import { CertificateInfo, PresignInput } from '../schemas/award';
import { DateTime, ErrorBody, envelope, errors } from '../schemas/common';
import { LinkIdParam } from './assessments';
import { defineCall, defineRouter } from './define';

export const certificateInfo = defineCall({
  method: 'GET',
  path: '/certificate/certificate-info-v2/{id}',
  summary:
    'What an award page shows: the learner, what was achieved, the date, the image once generated. Public.',
  tags: ['certificate'],
  access: 'optional',
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  params: LinkIdParam,
  responses: { 200: envelope(CertificateInfo), ...errors },
});

export const createPresignedUrl = defineCall({
  method: 'POST',
  path: '/certificate/create-presigned-url',
  summary: "An upload address for the award image (jpg), valid a few minutes; only the award's learner.",
  tags: ['certificate'],
  access: ['USER'],
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  body: PresignInput,
  responses: {
    201: envelope(z.object({ url: z.string(), key: z.string(), expiresAt: DateTime })),
    ...errors,
  },
});

export const createCertificate = defineCall({
  method: 'PUT',
  path: '/certificate/create-v2/{id}',
  summary: 'Marks the award generated once its image is uploaded; returns the certificate info.',
  tags: ['certificate'],
  access: ['USER'],
  // a learner launched from an LMS takes tests in its session (decision 044)
  lti: true,
  params: LinkIdParam,
  responses: { 201: envelope(CertificateInfo), ...errors, 413: ErrorBody, 415: ErrorBody },
});

/** Every call of this module, served by server/awards/routes.ts. */
export const awardsRouter = defineRouter({
  certificateInfo,
  createPresignedUrl,
  createCertificate,
});
