/**
 * A tenant's sandbox (decision 041): a space of its own beside the tenant's real learners, to build a page
 * with the elements against.
 *
 * - **Its learners** are accounts of their own (`users.sandbox_of` = the tenant): no seat (so never counted
 *   nor billed, never in the tenant's lists, reports or statistics, and no seat can be made of them), no
 *   identity account (they never sign in; their addresses are at a reserved domain), deleted with the tenant.
 * - **Its roadmaps** are the catalogue's: each learner has one assigned (by the tenant), with a resource's
 *   and its section's test link, drawn as any learner's are.
 * - **Its links** are marked (`test_links.sandbox`): they never expire, no retake cool-down holds them back,
 *   every page and award of them says Sandbox, and their awards are never issued as credentials.
 * - **A reset** puts every attempt back to its start in one transaction: the same link ids and questions,
 *   no answer, focus record, score or award.
 * Everything is in the database: any server process serves any call.
 */
import { SANDBOX_EMAIL_DOMAIN, SANDBOX_WORDS } from '@shared/rules/sandbox';
import { awardPath, hasEarnedAward } from '@shared/rules/test-status';
import type { Sandbox } from '@shared/schemas/sandbox';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { questionsTargeting, resourcesOfSections } from '../assessments/engine/drawing';
import { createLink } from '../assessments/links';
import { ownAssignedRoadmap, sectionsOfAssigned } from '../assessments/queries';
import { type LinkRow, testActivity, testAnswers, testLinks } from '../assessments/tables';
import { assignToLearner } from '../catalogue/learning';
import { resources, roadmaps, sectionResources, sections } from '../catalogue/tables';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { users } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { sandboxes } from './tables';

/** The demo learners of a new sandbox. */
export const SANDBOX_LEARNERS = ['Asha Sandbox', 'Ben Sandbox', 'Chen Sandbox'] as const;

/** A catalogue roadmap a sandbox can use: its first resource with questions, in its section. */
interface Usable {
  roadmapId: string;
  sectionId: string;
  resourceId: string;
}

/** Up to `count` published roadmaps of the catalogue with a resource that has questions, by name. */
async function usableRoadmaps(db: Db, count: number): Promise<Usable[]> {
  const found: Usable[] = [];
  const published = await db
    .select({ id: roadmaps.id, languageId: roadmaps.languageId })
    .from(roadmaps)
    .where(eq(roadmaps.isPublished, true))
    .orderBy(asc(roadmaps.name));
  for (const roadmap of published) {
    const inRoadmap = await db
      .select({ sectionId: sections.id, resourceId: sectionResources.resourceId })
      .from(sections)
      .innerJoin(sectionResources, eq(sectionResources.sectionId, sections.id))
      .where(eq(sections.roadmapId, roadmap.id))
      .orderBy(asc(sections.position), asc(sectionResources.position));
    for (const r of inRoadmap) {
      if ((await questionsTargeting(db, { resources: [r.resourceId] }, roadmap.languageId)).length) {
        found.push({ roadmapId: roadmap.id, ...r });
        break;
      }
    }
    if (found.length === count) break;
  }
  return found;
}

/** A learner's resource link and its section's, on the roadmap assigned to them (as createTestLink draws). */
async function linksFor(db: Db, learnerId: string, assignedId: string, use: Usable, now: Date) {
  const ar = (await ownAssignedRoadmap(db, learnerId, assignedId))!;
  const section = (await sectionsOfAssigned(db, ar)).find((s) => s.id === use.sectionId)!;
  const [resource] = await db
    .select({ id: resources.id, title: resources.actualTitle })
    .from(resources)
    .where(eq(resources.id, use.resourceId));
  const base = {
    userId: learnerId,
    subjectId: ar.subjectId,
    roadmapId: ar.roadmapId,
    assignedRoadmapId: ar.id,
    sectionId: section.id,
  };
  const made: LinkRow[] = [];
  // no cool-down: a sandbox's attempts are reset instead
  made.push(
    await createLink(
      db,
      {
        ...base,
        type: 'RESOURCE',
        field: 'resourceId',
        resourceId: resource!.id,
        candidates: await questionsTargeting(db, { resources: [resource!.id] }, ar.languageId),
        names: {
          assignedRoadMapName: ar.name,
          assignedSectionName: section.name,
          assignedResourceName: resource!.title,
        },
      },
      now,
      0,
    ),
  );
  const sectionBank = await questionsTargeting(
    db,
    { sections: [section.id], resources: await resourcesOfSections(db, [section.id]) },
    ar.languageId,
  );
  made.push(
    await createLink(
      db,
      {
        ...base,
        type: 'SECTION',
        field: 'sectionId',
        candidates: sectionBank,
        names: { assignedRoadMapName: ar.name, assignedSectionName: section.name },
      },
      now,
      0,
    ),
  );
  return made;
}

/**
 * Creates the tenant's sandbox, or gives back the one it has (`created` false). Two requests at once make
 * one: the second waits on the first's row and finds it.
 */
