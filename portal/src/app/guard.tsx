import type { Role } from '@shared/schemas/common';
import { useSignalValue } from '@widgets/core/useSignal';
import { Loader } from '@widgets/ui/Loader';
import { Navigate, Outlet } from 'react-router';
import { currentUser } from './auth';

/**
 * The role guard: a loader while the current user is fetched, / when nobody is signed in,
 * 'Not permitted' for a role outside the list, otherwise the child routes.
 */
export function RoleGuard({ roles }: { roles: readonly Role[] }) {
  const user = useSignalValue(currentUser);
  if (user === 'loading') return <Loader text="Loading…" />;
  if (!user) return <Navigate to="/" replace />;
  if (!roles.includes(user.role)) {
    return (
      <main id="main" className="page-narrow">
        <div className="card center" role="alert">
          <h1>Not permitted</h1>
          <p className="muted">This page is not available to your account.</p>
        </div>
      </main>
    );
  }
  return <Outlet />;
}

/** Unmatched paths go to /. */
export function GoHome() {
  return <Navigate to="/" replace />;
}
