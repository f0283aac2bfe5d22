import type { MessageKey } from '@shared/i18n/keys';
import { homeOf } from '@shared/rules/navigation';
import type { User } from '@shared/schemas/user';
import { Rich, useI18n } from '@widgets/core/i18n';
import { useSignalValue } from '@widgets/core/useSignal';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { currentUser, signOutEverywhere } from '../lib/auth';
import { ExtensionIcon } from './ExtensionIcon';

const SIDEBAR = {
  USER: [
    { to: '/dashboard', label: 'dashboard.title' },
    { to: '/my-roadmaps', label: 'myRoadmaps.title' },
    { to: '/assesments', label: 'myRoadmap.assessments' },
    { to: '/what-was-tracked', label: 'tracked.title' },
  ],
  TENANT: [
    { to: '/portal/users', label: 'nav.users' },
    { to: '/portal/cohorts', label: 'nav.cohorts' },
    { to: '/portal/roadmaps', label: 'roadmaps.caption' },
    { to: '/portal/manage-assessment', label: 'nav.manageAssessment' },
    { to: '/portal/question-bank', label: 'nav.questionBank' },
    { to: '/portal/integrations', label: 'nav.integrations' },
    { to: '/portal/sandbox', label: 'nav.sandbox' },
  ],
} as const satisfies Record<string, readonly { to: string; label: MessageKey }[]>;

/** The signed-in frame: top bar, sidebar by role, the profile warning, then the page. */
export function AppLayout() {
  const user = useSignalValue(currentUser);
  if (!user || user === 'loading') return <Outlet />;
  return (
    <AppFrame user={user}>
      <Outlet />
    </AppFrame>
  );
}

/**
 * The frame around a signed-in page (learner §2 Layout). On a wide screen the sidebar sits beside the
 * page and the top bar holds the profile and Sign out; on a narrow one (portal.css) the top bar keeps
 * the brand and a Menu button, which opens the sidebar with the profile and Sign out in it. The menu
 * closes when a page is chosen, on Escape (the focus goes back to the button) and on a tap outside it.
 */
export function AppFrame({ user, children }: { user: User; children: ReactNode }) {
  const { t } = useI18n();
  const [warningDismissed, setWarningDismissed] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const sidebar = useRef<HTMLElement>(null);
  const sidebarId = useId();
  const { pathname } = useLocation();
  const who = user.name ?? user.email;

  // a page chosen (or any navigation) closes the menu
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page changes
  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    sidebar.current?.querySelector<HTMLElement>('a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (sidebar.current?.contains(target) || menuButton.current?.contains(target)) return;
      setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [menuOpen]);

  const signOut = () => {
    setSigningOut(true);
    void signOutEverywhere();
  };
  const account = (
    <>
      <Link
        to="/profile"
        className="btn btn-secondary profile-button"
        aria-label={t('nav.profileOf', { name: who })}
      >
        {who}
      </Link>
      <button type="button" className="btn btn-secondary" disabled={signingOut} onClick={signOut}>
        {t('nav.signOut')}
      </button>
    </>
  );

  return (
    <div className={`app${menuOpen ? ' menu-open' : ''}`}>
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <header className="topbar">
        <button
          ref={menuButton}
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls={sidebarId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path fill="currentColor" d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
          </svg>
          <span className="visually-hidden">{t('nav.menu')}</span>
        </button>
        <Link to={homeOf(user.role)} className="brand" aria-label={t('nav.home')}>
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>Waymark</span>
        </Link>
        <div className="spacer" />
        {user.role === 'USER' ? <ExtensionIcon /> : null}
        <div className="topbar-account">{account}</div>
      </header>
      <div className="app-body">
        <nav ref={sidebar} id={sidebarId} className="sidebar" aria-label={t('nav.main')}>
          <ul>
            {SIDEBAR[user.role].map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{t(item.label)}</NavLink>
              </li>
            ))}
          </ul>
          <div className="sidebar-account">{account}</div>
        </nav>
        <div className="app-main">
          {!user.isProfileCompleted && !warningDismissed ? (
            <div className="alert alert-warning" role="status">
              <div className="alert-body">
                <Rich
                  k="nav.completeProfile"
                  components={{ 0: <strong />, 1: <span />, 2: <Link to="/profile" /> }}
                />
              </div>
              <button
                type="button"
                className="btn-link"
                onClick={() => setWarningDismissed(true)}
                aria-label={t('nav.dismissProfile')}
              >
                {t('common.dismiss')}
              </button>
            </div>
          ) : null}
          <main id="main">{children}</main>
        </div>
      </div>
    </div>
  );
}

/** 'Not permitted' (learner §6, mentor §2.1), inside the person's own frame with the way to their home. */
export function NotPermitted({ user }: { user: User }) {
  const { t } = useI18n();
  const home = SIDEBAR[user.role].find((item) => item.to === homeOf(user.role));
  return (
    <AppFrame user={user}>
      <div className="page-narrow">
        <div className="card center" role="alert">
          <h1>{t('errors.notPermitted')}</h1>
          <p className="muted">{t('nav.notAvailable')}</p>
          <p>
            <Link className="btn" to={homeOf(user.role)}>
              {home ? t('nav.goTo', { page: t(home.label) }) : t('nav.goHome')}
            </Link>
          </p>
        </div>
      </div>
    </AppFrame>
  );
}
