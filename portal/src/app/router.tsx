/** The route table (learner §2, mentor §2.1). Each screen is its own lazily loaded chunk. */

import { Loader } from '@widgets/ui/Loader';
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from '../layout/AppLayout';
import { GoHome, RoleGuard } from './guard';

const lazy = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const publicRoutes: RouteObject[] = [
  { path: '/', lazy: lazy(() => import('../features/public/LandingPage')) },
  { path: '/login', lazy: lazy(() => import('../features/auth/LoginPage')) },
  { path: '/who-i-am', lazy: lazy(() => import('../features/auth/WhoIAmPage')) },
  {
    path: '/learner',
    lazy: async () => ({ Component: (await import('../features/auth/SignUpPage')).LearnerSignUpPage }),
  },
  {
    path: '/tenant',
    lazy: async () => ({ Component: (await import('../features/auth/SignUpPage')).TenantSignUpPage }),
  },
  { path: '/mailbox', lazy: lazy(() => import('../features/public/MailboxPage')) },
];

const bothRoles: RouteObject = {
  element: <RoleGuard roles={['USER', 'TENANT']} />,
  children: [
    {
      element: <AppLayout />,
      children: [
        { path: '/profile', lazy: lazy(() => import('../features/profile/ProfilePage')) },
        { path: '/basic-profile', lazy: lazy(() => import('../features/profile/BasicProfilePage')) },
        { path: '/check', lazy: lazy(() => import('../features/profile/CheckPage')) },
        { path: '/cli-login', lazy: lazy(() => import('../features/auth/CliLoginPage')) },
      ],
    },
  ],
};

const learnerRoutes: RouteObject = {
  element: <RoleGuard roles={['USER']} />,
  children: [
    {
      element: <AppLayout />,
      children: [
        { path: '/my-roadmaps', lazy: lazy(() => import('../features/learner/MyRoadmapsPage')) },
        { path: '/delete', lazy: lazy(() => import('../features/profile/DeletePage')) },
      ],
    },
  ],
};

const tenantRoutes: RouteObject = {
  path: '/portal',
  element: <RoleGuard roles={['TENANT']} />,
  children: [
    {
      element: <AppLayout />,
      children: [{ path: 'users', lazy: lazy(() => import('../features/tenant/UsersPage')) }],
    },
  ],
};

export const routes: RouteObject[] = [
  {
    HydrateFallback: () => <Loader />,
    children: [...publicRoutes, bothRoles, learnerRoutes, tenantRoutes, { path: '*', element: <GoHome /> }],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
