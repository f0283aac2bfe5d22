/**
 * /portal/integrations: the title and the integrations' own navigation above the page of one of them. Each
 * integration adds its entry to PAGES.
 */
import { NavLink, Outlet } from 'react-router';
import './integrations.css';

const PAGES = [
  { to: 'single-sign-on', label: 'Single sign-on' },
  { to: 'provisioning', label: 'Provisioning (SCIM)' },
  { to: 'lms', label: 'LMS' },
  { to: 'api-keys', label: 'API keys' },
  { to: 'webhooks', label: 'Webhooks' },
  { to: 'learning-record-store', label: 'Learning record store' },
  { to: 'activity-log', label: 'Activity log' },
] as const;

export default function IntegrationsLayout() {
  return (
    <div className="page">
      <h1>Integrations</h1>
      <nav aria-label="Integrations" className="integrations-nav">
        <ul>
          {PAGES.map((p) => (
            <li key={p.to}>
              <NavLink to={p.to}>{p.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
