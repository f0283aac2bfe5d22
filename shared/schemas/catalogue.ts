import { z } from 'zod';
import { DateTime, Id } from './common';
import { entities } from './entities';
import { Subject } from './lists';

export const RESOURCE_TYPES = ['WATCH', 'READ'] as const;
export const ResourceType = z.enum(RESOURCE_TYPES);
entities.add(ResourceType, { id: 'ResourceType' });
export const ROADMAP_STATUSES = ['ONGOING', 'COMPLETED'] as const;
export const RoadmapStatus = z.enum(ROADMAP_STATUSES);
entities.add(RoadmapStatus, { id: 'RoadmapStatus' });

/** A start or end mark inside a resource (a video, say). */
export const TimeMark = z.object({
  hour: z.number().int().min(0),
  minute: z.number().int().min(0).max(59),
  second: z.number().int().min(0).max(59),
});
entities.add(TimeMark, { id: 'TimeMark' });

export const Resource = z.object({
  _id: Id,
  actualTitle: z.string(),
  userTitle: z.string().nullable(),
  type: ResourceType,
  url: z.url(),
  shortId: z.string(),
  start: TimeMark.nullable(),
  end: TimeMark.nullable(),
  assesmentIds: z.array(z.string()),
  belongToRoadmap: z.array(z.object({ _id: Id, name: z.string() })),
});
entities.add(Resource, { id: 'Resource' });
export type Resource = z.infer<typeof Resource>;

export const Section = z.object({
  _id: Id,
  name: z.string(),
  resources: z.array(Resource),
  assesmentIds: z.array(z.string()),
  /** Seconds, from resource start and end marks (negative spans count as 0). */
  duration: z.number(),
});
entities.add(Section, { id: 'Section' });
export type Section = z.infer<typeof Section>;

export const Task = z.object({
  _id: Id,
  actualTitle: z.string(),
  userTitle: z.string().nullable(),
  url: z.string(),
  type: ResourceType,
  isSubmited: z.boolean(),
});
entities.add(Task, { id: 'Task' });
export type Task = z.infer<typeof Task>;

export const Author = z.object({
  authorId: z.object({
    _id: Id,
    name: z.string(),
    profilePath: z.string().nullable(),
    designation: z.string().nullable(),
    shortDescription: z.string().nullable(),
    longDescription: z.string().nullable(),
  }),
});
entities.add(Author, { id: 'Author' });
export type Author = z.infer<typeof Author>;

export const Roadmap = z.object({
  _id: Id,
  name: z.string(),
  description: z.string(),
  language: z.object({ _id: Id, name: z.string() }),
  subject: Subject,
  topic: z.object({ _id: Id, name: z.string() }).nullable(),
  imgPath: z.string().nullable(),
  authors: z.array(Author),
  sections: z.array(Section),
  tasks: z.array(Task),
  prerequisites: z.array(z.object({ _id: Id, name: z.string() })),
  /** Seconds. */
  duration: z.number(),
  totalLectures: z.number().int(),
  createdAt: DateTime,
});
entities.add(Roadmap, { id: 'Roadmap' });
export type Roadmap = z.infer<typeof Roadmap>;

/** A catalogue row without its sections. */
export const RoadmapSummary = Roadmap.omit({ sections: true, tasks: true });
entities.add(RoadmapSummary, { id: 'RoadmapSummary' });
export type RoadmapSummary = z.infer<typeof RoadmapSummary>;

export const AssignedSection = Section.extend({
  /** The learner's best score (0-100) per resource, by resource id. */
  resourceScores: z.record(z.string(), z.number()),
});
entities.add(AssignedSection, { id: 'AssignedSection' });

export const AssignedRoadmap = z.object({
  _id: Id,
  roadmapId: Id,
  name: z.string(),
  description: z.string(),
  subject: Subject,
  language: z.object({ _id: Id, name: z.string() }),
  status: RoadmapStatus,
  userId: Id,
  sections: z.array(AssignedSection),
  tasks: z.array(Task),
  finalAssesmentId: z.string().nullable(),
  createdAt: DateTime,
});
entities.add(AssignedRoadmap, { id: 'AssignedRoadmap' });
export type AssignedRoadmap = z.infer<typeof AssignedRoadmap>;

export const AssignedRoadmapSummary = AssignedRoadmap.pick({
  _id: true,
  roadmapId: true,
  name: true,
  status: true,
  createdAt: true,
}).extend({
  /** Null while a roadmap selected before sign-in is not claimed yet. */
  userId: Id.nullable(),
});
entities.add(AssignedRoadmapSummary, { id: 'AssignedRoadmapSummary' });

/** Roadmap detail for selection. */
export const PrerequisiteSelection = z.object({
  selectedRoadmap: z.object({
    roadmapId: Id,
    roadmapName: z.string(),
    subject: z.object({ name: z.string() }),
  }),
  prerequisites: z.array(z.object({ roadmapId: Id, roadmapName: z.string() })),
});
entities.add(PrerequisiteSelection, { id: 'PrerequisiteSelection' });
