/**
 * A learner's test links: asking for one (decision 010: one open attempt, the retake's cool-down, fresh
 * questions first) by the kind of test — a subject, or a roadmap's final test, section or resource (a table
 * of link kinds, `LINK_KINDS`) — or by a resource's id, sending it by e-mail; and listing them.
 */
import type { CreateTestLinkInput } from '@shared/contract/assessments';
import { testKeyOf } from '@shared/rules/retakes';
import type { TestType } from '@shared/schemas/assessment';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { MailService } from '../adapters/mail';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { badRequest, conflict, notFound } from '../http/errors';
import { linkHooks } from './completion';
import {
  drawQuestions,
  freezeQuestions,
  newLinkId,
  QUESTION_COUNTS,
  questionsOfSubject,
  questionsTargeting,
  recentlySeen,
  resourcesOfSections,
} from './engine/drawing';
import { failureSince, lockTest, settle } from './engine/link-life';
import {
  DEFAULT_RETAKE_COOLDOWN_MS,
  isOpen,
  LINK_VALIDITY_MS,
  retakeCooldown,
  timeLimitFor,
} from './engine/rules';
import { isOpenSql, linkCols } from './engine/rules-sql';
import {
  findResourceInRoadmaps,
  linksOf,
  ownAssignedRoadmap,
  resourceInSection,
  sectionsOfAssigned,
  subjectById,
  subjectTestLanguage,
  toApiLinks,
} from './queries';
import { type LinkRow, testLinks } from './tables';

const LEVEL_NAMES: Partial<Record<TestType, string>> = {
  RESOURCE: 'resource',
  'RESOURCE-FROM-WHATSAPP': 'resource',
  SECTION: 'section',
  ROADMAP: 'roadmap',
  SUBJECT: 'subject',
};

const noQuestions = (type: TestType, field: string, language?: string) =>
  badRequest(
    `There are no questions for this ${LEVEL_NAMES[type] ?? 'test'}${language ? ` in ${language}` : ''} yet. Please try another one later.`,
    field,
  );

/** A link to make: its test, its learner, the questions it may draw, the field a refusal names. */
export interface NewLink {
  type: TestType;
  userId: string;
  candidates: string[];
  field: string;
  subjectId: string | null;
  roadmapId?: string | null;
  assignedRoadmapId?: string | null;
  sectionId?: string | null;
  resourceId?: string | null;
  lookingForJob?: 'YES' | 'NO' | 'IN FUTURE' | null;
  names: {
    assignedRoadMapName?: string | null;
    assignedSectionName?: string | null;
    assignedResourceName?: string | null;
    assignedSubjectName?: string | null;
  };
}

/**
 * The learner's link to a test (decision 010), under a lock on the learner and the test so that two requests
 * at once cannot make two links:
 * - an open attempt of the same test (not taken yet, or in progress) is given back rather than another drawn;
 * - a failure of the same test within the cool-down refuses it with 409 RETAKE_COOLDOWN, naming when it opens;
 * - otherwise the questions are drawn — those the learner has not met first, then the least recently met —
 *   and frozen with the new link.
 */
