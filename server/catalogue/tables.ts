/** The content model: roadmaps of sections of resources, tasks, curators, prerequisites; learners' copies. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { languages, subjects, topics, users } from '../db/schema';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const authors = pgTable('authors', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  profilePath: text('profile_path'),
  designation: text('designation'),
  shortDescription: text('short_description'),
  longDescription: text('long_description'),
  createdAt: createdAt(),
});

export const roadmaps = pgTable(
  'roadmaps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    languageId: uuid('language_id')
      .notNull()
      .references(() => languages.id),
    subjectId: uuid('subject_id')
      .notNull()
      .references(() => subjects.id),
    topicId: uuid('topic_id').references(() => topics.id),
    imgPath: text('img_path'),
    isPublished: boolean('is_published').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('roadmaps_name_key').on(t.name),
    index('roadmaps_filter_idx').on(t.languageId, t.subjectId, t.topicId),
  ],
);

export const roadmapAuthors = pgTable(
  'roadmap_authors',
  {
    roadmapId: uuid('roadmap_id')
      .notNull()
      .references(() => roadmaps.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => authors.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.roadmapId, t.authorId] })],
);

export const roadmapPrerequisites = pgTable(
  'roadmap_prerequisites',
  {
    roadmapId: uuid('roadmap_id')
      .notNull()
      .references(() => roadmaps.id, { onDelete: 'cascade' }),
    prerequisiteId: uuid('prerequisite_id')
      .notNull()
      .references(() => roadmaps.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.roadmapId, t.prerequisiteId] })],
);

export const sections = pgTable(
  'sections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roadmapId: uuid('roadmap_id')
      .notNull()
      .references(() => roadmaps.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('sections_roadmap_idx').on(t.roadmapId, t.position)],
);

export const resources = pgTable(
  'resources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actualTitle: text('actual_title').notNull(),
    userTitle: text('user_title'),
    type: text('type', { enum: ['WATCH', 'READ'] }).notNull(),
    url: text('url').notNull(),
    /** The short link id: /resource/{shortId}. */
    shortId: text('short_id').notNull(),
    /** Seconds into the resource where the lesson starts and ends (videos); null for the whole resource. */
    startSeconds: integer('start_seconds'),
    endSeconds: integer('end_seconds'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('resources_short_id_key').on(t.shortId), index('resources_url_idx').on(t.url)],
);

/** A resource may sit in sections of several roadmaps. */
export const sectionResources = pgTable(
  'section_resources',
  {
    sectionId: uuid('section_id')
      .notNull()
      .references(() => sections.id, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.sectionId, t.resourceId] }),
    index('section_resources_resource_idx').on(t.resourceId),
  ],
);

export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roadmapId: uuid('roadmap_id')
      .notNull()
      .references(() => roadmaps.id, { onDelete: 'cascade' }),
    actualTitle: text('actual_title').notNull(),
    userTitle: text('user_title'),
    url: text('url').notNull(),
    type: text('type', { enum: ['WATCH', 'READ'] })
      .notNull()
      .default('READ'),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('tasks_roadmap_idx').on(t.roadmapId, t.position)],
);

/**
 * A learner's copy of a roadmap. Created before sign-in from the public catalogue (userId null, claimed
 * later), by the learner, by a tenant for the learner, or from a prerequisite assessment.
 */
export const assignedRoadmaps = pgTable(
  'assigned_roadmaps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    roadmapId: uuid('roadmap_id')
      .notNull()
      .references(() => roadmaps.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['ONGOING', 'COMPLETED'] })
      .notNull()
      .default('ONGOING'),
    source: text('source', { enum: ['SELF', 'TENANT', 'INITIAL_ASSESSMENT', 'PUBLIC'] })
      .notNull()
      .default('SELF'),
    assignedBy: uuid('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * How the roadmap's prerequisites were settled (decision 011): ASSESSED by the prerequisite assessment,
     * INCLUDED (a mentor put every prerequisite's sections first) or WAIVED (a mentor vouched for them);
     * null when the roadmap has none.
     */
    prerequisites: text('prerequisites', { enum: ['ASSESSED', 'INCLUDED', 'WAIVED'] }),
    /** The link id of the final (roadmap) assessment that earned the certificate. */
    finalAssesmentId: text('final_assesment_id'),
    createdAt: createdAt(),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('assigned_roadmaps_user_idx').on(t.userId, t.status),
    uniqueIndex('assigned_roadmaps_user_roadmap_key')
      .on(t.userId, t.roadmapId)
      .where(sql`${t.userId} is not null`),
  ],
);

/** The sections of an assigned roadmap, in the learner's order (prerequisite sections may come first). */
export const assignedSections = pgTable(
  'assigned_sections',
  {
    assignedRoadmapId: uuid('assigned_roadmap_id')
      .notNull()
      .references(() => assignedRoadmaps.id, { onDelete: 'cascade' }),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => sections.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.assignedRoadmapId, t.sectionId] })],
);

export const taskSubmissions = pgTable(
  'task_submissions',
  {
    assignedRoadmapId: uuid('assigned_roadmap_id')
      .notNull()
      .references(() => assignedRoadmaps.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    url: text('url'),
    submittedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.assignedRoadmapId, t.taskId] })],
);
