/**
 * A tenant's sandbox (decision 041; server/sandbox/): create it, read it, reset its attempts. TENANT callers
 * only, each about their own sandbox.
 */
import { envelope, errors } from '../schemas/common';
import { Sandbox } from '../schemas/sandbox';
import { defineCall, defineRouter } from './define';

const TENANT = ['TENANT'] as const;

export const getSandbox = defineCall({
  method: 'GET',
  path: '/tenant/sandbox',
  summary:
    "The caller's sandbox: its demo learners, their roadmaps and their test links; null when there is none yet.",
  tags: ['sandbox'],
  access: TENANT,
  responses: { 200: envelope(Sandbox.nullable()), ...errors },
});

export const createSandbox = defineCall({
  method: 'POST',
  path: '/tenant/sandbox',
  summary:
    "Creates the caller's sandbox: three demo learners, each with a roadmap of the catalogue and open test links (a resource's and its section's). The learners hold no seat and are never billed; the links never expire and no retake cool-down holds them back; their awards say Sandbox and are never issued as credentials. 201 when created, 200 with the sandbox when the caller has one already.",
  tags: ['sandbox'],
  access: TENANT,
  idempotent: true,
  responses: { 200: envelope(Sandbox), 201: envelope(Sandbox), ...errors },
});

export const resetSandbox = defineCall({
  method: 'POST',
  path: '/tenant/sandbox/reset',
  summary:
    "Resets every attempt of the caller's sandbox: each link is open again, not started, with no answer, score or award (the same link ids and questions). 404 when the caller has no sandbox.",
  tags: ['sandbox'],
  access: TENANT,
  idempotent: true,
  responses: { 200: envelope(Sandbox), ...errors },
});

export const sandboxRouter = defineRouter({ getSandbox, createSandbox, resetSandbox });
