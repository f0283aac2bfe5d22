/** Tenant pages under /portal inside the signed-in layout (TENANT only). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/lazy';

export const tenantRoutes: RouteObject[] = [{ path: 'users', lazy: lazyPage(() => import('./UsersPage')) }];
