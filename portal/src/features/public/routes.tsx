/** Pages anyone can open without signing in (mentor §2.1 public routes). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/lazy';

export const publicRoutes: RouteObject[] = [
  { path: '/', lazy: lazyPage(() => import('./LandingPage')) },
  { path: '/login', lazy: lazyPage(() => import('../auth/LoginPage')) },
  { path: '/who-i-am', lazy: lazyPage(() => import('../auth/WhoIAmPage')) },
  {
    path: '/learner',
    lazy: async () => ({ Component: (await import('../auth/SignUpPage')).LearnerSignUpPage }),
  },
  {
    path: '/tenant',
    lazy: async () => ({ Component: (await import('../auth/SignUpPage')).TenantSignUpPage }),
  },
  { path: '/mailbox', lazy: lazyPage(() => import('./MailboxPage')) },
];
