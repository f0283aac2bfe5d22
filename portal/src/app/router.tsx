/**
 * The route table (learner §2, mentor §2.1): public pages, pages for both roles, learner pages and
 * tenant pages, each group behind the role guard. Each feature owns its routes file.
 */

import { Loader } from '@widgets/ui/Loader';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { activityRoutes } from '../features/activity/routes';
import { assessmentRoutes } from '../features/assessments/routes';
import { authRoutes, signedInAuthRoutes } from '../features/auth/routes';
import { authoringRoutes } from '../features/authoring/routes';
import { awardRoutes } from '../features/awards/routes';
import { integrationsRoutes } from '../features/integrations/routes';
import { learnerRoutes } from '../features/learner/routes';
import { ltiRoutes } from '../features/lti/routes';
import { learnerProfileRoutes, profileRoutes } from '../features/profile/routes';
import { publicRoutes } from '../features/public/routes';
import { tenantRoutes } from '../features/tenant/routes';
import { testRoutes } from '../features/test/routes';
import { AppLayout } from '../layout/AppLayout';
import { GoHome, RoleGuard } from './guard';

const bothRoles: RouteObject = {
  element: <RoleGuard roles={['USER', 'TENANT']} />,
  children: [
    {
      element: <AppLayout />,
      children: [...profileRoutes, ...signedInAuthRoutes],
    },
  ],
};

const learner: RouteObject = {
  element: <RoleGuard roles={['USER']} />,
  children: [
    {
      element: <AppLayout />,
      children: [...learnerRoutes, ...learnerProfileRoutes, ...activityRoutes, ...assessmentRoutes],
    },
  ],
};

const tenant: RouteObject = {
  path: '/portal',
  element: <RoleGuard roles={['TENANT']} />,
  children: [
    { element: <AppLayout />, children: [...tenantRoutes, ...authoringRoutes, ...integrationsRoutes] },
  ],
};

/** Pages that work without signing in. */
export const visitorRoutes: RouteObject[] = [
  ...publicRoutes,
  ...authRoutes,
  ...awardRoutes,
  ...testRoutes,
  ...ltiRoutes,
];

export const routes: RouteObject[] = [
  {
    HydrateFallback: () => <Loader />,
    children: [...visitorRoutes, bothRoles, learner, tenant, { path: '*', element: <GoHome /> }],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
