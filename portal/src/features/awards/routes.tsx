/** Award pages (feather, badge, certificate): viewable by anyone, without signing in (learner §2, §6). */
import type { RouteObject } from 'react-router';

export const awardRoutes: RouteObject[] = [];
