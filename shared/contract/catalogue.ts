/**
 * The catalogue and the learning flow: roadmaps, their public pages, selection (with or without the
 * prerequisite assessment), assignment, a learner's roadmaps, tasks, resource short links and contact.
 * Selection works before signing in: an anonymous assigned roadmap is created, previewed at
 * /access-assigned-roadmap/{id}, and claimed after sign-in with PUT /roadmap/assign-user-to-roadmap/{id}.
 */
import { z } from 'zod';
import { Answer, TakerQuestion } from '../schemas/assessment';
import {
  AssignedRoadmap,
  AssignedRoadmapSummary,
  PrerequisiteSelection,
  Roadmap,
  RoadmapSummary,
} from '../schemas/catalogue';
import { ErrorBody, envelope, errors, Id, Ok } from '../schemas/common';
import { ContactMessage } from '../schemas/contact';
import { entities } from '../schemas/entities';
import { defineCall, defineRouter } from './define';

export const ROADMAP_LIMIT_MESSAGE = 'Can only learn two roadmaps at a time.';
export const MAX_ONGOING_ROADMAPS = 2;

const idParam = z.object({ id: Id });

export const RoadmapFilter = z.object({
  language: z.string().trim().max(100).optional(),
  subject: z.string().trim().max(100).optional(),
  topic: z.string().trim().max(100).optional(),
});

export const roadmapList = defineCall({
  method: 'GET',
  path: '/roadmap/list',
  summary: 'The catalogue for a signed-in person, filtered by language, subject and topic (ids or names).',
  tags: ['roadmap'],
  access: 'signedIn',
  query: RoadmapFilter,
  responses: { 200: envelope(z.array(RoadmapSummary)), ...errors },
});

export const roadmapListNoAuth = defineCall({
  method: 'GET',
  path: '/roadmap/list/no-auth',
  summary: 'The public catalogue (landing page, partner widgets).',
  tags: ['roadmap'],
  access: 'public',
  query: RoadmapFilter,
  responses: { 200: envelope(z.array(RoadmapSummary)), ...errors },
});

export const roadmapNoAuth = defineCall({
  method: 'GET',
  path: '/roadmap/{roadmapId}/no-auth',
  summary: 'One roadmap with its sections, resources, tasks and curators, for the public course page.',
  tags: ['roadmap'],
  access: 'public',
  params: z.object({ roadmapId: Id }),
  responses: { 200: envelope(Roadmap), ...errors },
});

export const roadmapView = defineCall({
  method: 'GET',
  path: '/roadmap/view/{id}',
  summary: 'One roadmap of the catalogue, for a signed-in learner.',
  tags: ['roadmap'],
  access: 'signedIn',
  params: idParam,
  responses: { 200: envelope(Roadmap), ...errors },
});

export const checkRoadmapAssigned = defineCall({
  method: 'GET',
  path: '/roadmap/check-roadmap-assigned-to-user/{id}',
  summary: 'Whether the learner already has this roadmap.',
  tags: ['roadmap'],
  access: ['USER'],
  params: idParam,
  responses: {
    200: envelope(z.object({ assigned: z.boolean(), assignedRoadmapId: Id.nullable() })),
    ...errors,
  },
});

export const assignRoadmap = defineCall({
  method: 'POST',
  path: '/roadmap/assign-roadmap',
  summary: `Assigns a roadmap to the signed-in learner. At most ${MAX_ONGOING_ROADMAPS} ongoing roadmaps.`,
  tags: ['roadmap'],
  access: ['USER'],
  body: z.object({ roadmapId: Id }),
  responses: { 201: envelope(z.object({ assignedRoadmapId: Id })), ...errors },
});

export const myRoadmaps = defineCall({
  method: 'GET',
  path: '/roadmap/my-roadmaps',
  summary: "The learner's assigned roadmaps.",
  tags: ['roadmap'],
  access: ['USER'],
  responses: { 200: envelope(z.array(AssignedRoadmapSummary)), ...errors },
});

export const assignedRoadmap = defineCall({
  method: 'GET',
  path: '/roadmap/assigned-roadmap/{id}',
  summary: "One of the learner's assigned roadmaps with sections, resources, scores and tasks.",
  tags: ['roadmap'],
  access: ['USER'],
  params: idParam,
  responses: { 200: envelope(AssignedRoadmap), ...errors },
});

/** How a learner did on one prerequisite in the prerequisite assessment. */
export const PrerequisiteScore = z.object({ roadmapId: Id, roadmapName: z.string(), percentage: z.number() });
entities.add(PrerequisiteScore, { id: 'PrerequisiteScore' });

export const AssignedRoadmapPreview = z.object({
  _id: Id,
  roadmapId: Id,
  name: z.string(),
  subject: z.object({ name: z.string() }),
  sectionCount: z.number().int(),
  resourceCount: z.number().int(),
  sections: z.array(
    z.object({ name: z.string(), resources: z.array(z.object({ actualTitle: z.string() })) }),
  ),
  /** Whether a learner has claimed it already. */
  claimed: z.boolean(),
  /** Whether it is the signed-in caller's own roadmap. */
  mine: z.boolean(),
  /**
   * The result of the prerequisite assessment it came from, per prerequisite; null when it did not come
   * from one. Shown to whoever holds an unclaimed roadmap, and afterwards only to its learner.
   */
  prerequisiteResults: z.array(PrerequisiteScore).nullable(),
});
entities.add(AssignedRoadmapPreview, { id: 'AssignedRoadmapPreview' });