export async function createLink(
  db: Db,
  spec: NewLink,
  now: Date,
  cooldownMs = DEFAULT_RETAKE_COOLDOWN_MS,
): Promise<LinkRow> {
  const count = QUESTION_COUNTS[spec.type] ?? 10;
  const key = testKeyOf({ ...spec, subjectId: spec.subjectId });
  return inTx(db, async (tx) => {
    if (key) {
      await lockTest(tx, spec.userId, key);
      const open = await tx
        .select()
        .from(testLinks)
        .where(
          and(
            eq(testLinks.userId, spec.userId),
            eq(testLinks.testKey, key),
            isOpenSql(linkCols('test_links')),
          ),
        )
        .orderBy(desc(testLinks.createdAt));
      for (const found of open) {
        // brought up to date with the clock: an overdue attempt is evaluated (and may start the cool-down)
        const link = await settle(tx, found, now, linkHooks);
        if (isOpen(link)) return link;
      }
      if (cooldownMs > 0) {
        const failed = await failureSince(tx, spec.userId, key, new Date(now.getTime() - cooldownMs));
        if (failed) throw retakeCooldown(new Date(failed.getTime() + cooldownMs), now, spec.field);
      }
    }
    const seen = await recentlySeen(tx, spec.userId, spec.candidates);
    const drawn = await drawQuestions(tx, [{ candidates: spec.candidates, count }], seen);
    if (drawn.length === 0) throw noQuestions(spec.type, spec.field);
    const [link] = await tx
      .insert(testLinks)
      .values({
        linkId: newLinkId(),
        type: spec.type,
        userId: spec.userId,
        subjectId: spec.subjectId,
        roadmapId: spec.roadmapId ?? null,
        assignedRoadmapId: spec.assignedRoadmapId ?? null,
        sectionId: spec.sectionId ?? null,
        resourceId: spec.resourceId ?? null,
        lookingForJob: spec.lookingForJob ?? null,
        ...spec.names,
        questionCount: drawn.length,
        timeLimitMinutes: timeLimitFor(drawn.length),
        expiresAt: new Date(now.getTime() + LINK_VALIDITY_MS),
        createdAt: now,
      })
      .returning();
    await freezeQuestions(tx, link!.id, drawn);
    return link!;
  });
}

// ---------------------------------------------------------------- the kinds of link a learner asks for

/** What a learner asks a link for (`POST /testlink/create`). */
export type LinkRequest = z.infer<typeof CreateTestLinkInput>;
type RequestOf<T extends LinkRequest['type']> = Extract<LinkRequest, { type: T }>;

/** The learner's assigned roadmap a request names, with its sections; 404 when not theirs, 409 when completed. */
async function inRoadmap(db: Db, userId: string, assignedRoadmapId: string) {
  const ar = await ownAssignedRoadmap(db, userId, assignedRoadmapId);
  if (!ar) throw notFound('This roadmap is not assigned to you.');
  if (ar.status === 'COMPLETED') throw conflict('This roadmap is completed.', { field: 'assignedRoadmapId' });
  const base = { userId, subjectId: ar.subjectId, roadmapId: ar.roadmapId, assignedRoadmapId: ar.id };
  return { ar, base, sections: await sectionsOfAssigned(db, ar) };
}

/** The section of the learner's roadmap a request names (404 when it is not in it). */
async function inSection(db: Db, userId: string, request: RequestOf<'SECTION' | 'RESOURCE'>) {
  const found = await inRoadmap(db, userId, request.assignedRoadmapId);
  const section = found.sections.find((s) => s.id === request.sectionId);
  if (!section) throw notFound('This section is not in your roadmap.');
  return { ...found, section };
}

/**
 * Each kind of link a learner asks for: where its questions come from (in one language: decision 010), the
 * field a refusal names, and the names frozen with the link. Each checks what the request names, in order.
 */
const LINK_KINDS: {
  [T in LinkRequest['type']]: (db: Db, userId: string, r: RequestOf<T>) => Promise<NewLink>;
} = {
  async SUBJECT(db, userId, r) {
    const subject = await subjectById(db, r.subject);
    if (!subject) throw badRequest('Please select a subject', 'subject');
    // in the learner's language, never a mix (decision 010)
    const language = await subjectTestLanguage(db, userId, subject.id);
    if (!language) throw noQuestions('SUBJECT', 'subject');
    const candidates = await questionsOfSubject(db, subject.id, language.id);
    if (candidates.length === 0) throw noQuestions('SUBJECT', 'subject', language.name);
    return {
      type: 'SUBJECT',
      userId,
      candidates,
      field: 'subject',
      subjectId: subject.id,
      lookingForJob: r.lookingForJob,
      names: { assignedSubjectName: subject.name },
    };
  },

  async ROADMAP(db, userId, r) {
    const { ar, base, sections } = await inRoadmap(db, userId, r.assignedRoadmapId);
    const sectionIds = sections.map((s) => s.id);
    const targets = {
      roadmaps: [ar.roadmapId],
      sections: sectionIds,
      resources: await resourcesOfSections(db, sectionIds),
    };
    return {
      ...base,
      type: 'ROADMAP',
      field: 'assignedRoadmapId',
      candidates: await questionsTargeting(db, targets, ar.languageId),
      names: { assignedRoadMapName: ar.name },
    };
  },

  async SECTION(db, userId, r) {
    const { ar, base, section } = await inSection(db, userId, r);
    const targets = { sections: [section.id], resources: await resourcesOfSections(db, [section.id]) };
    return {
      ...base,
      type: 'SECTION',
      field: 'sectionId',
      sectionId: section.id,
      candidates: await questionsTargeting(db, targets, ar.languageId),
      names: { assignedRoadMapName: ar.name, assignedSectionName: section.name },
    };
  },

  async RESOURCE(db, userId, r) {
    const { ar, base, section } = await inSection(db, userId, r);
    const resource = await resourceInSection(db, section.id, r.resourceId);
    if (!resource) throw notFound('This resource is not in this section of your roadmap.');
    return {
      ...base,
      type: 'RESOURCE',
      field: 'resourceId',
      sectionId: section.id,
      resourceId: resource.id,
      candidates: await questionsTargeting(db, { resources: [resource.id] }, ar.languageId),
      names: {
        assignedRoadMapName: ar.name,
        assignedSectionName: section.name,
        assignedResourceName: resource.title,
      },
    };
  },
};

