/**
 * Learner assessment pages inside the signed-in layout (USER only, learner §2, §6): the test links table,
 * the questions-and-answers view, and the generated-link pages.
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

export const assessmentRoutes: RouteObject[] = [
  { path: '/assesments', lazy: lazyPage(() => import('./AssessmentsPage')) },
  { path: '/assesments/:linkId/view', lazy: lazyPage(() => import('./TestViewPage')) },
  { path: '/generate-testlink/:id', lazy: lazyPage(() => import('./GenerateTestLinkPage')) },
  { path: '/get-link', lazy: lazyPage(() => import('./GetLinkPage')) },
];