export async function createSandbox(
  db: Db,
  tenantId: string,
  publicUrl: string,
  now: Date,
): Promise<{ sandbox: Sandbox; created: boolean }> {
  const created = await inTx(db, async (tx) => {
    const [row] = await tx
      .insert(sandboxes)
      .values({ tenantId, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!row) return false;
    const usable = await usableRoadmaps(tx, SANDBOX_LEARNERS.length);
    if (!usable.length)
      throw conflict('The catalogue has no published roadmap with questions yet: a sandbox needs one.');
    const tag = tenantId.slice(0, 8);
    for (const [i, name] of SANDBOX_LEARNERS.entries()) {
      const id = crypto.randomUUID();
      await tx.insert(users).values({
        id,
        // no identity account has this uid: the learner never signs in
        firebaseUid: `sandbox:${id}`,
        email: `learner-${i + 1}.${tag}.${id.slice(0, 8)}@${SANDBOX_EMAIL_DOMAIN}`,
        emailVerified: false,
        role: 'USER',
        name,
        isProfileCompleted: true,
        isFirstLogin: false,
        sandboxOf: tenantId,
      });
      const use = usable[i % usable.length]!;
      const { row: assigned } = await assignToLearner(tx, {
        userId: id,
        roadmapId: use.roadmapId,
        source: 'TENANT',
        assignedBy: tenantId,
        prerequisites: 'WAIVE',
      });
      const links = await linksFor(tx, id, assigned.id, use, now);
      await tx
        .update(testLinks)
        .set({ sandbox: true, expiresAt: null })
        .where(
          inArray(
            testLinks.id,
            links.map((l) => l.id),
          ),
        );
    }
    return true;
  });
  return { sandbox: (await sandboxOf(db, tenantId, publicUrl))!, created };
}

/**
 * Puts every attempt of the tenant's sandbox back to its start: each link open, not started, with no
 * answer, focus record, score, attempt token or award. The same link ids and questions, so a page built
 * against them keeps working. 404 when the tenant has none.
 */
export async function resetSandbox(db: Db, tenantId: string, publicUrl: string, now: Date): Promise<Sandbox> {
  await inTx(db, async (tx) => {
    // one reset at a time per sandbox, across processes
    const [row] = await tx.select().from(sandboxes).where(eq(sandboxes.tenantId, tenantId)).for('update');
    if (!row) throw notFound(SANDBOX_WORDS.none);
    const ids = sql`(select l.id from ${testLinks} l join ${users} u on u.id = l.user_id
      where u.sandbox_of = ${tenantId} and l.sandbox)`;
    await tx.delete(testAnswers).where(sql`${testAnswers.testLinkId} in ${ids}`);
    await tx.delete(testActivity).where(sql`${testActivity.testLinkId} in ${ids}`);
    await tx
      .update(testLinks)
      .set({
        status: 'TAKE_TEST',
        isCompleted: false,
        score: null,
        percentage: null,
        startedAt: null,
        deadlineAt: null,
        completedAt: null,
        completedIn: null,
        attempt: null,
        attemptTokenHash: null,
        certificateGenerated: false,
        certificatePath: null,
        expiresAt: null,
      })
      .where(sql`${testLinks.id} in ${ids}`);
    await tx
      .update(sandboxes)
      .set({ resetAt: now, resets: sql`${sandboxes.resets} + 1` })
      .where(eq(sandboxes.tenantId, tenantId));
  });
  return (await sandboxOf(db, tenantId, publicUrl))!;
}

/** The tenant's sandbox as the API shows it, or null. */
export async function sandboxOf(db: Db, tenantId: string, publicUrl: string): Promise<Sandbox | null> {
  const [row] = await db.select().from(sandboxes).where(eq(sandboxes.tenantId, tenantId));
  if (!row) return null;
  const learners = await db
    .select({ _id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.sandboxOf, tenantId))
    .orderBy(asc(users.name));
  const links = learners.length
    ? await db
        .select({ link: testLinks, learnerName: users.name })
        .from(testLinks)
        .innerJoin(users, eq(users.id, testLinks.userId))
        .where(and(eq(users.sandboxOf, tenantId), eq(testLinks.sandbox, true)))
        .orderBy(asc(users.name), asc(testLinks.createdAt), asc(testLinks.type))
    : [];
  const roadmapRows = learners.length
    ? rowsUnique(
        await db
          .select({ _id: roadmaps.id, name: roadmaps.name })
          .from(testLinks)
          .innerJoin(users, eq(users.id, testLinks.userId))
          .innerJoin(roadmaps, eq(roadmaps.id, testLinks.roadmapId))
          .where(and(eq(users.sandboxOf, tenantId), eq(testLinks.sandbox, true)))
          .orderBy(asc(roadmaps.name)),
      )
    : [];
  return {
    createdAt: row.createdAt.toISOString(),
    resetAt: row.resetAt?.toISOString() ?? null,
    resets: row.resets,
    learners: learners.map((l) => ({ _id: l._id, name: l.name ?? l.email, email: l.email })),
    roadmaps: roadmapRows,
    links: links.map(({ link, learnerName }) => {
      const award = link.isCompleted && hasEarnedAward(link) ? awardPath(link.type, link.linkId) : null;
      return {
        linkId: link.linkId,
        learnerId: link.userId!,
        learnerName: learnerName ?? '',
        type: link.type,
        title: link.assignedResourceName ?? link.assignedSectionName ?? link.assignedRoadMapName ?? '',
        roadmapName: link.assignedRoadMapName ?? '',
        status: link.status,
        isCompleted: link.isCompleted,
        percentage: link.percentage,
        testUrl: `${publicUrl}/test/${link.linkId}`,
        awardUrl: award ? `${publicUrl}${award}` : null,
      };
    }),
  };
}

/** Rows with distinct ids, in their order. */
function rowsUnique<T extends { _id: string }>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r._id) && seen.add(r._id));
}
