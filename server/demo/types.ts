/**
 * The shapes of the demo content (server/demo/subjects/): roadmaps with their sections, resources, tasks and
 * curators, and the questions aimed at them. The data is in the subject files; the seeding in catalogue.ts.
 */
import type { QuestionType } from '@shared/schemas/assessment';

export interface DemoAuthor {
  name: string;
  designation: string;
  shortDescription: string;
  longDescription: string;
  profilePath: string;
}

export interface DemoResource {
  /** Unique across the demo: questions aim at it, and a section of another roadmap may reuse it by key. */
  key: string;
  title: string;
  type: 'WATCH' | 'READ';
  url: string;
  /** Lesson marks inside a video, 'h:mm:ss'. */
  start?: string;
  end?: string;
}

export interface DemoSection {
  /** `{roadmap key}.{section}`: questions aim at it. */
  key: string;
  name: string;
  /** New resources, or the key of one defined in another section. */
  resources: (DemoResource | string)[];
}

export interface DemoTask {
  title: string;
  url: string;
}

export interface DemoRoadmap {
  key: string;
  name: string;
  description: string;
  language: string;
  subject: string;
  topic: string;
  image: string;
  authors: string[];
  prerequisites: string[];
  sections: DemoSection[];
  tasks: DemoTask[];
}

export interface DemoQuestion {
  at: `r:${string}` | `s:${string}` | `m:${string}`;
  /** MCQ when absent. */
  type?: QuestionType;
  q: string;
  code?: string;
  image?: string;
  /** Correct options (choice types). */
  right?: string[];
  /** Wrong options (choice types). */
  wrong?: string[];
  /** Accepted values (fill-in-blank): numbers are compared as numbers, text without regard to case. */
  accept?: string[];
  why: string;
  tags: string[];
}
