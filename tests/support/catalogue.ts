/** The demo catalogue (server/catalogue/demo-content.ts) as a spec's fresh learner uses it. */
import type { Client } from '../../shared/client/client';
import { assignedRoadmap, assignRoadmap, roadmapList } from '../../shared/contract/catalogue';

/** Assigns a roadmap of the demo catalogue to the learner of `api`; the assigned roadmap with its sections. */
export async function assignDemoRoadmap(api: Client, name = 'JavaScript Foundations') {
  const roadmap = (await api.call(roadmapList, { query: {} })).data.find((r) => r.name === name);
  if (!roadmap) throw new Error(`the demo catalogue has no roadmap ${name}`);
  const assigned = (await api.call(assignRoadmap, { body: { roadmapId: roadmap._id } })).data;
  return (await api.call(assignedRoadmap, { params: { id: assigned.assignedRoadmapId } })).data;
}
