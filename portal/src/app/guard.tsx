import type { Role } from '@shared/schemas/common';
import { useSignalValue } from '@widgets/core/useSignal';
import { Loader } from '@widgets/ui/Loader';
import { Navigate, Outlet } from 'react-router';
import { NotPermitted } from '../layout/AppLayout';
import { currentUser } from '../lib/auth';

/**
 * The role guard: a loader while the current user is fetched, / when nobody is signed in,
 * 'Not permitted' for a role outside the list (in the person's own frame, with the way home), otherwise
 * the child routes.
 */
export function RoleGuard({ roles }: { roles: readonly Role[] }) {
  const user = useSignalValue(currentUser);
  if (user === 'loading') return <Loader />;
  if (!user) return <Navigate to="/" replace />;
  if (!roles.includes(user.role)) return <NotPermitted user={user} />;
  return <Outlet />;
}

/** Unmatched paths go to /. */
export function GoHome() {
  return <Navigate to="/" replace />;
}
