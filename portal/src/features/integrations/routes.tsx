/**
 * The Integrations pages under /portal (TENANT only; decision 039): one layout with a page per integration —
 * Single sign-on, Provisioning (SCIM), LMS, API keys, Webhooks, Learning record store and the Activity
 * log.
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
      { path: 'single-sign-on', lazy: lazyPage(() => import('./SingleSignOnPage')) },
      { path: 'provisioning', lazy: lazyPage(() => import('./ProvisioningPage')) },
      { path: 'webhooks', lazy: lazyPage(() => import('./WebhooksPage')) },
      { path: 'learning-record-store', lazy: lazyPage(() => import('./XapiPage')) },
      { path: 'lms', lazy: lazyPage(() => import('./LmsPage')) },
      { path: 'activity-log', lazy: lazyPage(() => import('./ActivityLogPage')) },
    ],
  },
];
