/** Assessment management and the question editor, under /portal (TENANT only). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy';

export const authoringRoutes: RouteObject[] = [
  { path: 'manage-assessment', lazy: lazyPage(() => import('./ManageAssessmentPage')) },
  { path: 'create-assessment/:assessmentId', lazy: lazyPage(() => import('./AssessmentBuilderPage')) },
  { path: 'create-question/:id', lazy: lazyPage(() => import('./CreateQuestionPage')) },
  // the question bank with its figures (issue 30)
  { path: 'question-bank', lazy: lazyPage(() => import('./stats/QuestionBankPage')) },
];
