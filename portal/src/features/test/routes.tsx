/**
 * The test page (/test/{testLinkId}, mentor §2.14): opened in a new tab, full screen, with or without a
 * session — the link id is the capability; the server refuses another person's token.
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

export const testRoutes: RouteObject[] = [{ path: '/test/:id', lazy: lazyPage(() => import('./TestPage')) }];
