/**
 * What an LTI link opens (decision 046): the Deep Linking picker's choices — what the mentor may assign,
 * nothing else — and, at a learner's launch, the learner's own copy of it, made by the same domain services
 * as the portal's. A target is the link's custom parameter `waymark_target`:
 *
 * - `roadmap:<roadmapId>` — a published roadmap, assigned to the learner (its progress is the grade);
 * - `test:final:<roadmapId>`, `test:section:<roadmapId>:<sectionId>`,
 *   `test:resource:<roadmapId>:<sectionId>:<resourceId>` — one of its assessments, from the learner's copy;
 * - `subject:<subjectId>` — a subject test;
 * - `assessment:<id>` — one of the tenant's own (custom) assessments.
 */

import { localMessage } from '@shared/i18n/message';
import type { LookingForJob } from '@shared/schemas/assessment';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { createTestLink, type LinkRequest } from '../../assessments/links';
import { customTestFor } from '../../authoring/builder';
import { tenantAssessments } from '../../authoring/tables';
import { assignToLearner } from '../../catalogue/learning';
import { resources, roadmaps, sectionResources, sections } from '../../catalogue/tables';
import type { Db } from '../../db/client';
import { subjects, users } from '../../db/schema';
import { HttpError } from '../../http/errors';
import type { QuestionCounts } from '../../questions/load';
import { questions } from '../../questions/tables';
import type { Actor } from '../core/principal';
import { LaunchRefused } from './platform';
import { recordGradeTarget } from './scores';

export type PickKind = 'ROADMAP' | 'FINAL' | 'SECTION' | 'RESOURCE' | 'SUBJECT' | 'ASSESSMENT';
export interface Pickable {
  target: string;
  title: string;
  kind: PickKind;
  group: string | null;
}

