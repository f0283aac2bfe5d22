import { tenantRoadmap } from '@shared/contract/tenant';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';

/** GET /tenant/roadmap/{roadmapId}. */
export function useTenantRoadmap(roadmapId: string) {
  return useCall(
    (signal) => client.call(tenantRoadmap, { params: { roadmapId }, signal }).then((r) => r.data),
    [roadmapId],
  );
}

/** Roadmap detail failure (mentor §8). */
export const ROADMAP_LOAD_FAILED = "Couldn't load the roadmap, please try later";