/** The learner's link to the test a request asks for (createLink: an open one given back, or a new one). */
export async function createTestLink(
  db: Db,
  userId: string,
  request: LinkRequest,
  now: Date,
  cooldownMs = DEFAULT_RETAKE_COOLDOWN_MS,
): Promise<LinkRow> {
  const kind = LINK_KINDS[request.type] as (db: Db, userId: string, r: LinkRequest) => Promise<NewLink>;
  return createLink(db, await kind(db, userId, request), now, cooldownMs);
}

/**
 * The learner's link to a resource's test by the resource's id (the link sent to a learner, e.g. by message),
 * from the first of their roadmaps that holds it; with `mail`, sent to them by e-mail.
 */
export async function resourceTestLink(
  db: Db,
  learner: { id: string; name: string | null; email: string },
  resourceId: string,
  now: Date,
  cooldownMs: number,
  mail?: { service: MailService; publicUrl: string },
): Promise<{ link: LinkRow; emailed: boolean }> {
  const found = await findResourceInRoadmaps(db, learner.id, resourceId);
  if (!found) throw notFound('This resource is not in any of your roadmaps.');
  const link = await createLink(
    db,
    {
      type: 'RESOURCE-FROM-WHATSAPP',
      userId: learner.id,
      field: 'id',
      subjectId: found.ar.subjectId,
      roadmapId: found.ar.roadmapId,
      assignedRoadmapId: found.ar.id,
      sectionId: found.section.id,
      resourceId,
      candidates: await questionsTargeting(db, { resources: [resourceId] }, found.ar.languageId),
      names: {
        assignedRoadMapName: found.ar.name,
        assignedSectionName: found.section.name,
        assignedResourceName: found.title,
      },
    },
    now,
    cooldownMs,
  );
  if (!mail) return { link, emailed: false };
  const url = `${mail.publicUrl}/test/${link.linkId}`;
  await mail.service.send({
    to: learner.email,
    kind: 'test-link',
    subject: `Your test link for ${found.title}`,
    text: `Hello ${learner.name ?? ''},\n\nYour test link for "${found.title}" (${found.ar.name}) is ready.\nOpen it to read the instructions and start the test when you are ready:\n\n${url}\n\nThe link stays valid for ${Math.round(LINK_VALIDITY_MS / 86400_000)} days. Once started, you have ${link.timeLimitMinutes} minutes.\n\nWaymark`,
  });
  return { link, emailed: true };
}

/** The learner's test links in the API's shape: overdue ones evaluated, unused expired ones marked, first. */
export async function learnerLinks(
  db: Db,
  userId: string,
  assignedRoadmapId: string | undefined,
  now: Date,
  cooldownMs: number,
) {
  const open = await db
    .select()
    .from(testLinks)
    .where(and(eq(testLinks.userId, userId), isOpenSql(linkCols('test_links'))));
  for (const link of open) await settle(db, link, now, linkHooks);
  return toApiLinks(db, await linksOf(db, userId, assignedRoadmapId), cooldownMs, now);
}
