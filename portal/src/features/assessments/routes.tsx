/**
 * Learner assessment pages inside the signed-in layout (USER only, learner §2, §6): the test links table,
 * the questions-and-answers view, and the generated-link pages.
 */
import type { RouteObject } from 'react-router';

export const assessmentRoutes: RouteObject[] = [];
