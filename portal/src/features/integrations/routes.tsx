/**
 * The Integrations pages under /portal (TENANT only; decision 039): one layout with a page per integration —
 * API keys, Webhooks, Learning record store and the Activity log now; LMS, Single sign-on and Provisioning
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
      { path: 'webhooks', lazy: lazyPage(() => import('./WebhooksPage')) },
      { path: 'learning-record-store', lazy: lazyPage(() => import('./XapiPage')) },
      { path: 'activity-log', lazy: lazyPage(() => import('./ActivityLogPage')) },
    ],
  },
];
