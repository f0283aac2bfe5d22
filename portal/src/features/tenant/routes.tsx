/**
 * Tenant pages under /portal inside the signed-in layout (TENANT only, mentor §2.1): the users and their
 * statistics, the cohorts (issue 28), the award and learning-report tables, the catalogue, the sandbox (decision 041), and the pages
 * of one learner nested in the learner-name layout.
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

const awards = () => import('./awards/AwardsPage');

export const tenantRoutes: RouteObject[] = [
  { path: 'users', lazy: lazyPage(() => import('./UsersPage')) },
  { path: 'cohorts', lazy: lazyPage(() => import('./cohorts/CohortsPage')) },
  { path: 'cohorts/:cohortId', lazy: lazyPage(() => import('./cohorts/CohortPage')) },
  {
    path: 'total-certificates',
    lazy: lazyPage(() => awards().then((m) => ({ default: m.CertificatesPage }))),
  },
  { path: 'total-badges', lazy: lazyPage(() => awards().then((m) => ({ default: m.BadgesPage }))) },
  { path: 'total-feathers', lazy: lazyPage(() => awards().then((m) => ({ default: m.FeathersPage }))) },
  { path: 'average-learning-time', lazy: lazyPage(() => import('./LearningReportPage')) },
  { path: 'roadmaps', lazy: lazyPage(() => import('./roadmaps/RoadmapListPage')) },
  { path: 'roadmaps/:roadmapId/roadmap', lazy: lazyPage(() => import('./roadmaps/RoadmapInfoPage')) },
  { path: 'roadmap/:id', lazy: lazyPage(() => import('./roadmaps/RoadmapInfoPage')) },
  { path: 'sandbox', lazy: lazyPage(() => import('./sandbox/SandboxPage')) },
  {
    path: 'users/:userId',
    lazy: lazyPage(() => import('./user-detail/LearnerLayout')),
    children: [
      { path: 'analytics', lazy: lazyPage(() => import('./user-detail/AnalyticsPage')) },
      { path: 'testlink/:linkId', lazy: lazyPage(() => import('./user-detail/TestReviewPage')) },
      { path: 'assigned-roadmaps', lazy: lazyPage(() => import('./user-detail/AssignedRoadmapsPage')) },
      { path: 'assigned-roadmaps/:id', lazy: lazyPage(() => import('./user-detail/AssignedRoadmapPage')) },
      { path: 'all-roadmaps', lazy: lazyPage(() => import('./user-detail/UserAllRoadmapsPage')) },
      { path: 'roadmap/:roadmapId', lazy: lazyPage(() => import('./user-detail/UserRoadmapPage')) },
    ],
  },
];
