/** Signing in and up: pages anyone can open, and the CLI's sign-in for a signed-in person. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

export const authRoutes: RouteObject[] = [
  { path: '/login', lazy: lazyPage(() => import('./LoginPage')) },
  { path: '/login/sso', lazy: lazyPage(() => import('./SsoLandingPage')) },
  { path: '/who-i-am', lazy: lazyPage(() => import('./WhoIAmPage')) },
  {
    path: '/learner',
    lazy: async () => ({ Component: (await import('./SignUpPage')).LearnerSignUpPage }),
  },
  {
    path: '/tenant',
    lazy: async () => ({ Component: (await import('./SignUpPage')).TenantSignUpPage }),
  },
];

/** Inside the signed-in layout, for both roles. */
export const signedInAuthRoutes: RouteObject[] = [
  { path: '/cli-login', lazy: lazyPage(() => import('./CliLoginPage')) },
];
