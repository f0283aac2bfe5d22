/** The demo catalogue (server/demo/catalogue.ts) as a spec's fresh learner and a visitor use it. */
import { type APIRequestContext, expect } from '@playwright/test';
import type { Client } from '../../shared/client/client';
import { createTestLink } from '../../shared/contract/assessments';
import { assignedRoadmap, assignRoadmap, roadmapList } from '../../shared/contract/catalogue';
import type { Roadmap, RoadmapSummary } from '../../shared/schemas/catalogue';

/** The public catalogue, as the landing page reads it. */
export async function catalogue(request: APIRequestContext): Promise<RoadmapSummary[]> {
  const res = await request.get('/api/roadmap/list/no-auth');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: RoadmapSummary[] }).data;
}

/** One roadmap with its sections, resources and tasks, as the course page reads it. */
export async function detail(request: APIRequestContext, id: string): Promise<Roadmap> {
  const res = await request.get(`/api/roadmap/${id}/no-auth`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: Roadmap }).data;
}

/** The roadmap of that name in a list (the test fails when there is none). */
export function byName<R extends { name: string }>(list: readonly R[], name: string): R {
  const found = list.find((r) => r.name === name);
  expect(found, `the demo catalogue has ${name}`).toBeTruthy();
  return found!;
}

/** Assigns a roadmap of the demo catalogue to the learner of `api`; the assigned roadmap with its sections. */
export async function assignDemoRoadmap(api: Client, name = 'JavaScript Foundations') {
  const roadmap = (await api.call(roadmapList, { query: {} })).data.find((r) => r.name === name);
  if (!roadmap) throw new Error(`the demo catalogue has no roadmap ${name}`);
  const assigned = (await api.call(assignRoadmap, { body: { roadmapId: roadmap._id } })).data;
  return (await api.call(assignedRoadmap, { params: { id: assigned.assignedRoadmapId } })).data;
}

/** Test links of the first `count` resources of an assigned roadmap that the question bank can test. */
export async function resourceTestLinks(
  api: Client,
  roadmap: Awaited<ReturnType<typeof assignDemoRoadmap>>,
  count: number,
) {
  const links: string[] = [];
  for (const section of roadmap.sections) {
    for (const resource of section.resources) {
      if (links.length === count) return links;
      const link = await api
        .call(createTestLink, {
          body: {
            type: 'RESOURCE',
            assignedRoadmapId: roadmap._id,
            sectionId: section._id,
            resourceId: resource._id,
          },
        })
        .catch(() => null);
      if (link) links.push(link.data.testLinkId);
    }
  }
  return links;
}
