/** Progress rules of a learner's roadmap (learner §4, §9). */
export const RESOURCE_TICK_THRESHOLD = 60;
