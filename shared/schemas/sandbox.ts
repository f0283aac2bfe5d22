/**
 * A tenant's sandbox (decision 041): demo learners on catalogue roadmaps with open test links, to build a
 * page with the elements against; its attempts are reset on demand, it is never billed, and every page and
 * award of it says "Sandbox".
 */
import { z } from 'zod';
import { TestStatus, TestType } from './assessment';
import { DateTime, Id } from './common';
import { entities } from './entities';

export const SandboxLearner = z.object({
  _id: Id,
  name: z.string(),
  /** At the reserved domain sandbox.waymark.invalid: no mail goes there, no one signs in with it. */
  email: z.string(),
});
entities.add(SandboxLearner, { id: 'SandboxLearner' });

export const SandboxLink = z.object({
  /** The link id: `<wm-test-taker link-id="…">`, and /test/{linkId} on Waymark. */
  linkId: z.string(),
  learnerId: Id,
  learnerName: z.string(),
  type: TestType,
  /** The resource's or the section's name. */
  title: z.string(),
  roadmapName: z.string(),
  status: TestStatus,
  isCompleted: z.boolean(),
  /** The score in percent once evaluated, else null. */
  percentage: z.number().nullable(),
  testUrl: z.string(),
  /** The award page once the test earned one (a sandbox award: no credential), else null. */
  awardUrl: z.string().nullable(),
});
entities.add(SandboxLink, { id: 'SandboxLink' });

export const Sandbox = z.object({
  createdAt: DateTime,
  /** When its attempts were last reset; null before the first reset. */
  resetAt: DateTime.nullable(),
  resets: z.number().int(),
  learners: z.array(SandboxLearner),
  /** The catalogue roadmaps its learners have. */
  roadmaps: z.array(z.object({ _id: Id, name: z.string() })),
  links: z.array(SandboxLink),
});
entities.add(Sandbox, { id: 'Sandbox' });
export type Sandbox = z.infer<typeof Sandbox>;
