/**
 * The page of a launch from an LMS (/lti/app/{launch id}, decision 045): the only portal page an LMS may
 * frame, and only the launch's platform (the server's CSP says so).
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

export const ltiRoutes: RouteObject[] = [
  { path: '/lti/app/:launchId', lazy: lazyPage(() => import('./LtiLaunchPage')) },
];
