/** Learner pages inside the signed-in layout (USER only). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/lazy';

export const learnerRoutes: RouteObject[] = [
  { path: '/my-roadmaps', lazy: lazyPage(() => import('./MyRoadmapsPage')) },
  { path: '/delete', lazy: lazyPage(() => import('../profile/DeletePage')) },
];
