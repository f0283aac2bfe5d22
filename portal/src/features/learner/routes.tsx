/** Learner pages inside the signed-in layout (USER only). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

export const learnerRoutes: RouteObject[] = [
  { path: '/my-roadmaps', lazy: lazyPage(() => import('./MyRoadmapsPage')) },
  { path: '/my-roadmap/:id', lazy: lazyPage(() => import('./MyRoadmapPage')) },
  { path: '/all-roadmaps', lazy: lazyPage(() => import('./AllRoadmapsPage')) },
  { path: '/roadmap/:id', lazy: lazyPage(() => import('./RoadmapPage')) },
];
