/** Award pages (feather, badge, certificate): viewable by anyone, without signing in (learner §2, §6). */
import type { RouteObject } from 'react-router';

const page = (name: 'FeatherPage' | 'BadgePage' | 'CertificatePage') => async () => ({
  Component: (await import('./AwardPage'))[name],
});

export const awardRoutes: RouteObject[] = [
  { path: '/feather/:id', lazy: page('FeatherPage') },
  { path: '/badge/:id', lazy: page('BadgePage') },
  { path: '/certificate/:id', lazy: page('CertificatePage') },
  // anyone checks a credential (Waymark's or another issuer's)
  { path: '/verify', lazy: async () => ({ Component: (await import('./VerifyPage')).default }) },
  { path: '/verify/:awardId', lazy: async () => ({ Component: (await import('./VerifyPage')).default }) },
];
