/**
 * The API calls the embeddable widgets make, as the client needs them (method, path, who may call),
 * typed by the contract but without its zod schemas: importing the contract at run time would bring
 * all of zod into every widget file (about 30 KB gzip, twice the budget of a widget). `calls.test.ts`
 * checks each entry against the contract, so they cannot drift.
 */
import type * as Catalogue from '@shared/contract/catalogue';
import type { Access, CallDef, Method } from '@shared/contract/define';

/** A call as the client needs it, without its zod schemas (each widget's calls test checks it against the contract). */
export function light<C extends CallDef>(method: Method, path: string, access: Access): C {
  return { method, path, access, summary: '', tags: [], responses: {} } as unknown as C;
}

export const widgetCalls = {
  roadmapListNoAuth: light<typeof Catalogue.roadmapListNoAuth>('GET', '/roadmap/list/no-auth', 'public'),
  roadmapNoAuth: light<typeof Catalogue.roadmapNoAuth>('GET', '/roadmap/{roadmapId}/no-auth', 'public'),
  prerequisiteSelectedRoadmap: light<typeof Catalogue.prerequisiteSelectedRoadmap>(
    'GET',
    '/roadmap/prerequisite-selected-roadmap/{id}',
    'public',
  ),
  generateInitialAssessment: light<typeof Catalogue.generateInitialAssessment>(
    'POST',
    '/roadmap/generate-initial-assessment-questions/{id}',
    'optional',
  ),
  createRoadmap: light<typeof Catalogue.createRoadmap>('POST', '/roadmap/create-roadmap/{id}', 'optional'),
};
