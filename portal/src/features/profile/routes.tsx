/** The profile pages inside the signed-in layout. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

/** For both roles. */
export const profileRoutes: RouteObject[] = [
  { path: '/profile', lazy: lazyPage(() => import('./ProfilePage')) },
  { path: '/basic-profile', lazy: lazyPage(() => import('./BasicProfilePage')) },
  { path: '/check', lazy: lazyPage(() => import('./CheckPage')) },
];

/** For learners (USER only): deleting the account. */
export const learnerProfileRoutes: RouteObject[] = [
  { path: '/delete', lazy: lazyPage(() => import('./DeletePage')) },
];