/** Everything the tenant may assign, as the picker lists it: roadmaps with their tests, subjects, its own. */
export async function pickables(db: Db, tenantId: string): Promise<Pickable[]> {
  const [maps, secs, res, subs, own] = await Promise.all([
    db
      .select({ id: roadmaps.id, name: roadmaps.name })
      .from(roadmaps)
      .where(eq(roadmaps.isPublished, true))
      .orderBy(asc(roadmaps.name), asc(roadmaps.id)),
    db
      .select({ id: sections.id, name: sections.name, roadmapId: sections.roadmapId })
      .from(sections)
      .innerJoin(roadmaps, eq(roadmaps.id, sections.roadmapId))
      .where(eq(roadmaps.isPublished, true))
      .orderBy(asc(sections.position), asc(sections.createdAt)),
    db
      .select({
        sectionId: sectionResources.sectionId,
        id: resources.id,
        title: sql<string>`coalesce(${resources.userTitle}, ${resources.actualTitle})`,
      })
      .from(sectionResources)
      .innerJoin(resources, eq(resources.id, sectionResources.resourceId))
      .orderBy(asc(sectionResources.position), asc(resources.actualTitle)),
    // a subject test needs published questions of the subject
    db
      .selectDistinct({ id: subjects.id, name: subjects.name })
      .from(subjects)
      .innerJoin(questions, and(eq(questions.subjectId, subjects.id), eq(questions.status, 'PUBLISH')))
      .orderBy(asc(subjects.name)),
    db
      .select({ id: tenantAssessments.id, name: tenantAssessments.name })
      .from(tenantAssessments)
      .where(eq(tenantAssessments.tenantId, tenantId))
      .orderBy(desc(tenantAssessments.createdAt)),
  ]);
  const items: Pickable[] = own.map((a) => ({
    target: `assessment:${a.id}`,
    title: a.name,
    kind: 'ASSESSMENT',
    group: null,
  }));
  const resourcesOf = groupBy(res, (r) => r.sectionId);
  const sectionsOf = groupBy(secs, (s) => s.roadmapId);
  for (const m of maps) {
    items.push({ target: `roadmap:${m.id}`, title: m.name, kind: 'ROADMAP', group: m.name });
    items.push({
      target: `test:final:${m.id}`,
      title: `${m.name}: final test`,
      kind: 'FINAL',
      group: m.name,
    });
    for (const s of sectionsOf.get(m.id) ?? []) {
      items.push({ target: `test:section:${m.id}:${s.id}`, title: s.name, kind: 'SECTION', group: m.name });
      for (const r of resourcesOf.get(s.id) ?? []) {
        items.push({
          target: `test:resource:${m.id}:${s.id}:${r.id}`,
          title: r.title,
          kind: 'RESOURCE',
          group: m.name,
        });
      }
    }
  }
  for (const s of subs) {
    items.push({ target: `subject:${s.id}`, title: s.name, kind: 'SUBJECT', group: null });
  }
  return items;
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** What a learner's launch opened, and what its grade follows. */
export interface Opened {
  opens: { page: 'test'; linkId: string } | { page: 'roadmap'; assignedRoadmapId: string };
  grade:
    | { kind: 'TEST'; testKey: string | null; tenantAssessmentId: string | null }
    | { kind: 'ROADMAP'; assignedRoadmapId: string };
}

export interface OpenDeps {
  db: Db;
  questionCounts: QuestionCounts;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const gone = () => new LaunchRefused('not-allowed', localMessage('errors.lti.launch.gone'));

/** How long a custom test opened from an LMS stays open. */
export const LAUNCHED_TEST_HOURS = 24;

/**
 * The learner's copy of a link's target, made at the first launch and the same one after: the roadmap
 * assigned on the tenant's behalf (as a mentor assigns it, prerequisites waived: the course sets the order),
 * the test link asked for as the portal asks for it (an open attempt given back, the retake's cool-down
 * honoured). A refusal of the domain (the roadmap limit, a cool-down, no questions) is the launch's page.
 */
async function openTarget(
  deps: OpenDeps,
  tenantId: string,
  learner: { id: string; email: string },
  actor: Actor,
  target: string,
  now: Date,
): Promise<Opened> {
  const [kind, ...ids] = target.split(':');
  if (!ids.length || !ids.slice(kind === 'test' ? 1 : 0).every((id) => UUID.test(id))) throw gone();
  try {
    if (kind === 'assessment' && ids.length === 1) {
      const link = await customTestFor(
        deps.db,
        deps.questionCounts,
        tenantId,
        ids[0]!,
        learner.id,
        now,
        LAUNCHED_TEST_HOURS,
      );
      if (!link) throw gone();
      return {
        opens: { page: 'test', linkId: link.linkId },
        grade: { kind: 'TEST', testKey: link.testKey, tenantAssessmentId: link.tenantAssessmentId },
      };
    }
    if (kind === 'subject' && ids.length === 1) {
      // the LMS asked the learner nothing about a job: nothing is recorded
      const request = { type: 'SUBJECT', subject: ids[0]!, lookingForJob: null as unknown as LookingForJob };
      return testOpened(await createTestLink(deps.db, learner.id, request as LinkRequest, now));
    }
    const roadmapId = kind === 'roadmap' ? ids[0] : kind === 'test' ? ids[1] : undefined;
    const [published] = roadmapId
      ? await deps.db
          .select({ id: roadmaps.id })
          .from(roadmaps)
          .where(and(eq(roadmaps.id, roadmapId), eq(roadmaps.isPublished, true)))
      : [];
    if (!published) throw gone();
    const { row } = await assignToLearner(deps.db, {
      userId: learner.id,
      roadmapId: published.id,
      source: 'TENANT',
      assignedBy: tenantId,
      prerequisites: 'WAIVE',
      audit: { by: actor, tenantId, learnerEmail: learner.email },
    });
    const assignedRoadmapId = row.id;
    const request = testRequest(ids, assignedRoadmapId);
    if (kind === 'roadmap' && ids.length === 1) {
      return { opens: { page: 'roadmap', assignedRoadmapId }, grade: { kind: 'ROADMAP', assignedRoadmapId } };
    }
    if (kind === 'test' && request)
      return testOpened(await createTestLink(deps.db, learner.id, request, now));
    throw gone();
  } catch (err) {
    if (err instanceof HttpError && err.statusCode < 500)
      throw new LaunchRefused('not-allowed', (t) => err.toBody(t).message);
    throw err;
  }
}

/**
 * A learner's launch of a link that names a target: its copy opened, and — when the platform gave the link a
 * line item — where its results go (the grade target, kept up to date at every launch).
 */
export async function openLink(
  deps: OpenDeps,
  registration: { id: string; tenantId: string; label: string },
  learner: { id: string; subject: string },
  from: { ip: string | null; userAgent: string | null },
  now: Date,
  link: { target: string; resourceLinkId: string | null; lineItem: string | null },
): Promise<Opened['opens']> {
  const actor: Actor = { kind: 'ltiPlatform', id: registration.id, label: registration.label, ...from };
  const [account] = await deps.db.select({ email: users.email }).from(users).where(eq(users.id, learner.id));
  const opened = await openTarget(
    deps,
    registration.tenantId,
    { id: learner.id, email: account?.email ?? '' },
    actor,
    link.target,
    now,
  );
  if (link.lineItem && link.resourceLinkId) {
    await recordGradeTarget(deps.db, {
      registrationId: registration.id,
      tenantId: registration.tenantId,
      userId: learner.id,
      subject: learner.subject,
      resourceLinkId: link.resourceLinkId,
      lineItemUrl: link.lineItem,
      ...opened.grade,
    });
  }
  return opened.opens;
}

/** The test request of a `test:…` target's ids, on the learner's copy of the roadmap. */
function testRequest(ids: string[], assignedRoadmapId: string): LinkRequest | null {
  const [level, , sectionId, resourceId] = ids;
  if (level === 'final' && ids.length === 2) return { type: 'ROADMAP', assignedRoadmapId };
  if (level === 'section' && ids.length === 3)
    return { type: 'SECTION', assignedRoadmapId, sectionId: sectionId! };
  if (level === 'resource' && ids.length === 4)
    return { type: 'RESOURCE', assignedRoadmapId, sectionId: sectionId!, resourceId: resourceId! };
  return null;
}

function testOpened(link: {
  linkId: string;
  testKey: string | null;
  tenantAssessmentId: string | null;
}): Opened {
  return {
    opens: { page: 'test', linkId: link.linkId },
    grade: { kind: 'TEST', testKey: link.testKey, tenantAssessmentId: link.tenantAssessmentId },
  };
}
