import type { CallDef } from '@shared/contract/define';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPortal } from '../../testing/render';

const token = (n: number, extra: Record<string, unknown> = {}) => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  name: `Directory ${n}`,
  prefix: `wmscim_abcdefghijk${n}_…`,
  createdAt: '2026-03-01T09:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  status: 'ACTIVE',
  ...extra,
});
let tokens = [token(1), token(2, { status: 'REVOKED' })];
const sent: { path: string; method: string; body?: unknown; params?: unknown }[] = [];
const call = vi.fn(async (def: CallDef, args?: { body?: unknown; params?: { id: string } }) => {
  sent.push({ path: def.path, method: def.method, body: args?.body, params: args?.params });
  if (def.path === '/tenant/scim' && def.method === 'GET')
    return { data: { baseUrl: 'https://waymark.example.com/scim/v2', tokens } };
  if (def.path === '/tenant/scim/tokens' && def.method === 'POST') {
    const made = { ...token(3), ...(args?.body as object), token: `wmscim_abcdefghijk3_${'S'.repeat(43)}` };
    tokens = [made, ...tokens];
    return { data: made };
  }
  if (def.path === '/tenant/scim/tokens/{id}') {
    tokens = tokens.map((t) => (t._id === args?.params?.id ? { ...t, status: 'REVOKED' } : t));
    return { data: tokens.find((t) => t._id === args?.params?.id) };
  }
  throw new Error(`unexpected call ${def.path}`);
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { default: ProvisioningPage } = await import('./ProvisioningPage');

afterEach(() => {
  tokens = [token(1), token(2, { status: 'REVOKED' })];
  sent.length = 0;
  toasts.value = [];
});

describe('/portal/integrations/provisioning', () => {
  it('shows the SCIM base URL and the tokens; Rotate and Revoke only for active ones', async () => {
    renderPortal(<ProvisioningPage />, { url: '/portal/integrations/provisioning' });
    expect(await screen.findByText('https://waymark.example.com/scim/v2')).toBeTruthy();
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByRole('button', { name: 'Rotate Directory 1' })).toBeTruthy();
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
  });

  it('makes a token and shows it once; rotating names the token it replaces', async () => {
    renderPortal(<ProvisioningPage />, { url: '/portal/integrations/provisioning' });
    fireEvent.click(await screen.findByRole('button', { name: 'Create SCIM token' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Required');
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Okta' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    });
    const shown = (await screen.findByLabelText('The SCIM token')) as HTMLInputElement;
    expect(shown.value).toBe(`wmscim_abcdefghijk3_${'S'.repeat(43)}`);
    expect(sent.find((s) => s.method === 'POST')!.body).toEqual({ name: 'Okta' });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByLabelText('The SCIM token')).toBeNull());
    fireEvent.click(await screen.findByRole('button', { name: 'Rotate Directory 1' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Rotate' }));
    });
    await waitFor(() => expect(sent.filter((s) => s.method === 'POST')).toHaveLength(2));
    expect(sent.filter((s) => s.method === 'POST')[1]!.body).toEqual({
      name: 'Directory 1',
      replaces: token(1)._id,
    });
  });

  it('asks before revoking, then revokes', async () => {
    renderPortal(<ProvisioningPage />, { url: '/portal/integrations/provisioning', toasts: true });
    fireEvent.click(await screen.findByRole('button', { name: /Revoke Directory 1/ }));
    const dialog = screen.getByRole('alertdialog');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    });
    await screen.findByText('The SCIM token “Directory 1” was revoked.');
  });
});
