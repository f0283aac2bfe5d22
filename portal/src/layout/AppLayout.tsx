import { HOME_BY_ROLE } from '@shared/rules/navigation';
import type { User } from '@shared/schemas/user';
import { useSignalValue } from '@widgets/core/useSignal';
import { useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { currentUser, signOutEverywhere } from '../app/auth';
import { ExtensionIcon } from './ExtensionIcon';

const SIDEBAR = {
  USER: [
    { to: '/dashboard', label: 'Dashboard' },
    { to: '/my-roadmaps', label: 'My Roadmaps' },
    { to: '/assesments', label: 'Assessments' },
    { to: '/what-was-tracked', label: 'What was tracked' },
  ],
  TENANT: [
    { to: '/portal/users', label: 'Users' },
    { to: '/portal/roadmaps', label: 'Roadmaps' },
    { to: '/portal/manage-assessment', label: 'Manage Assessment' },
  ],
} as const;

/** The signed-in frame: top bar, sidebar by role, the profile warning, then the page. */
export function AppLayout() {
  const user = useSignalValue(currentUser);
  if (!user || user === 'loading') return <Outlet />;
  return <Frame user={user} />;
}

function Frame({ user }: { user: User }) {
  const [warningDismissed, setWarningDismissed] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to={HOME_BY_ROLE[user.role]} className="brand" aria-label="Waymark home">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>Waymark</span>
        </Link>
        <div className="spacer" />
        {user.role === 'USER' ? <ExtensionIcon /> : null}
        <Link
          to="/profile"
          className="btn btn-secondary profile-button"
          aria-label={`Profile of ${user.name ?? user.email}`}
        >
          {user.name ?? user.email}
        </Link>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={signingOut}
          onClick={() => {
            setSigningOut(true);
            void signOutEverywhere();
          }}
        >
          Sign out
        </button>
      </header>
      <div className="app-body">
        <nav className="sidebar" aria-label="Main">
          <ul>
            {SIDEBAR[user.role].map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{item.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="app-main">
          {!user.isProfileCompleted && !warningDismissed ? (
            <div className="alert alert-warning" role="status">
              <div className="alert-body">
                <strong>Complete your Profile</strong>
                <span> — a few details are still missing. </span>
                <Link to="/profile">Go to your profile</Link>
              </div>
              <button
                type="button"
                className="btn-link"
                onClick={() => setWarningDismissed(true)}
                aria-label="Dismiss the profile warning"
              >
                Dismiss
              </button>
            </div>
          ) : null}
          <main id="main">
            <Outlet />
          </main>
        </div>
      </div>
    </div>
  );
}
