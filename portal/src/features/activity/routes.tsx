/**
 * Learning-time pages inside the signed-in layout (USER only, learner §6): dashboard, what was tracked,
 * uninstall feedback.
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

export const activityRoutes: RouteObject[] = [
  { path: '/dashboard', lazy: lazyPage(() => import('./DashboardPage')) },
  { path: '/what-was-tracked', lazy: lazyPage(() => import('./TrackedPage')) },
  { path: '/sorry-to-see-you-go', lazy: lazyPage(() => import('./SorryPage')) },
  { path: '/thanks', lazy: lazyPage(() => import('./ThanksPage')) },
];
