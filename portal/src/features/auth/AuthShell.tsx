import { useI18n } from '@widgets/core/i18n';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';

/** The frame of the sign-in pages: brand, a card, and a footer link. */
export function AuthShell({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <div className="auth-page">
      <header className="auth-header">
        <Link to="/" className="brand" aria-label={t('nav.home')}>
          <img src="/favicon.svg" alt="" width="32" height="32" />
          <span>Waymark</span>
        </Link>
        <LanguageSwitcher />
      </header>
      <main id="main" className="auth-main">
        <div className="card auth-card">
          <h1>{title}</h1>
          {children}
        </div>
        {footer ? <p className="center auth-footer">{footer}</p> : null}
      </main>
    </div>
  );
}
