import '@widgets/ui/styles.css';
import './portal.css';
import { onSignedOut } from '@widgets/core/api';
import { scheduleExtensionCheck } from '@widgets/core/extension';
import { keepSessionInMemory } from '@widgets/core/session';
import { Toasts } from '@widgets/ui/Toast';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchRoutes, RouterProvider } from 'react-router';
import { createRouter, visitorRoutes } from './app/router';
import { loadCurrentUser, signOutProvider } from './lib/auth';
import { loadConfig } from './lib/config';
import {
  currentTranslator,
  followProfileLanguage,
  initialLocale,
  PortalI18n,
  showLanguage,
} from './lib/i18n';

const root = createRoot(document.getElementById('root')!);

// a launch from an LMS, framed by it (decision 045): its own session, in memory only
const launched = window.location.pathname.startsWith('/lti/app/');
if (launched) keepSessionInMemory();

onSignedOut(() => {
  // a page anyone may open (a test link, an award, the course pages) goes on for the visitor; others go to
  // the public site (learner §4, request flow)
  void signOutProvider().finally(() => {
    if (!matchRoutes(visitorRoutes, window.location.pathname)) window.location.assign('/');
  });
});

async function start() {
  // the language's catalogue arrives beside the settings, before the first page shows
  const language = showLanguage(initialLocale());
  try {
    await loadConfig();
  } catch {
    await language;
    const { t } = currentTranslator();
    root.render(
      <main id="main" className="page-narrow">
        <div className="card center" role="alert">
          <h1>{t('common.somethingWentWrong')}</h1>
          <p>{t('portal.serverUnreachable')}</p>
        </div>
      </main>,
    );
    return;
  }
  await language;
  followProfileLanguage();
  void loadCurrentUser();
  if (!launched) void scheduleExtensionCheck();
  root.render(
    <StrictMode>
      <PortalI18n>
        <RouterProvider router={createRouter()} />
        <Toasts />
      </PortalI18n>
    </StrictMode>,
  );
}

void start();
