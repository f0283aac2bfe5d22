import '@widgets/ui/styles.css';
import './portal.css';
import { onSignedOut } from '@widgets/core/api';
import { scheduleExtensionCheck } from '@widgets/core/extension';
import { Toasts } from '@widgets/ui/Toast';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchRoutes, RouterProvider } from 'react-router';
import { createRouter, visitorRoutes } from './app/router';
import { loadCurrentUser, signOutProvider } from './lib/auth';
import { loadConfig } from './lib/config';

const root = createRoot(document.getElementById('root')!);

onSignedOut(() => {
  // a page anyone may open (a test link, an award, the course pages) goes on for the visitor; others go to
  // the public site (learner §4, request flow)
  void signOutProvider().finally(() => {
    if (!matchRoutes(visitorRoutes, window.location.pathname)) window.location.assign('/');
  });
});

async function start() {
  try {
    await loadConfig();
  } catch {
    root.render(
      <main id="main" className="page-narrow">
        <div className="card center" role="alert">
          <h1>Something Went Wrong</h1>
          <p>Waymark could not reach its server. Please check your connection and reload the page.</p>
        </div>
      </main>,
    );
    return;
  }
  void loadCurrentUser();
  void scheduleExtensionCheck();
  root.render(
    <StrictMode>
      <RouterProvider router={createRouter()} />
      <Toasts />
    </StrictMode>,
  );
}

void start();
