import type { CallDef } from '@shared/contract/define';
import { screen, waitFor } from '@testing-library/react';
import { session } from '@widgets/core/session';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPortal } from '../../testing/render';

const user = {
  _id: '00000000-0000-4000-8000-000000000001',
  email: 'alice@acme.example',
  role: 'USER',
  name: 'Alice',
  isFirstLogin: false,
};
const sent: { path: string; body?: unknown }[] = [];
const call = vi.fn(async (def: CallDef, args?: { body?: unknown }) => {
  sent.push({ path: def.path, body: args?.body });
  if (def.path === '/login/sso/finish')
    return { data: { user, token: 'access', refreshToken: 'refresh', deletionCanceled: false } };
  throw new Error(`unexpected call ${def.path}`);
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));
vi.mock('@widgets/core/extension', () => ({
  extensionReady: async () => ({ isPresent: false, isLogedIn: false }),
}));

const { default: SsoLandingPage } = await import('./SsoLandingPage');

afterEach(() => {
  sent.length = 0;
  window.location.hash = '';
});

describe('/login/sso', () => {
  it('exchanges the one-time code in the fragment for the session, then leaves the code nowhere', async () => {
    window.history.replaceState(null, '', '/login/sso#handoff=Qm9iLWhhbmRvZmYtY29kZS1vbmNl');
    renderPortal(<SsoLandingPage />, {
      url: '/login/sso',
      routes: { '/my-roadmaps': <p>Home of learners</p> },
    });
    await screen.findByText('Home of learners');
    expect(sent).toEqual([{ path: '/login/sso/finish', body: { handoff: 'Qm9iLWhhbmRvZmYtY29kZS1vbmNl' } }]);
    expect(session.peek()?.token).toBe('access');
    expect(window.location.hash).toBe('');
  });

  it('says why the sign-in did not complete, naming the organisation', async () => {
    renderPortal(<SsoLandingPage />, { url: '/login/sso?error=NO_SEAT&organisation=Acme+Corp' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Acme Corp has no free learner seat for you yet');
    await waitFor(() => expect(sent).toHaveLength(0));
  });
});
