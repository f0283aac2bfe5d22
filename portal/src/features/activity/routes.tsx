/** Learning-time pages inside the signed-in layout (USER only): dashboard, uninstall feedback. */
import type { RouteObject } from 'react-router';

export const activityRoutes: RouteObject[] = [];
