/** Pages anyone can open without signing in (mentor §2.1 public routes). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

export const publicRoutes: RouteObject[] = [
  { path: '/', lazy: lazyPage(() => import('./LandingPage')) },
  { path: '/landing', lazy: lazyPage(() => import('./LandingPage')) },
  { path: '/course-detail/:roadmapId', lazy: lazyPage(() => import('./CourseDetailPage')) },
  { path: '/initial-assessment/:linkId', lazy: lazyPage(() => import('./InitialAssessmentPage')) },
  {
    path: '/access-assigned-roadmap/:assignedRoadmapId',
    lazy: lazyPage(() => import('./AccessAssignedRoadmapPage')),
  },
  { path: '/resource/:shortId', lazy: lazyPage(() => import('./ResourcePage')) },
  { path: '/privacy_policy', lazy: lazyPage(() => import('./PrivacyPolicyPage')) },
  { path: '/terms_and_conditions', lazy: lazyPage(() => import('./TermsPage')) },
  { path: '/terms', lazy: lazyPage(() => import('./TermsPage')) },
  { path: '/refund_policy', lazy: lazyPage(() => import('./RefundPolicyPage')) },
  { path: '/support', lazy: lazyPage(() => import('./SupportPage')) },
  { path: '/mailbox', lazy: lazyPage(() => import('./MailboxPage')) },
];