export const assignedRoadmapNoAuth = defineCall({
  method: 'GET',
  path: '/roadmap/assigned-roadmap-noauth/{assignedRoadmapId}',
  summary:
    'The preview of a just-assigned roadmap (before or after signing in), with the result of the prerequisite assessment it came from.',
  tags: ['roadmap'],
  access: 'optional',
  params: z.object({ assignedRoadmapId: Id }),
  responses: { 200: envelope(AssignedRoadmapPreview), ...errors },
});

export const prerequisiteSelectedRoadmap = defineCall({
  method: 'GET',
  path: '/roadmap/prerequisite-selected-roadmap/{id}',
  summary:
    'A roadmap and its prerequisites, to decide between the prerequisite assessment and direct assignment.',
  tags: ['roadmap'],
  access: 'public',
  params: idParam,
  responses: { 200: envelope(PrerequisiteSelection), ...errors },
});

export const generateInitialAssessment = defineCall({
  method: 'POST',
  path: '/roadmap/generate-initial-assessment-questions/{id}',
  summary:
    'Draws the prerequisite (initial) assessment of a roadmap from its prerequisite roadmaps; works before sign-in.',
  tags: ['roadmap'],
  access: 'optional',
  rateLimit: 'strict',
  params: idParam,
  responses: { 200: envelope(z.object({ linkId: z.string() })), ...errors },
});

export const InitialAssessment = z.object({
  linkId: z.string(),
  roadmapId: Id,
  roadmapName: z.string(),
  questions: z.array(TakerQuestion),
  /** Answers already saved, so a reload resumes. */
  answers: z.array(Answer),
  isCompleted: z.boolean(),
});
entities.add(InitialAssessment, { id: 'InitialAssessment' });

export const initialAssessment = defineCall({
  method: 'GET',
  path: '/roadmap/assessment/{linkId}',
  summary: 'The questions of a prerequisite assessment, without any correctness data.',
  tags: ['roadmap'],
  access: 'optional',
  params: z.object({ linkId: z.string().min(10).max(64) }),
  responses: { 200: envelope(InitialAssessment), ...errors },
});

export const evaluateAndCreateRoadmap = defineCall({
  method: 'POST',
  path: '/roadmap/evaluvate-and-create-roadmap',
  summary:
    "Scores a prerequisite assessment and creates the learner's roadmap: the sections of each prerequisite scored below 60 % come first.",
  tags: ['roadmap'],
  access: 'optional',
  body: z.object({
    linkId: z.string().min(10).max(64),
    answers: z.array(Answer.extend({ roadmapId: Id })).max(200),
  }),
  responses: {
    200: envelope(
      AssignedRoadmapSummary.extend({
        prerequisiteScores: z.array(PrerequisiteScore),
      }),
    ),
    ...errors,
  },
});

export const createRoadmap = defineCall({
  method: 'POST',
  path: '/roadmap/create-roadmap/{id}',
  summary:
    'Selects a roadmap without prerequisites from the catalogue: creates the assigned roadmap (for the caller, or unclaimed before sign-in).',
  tags: ['roadmap'],
  access: 'optional',
  rateLimit: 'strict',
  params: idParam,
  responses: { 201: envelope(AssignedRoadmapSummary), ...errors },
});

export const assignUserToRoadmap = defineCall({
  method: 'PUT',
  path: '/roadmap/assign-user-to-roadmap/{id}',
  summary: 'Claims an assigned roadmap created before sign-in for the signed-in learner.',
  tags: ['roadmap'],
  access: ['USER'],
  params: idParam,
  responses: { 201: envelope(AssignedRoadmapSummary), ...errors },
});

export const submitTask = defineCall({
  method: 'PUT',
  path: '/roadmap/assigned-roadmap/{id}/task/{taskId}/submit',
  summary: 'Marks a task of an assigned roadmap as submitted, with an optional link to the work.',
  tags: ['roadmap'],
  access: ['USER'],
  params: z.object({ id: Id, taskId: Id }),
  body: z.object({
    url: z.url({ error: 'must be a link such as https://github.com/you/work' }).max(2048).optional(),
  }),
  responses: { 200: Ok, ...errors },
});

export const resourceByShortId = defineCall({
  method: 'GET',
  path: '/resource/{shortId}',
  summary: "A resource's address by its short id (404 'Resource not found').",
  tags: ['resource'],
  access: 'optional',
  params: z.object({
    shortId: z
      .string()
      .min(4)
      .max(32)
      .regex(/^[A-Za-z0-9_-]+$/, 'is not a short id'),
  }),
  query: z.object({ device: z.enum(['WEB', 'CHROME_EXTENSION', 'FIREFOX_EXTENSION']).default('WEB') }),
  responses: {
    200: envelope(z.object({ _id: Id, url: z.string(), actualTitle: z.string(), type: z.string() })),
    ...errors,
  },
});

export const contactUs = defineCall({
  method: 'POST',
  path: '/contact-us/send-email',
  summary: 'Sends a message to the support team.',
  tags: ['contact'],
  access: 'public',
  rateLimit: 'strict',
  body: ContactMessage,
  responses: { 200: Ok, 503: ErrorBody, ...errors },
});

/** The calls of a roadmap's prerequisite assessment (server/assessments/routes.ts). */
export const initialAssessmentRouter = defineRouter({
  generateInitialAssessment,
  initialAssessment,
  evaluateAndCreateRoadmap,
});

/** The calls of roadmaps, resources and the contact form (server/catalogue/routes.ts). */
export const catalogueRouter = defineRouter({
  roadmapList,
  roadmapListNoAuth,
  roadmapNoAuth,
  roadmapView,
  checkRoadmapAssigned,
  assignRoadmap,
  myRoadmaps,
  assignedRoadmap,
  assignedRoadmapNoAuth,
  prerequisiteSelectedRoadmap,
  createRoadmap,
  assignUserToRoadmap,
  submitTask,
  resourceByShortId,
  contactUs,
});
