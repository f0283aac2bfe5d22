/**
 * /portal/integrations: the title and the integrations' own navigation above the page of one of them. Each
 * integration adds its entry to PAGES.
 */
import type { MessageKey } from '@shared/i18n/keys';
import { useI18n } from '@widgets/core/i18n';
import { NavLink, Outlet } from 'react-router';
import './integrations.css';

const PAGES: readonly { to: string; label: MessageKey }[] = [
  { to: 'single-sign-on', label: 'integrations.nav.singleSignOn' },
  { to: 'provisioning', label: 'integrations.nav.provisioning' },
  { to: 'lms', label: 'integrations.nav.lms' },
  { to: 'api-keys', label: 'integrations.nav.apiKeys' },
  { to: 'webhooks', label: 'integrations.nav.webhooks' },
  { to: 'learning-record-store', label: 'integrations.nav.lrs' },
  { to: 'activity-log', label: 'integrations.nav.activityLog' },
];

export default function IntegrationsLayout() {
  const { t } = useI18n();
  return (
    <div className="page">
      <h1>{t('integrations.title')}</h1>
      <nav aria-label={t('integrations.title')} className="integrations-nav">
        <ul>
          {PAGES.map((p) => (
            <li key={p.to}>
              <NavLink to={p.to}>{t(p.label)}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
