/**
 * The Integrations pages under /portal (TENANT only; decision 039): one layout with a page per integration —
 * API keys, LMS and the Activity log now; Webhooks, Learning record store, Single sign-on and Provisioning
 * join it as they are built.
 */
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

export const integrationsRoutes: RouteObject[] = [
  {
    path: 'integrations',
    lazy: lazyPage(() => import('./IntegrationsLayout')),
    children: [
      { index: true, element: <Navigate to="api-keys" replace /> },
      { path: 'api-keys', lazy: lazyPage(() => import('./ApiKeysPage')) },
      { path: 'lms', lazy: lazyPage(() => import('./LmsPage')) },
      { path: 'activity-log', lazy: lazyPage(() => import('./ActivityLogPage')) },
    ],
  },
];
