import type { CallDef } from '@shared/contract/define';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { complaintsIn, englishOf } from '../../testing/english-left';
import { renderPortal, translatorIn } from '../../testing/render';

const key = (n: number, extra: Record<string, unknown> = {}) => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  name: `Key ${n}`,
  prefix: `wm_abcdefghijk${n}_…`,
  scopes: ['seats:read'],
  createdAt: '2026-03-01T09:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
  status: 'ACTIVE',
  ...extra,
});
let keys = [key(1, { lastUsedAt: '2026-03-02T07:41:00.000Z' }), key(2, { status: 'REVOKED' })];
const sent: { path: string; method: string; body?: unknown; params?: unknown }[] = [];
const call = vi.fn(async (def: CallDef, args?: { body?: unknown; params?: { id: string } }) => {
  sent.push({ path: def.path, method: def.method, body: args?.body, params: args?.params });
  if (def.path === '/tenant/api-keys' && def.method === 'GET') return { data: keys };
  if (def.path === '/tenant/api-keys' && def.method === 'POST') {
    const made = { ...key(3), ...(args?.body as object), key: `wm_abcdefghijk3_${'S'.repeat(43)}` };
    keys = [made, ...keys];
    return { data: made };
  }
  if (def.path === '/tenant/api-keys/{id}') {
    keys = keys.map((k) => (k._id === args?.params?.id ? { ...k, status: 'REVOKED' } : k));
    return { data: keys.find((k) => k._id === args?.params?.id) };
  }
  throw new Error(`unexpected call ${def.path}`);
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { default: ApiKeysPage } = await import('./ApiKeysPage');

afterEach(() => {
  sent.length = 0;
  toasts.value = [];
});

describe('/portal/integrations/api-keys', () => {
  it('lists the keys with their visible prefix, scopes, last use and status; Revoke only for active ones', async () => {
    renderPortal(<ApiKeysPage />, { url: '/portal/integrations/api-keys' });
    const table = (await screen.findByText('wm_abcdefghijk1_…')).closest('table')!;
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('wm_abcdefghijk1_…')).toBeTruthy();
    expect(within(rows[0]!).getByText('seats:read')).toBeTruthy();
    expect(within(rows[0]!).getByRole('button', { name: 'Revoke Key 1' })).toBeTruthy();
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
    expect(within(rows[1]!).getByText('Revoked')).toBeTruthy();
  });

  it('creates a key with a name, scopes and an expiry, and shows the whole key once', async () => {
    renderPortal(<ApiKeysPage />, { url: '/portal/integrations/api-keys' });
    await screen.findByText('wm_abcdefghijk1_…');
    fireEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    // nothing chosen: the form says what is missing and sends nothing
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('choose at least one scope');
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'HR sync' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /seats:write/ }));
    fireEvent.change(screen.getByLabelText('Expires after'), { target: { value: '' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    });
    await waitFor(() => expect(sent.some((s) => s.method === 'POST')).toBe(true));
    expect(sent.find((s) => s.method === 'POST')!.body).toEqual({
      name: 'HR sync',
      scopes: ['seats:write'],
      expiresInDays: null,
    });
    const shown = (await screen.findByLabelText('The API key')) as HTMLInputElement;
    expect(shown.value).toBe(`wm_abcdefghijk3_${'S'.repeat(43)}`);
    expect(screen.getByText(/shown only once/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByLabelText('The API key')).toBeNull());
    // the list is read again, and never holds the secret
    expect(document.body.textContent).not.toContain('S'.repeat(43));
  });

  it('asks before revoking, then revokes', async () => {
    renderPortal(<ApiKeysPage />, { url: '/portal/integrations/api-keys', toasts: true });
    fireEvent.click(await screen.findByRole('button', { name: /Revoke Key 1/ }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByText(/refused from its next request/)).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    });
    await waitFor(() => expect(sent.some((s) => s.path === '/tenant/api-keys/{id}')).toBe(true));
    expect(sent.find((s) => s.path === '/tenant/api-keys/{id}')!.params).toEqual({ id: key(1)._id });
    await screen.findByText('The key “Key 1” was revoked.');
  });

  it('speaks Spanish: the list, the scopes and their meaning, the expiries and the refusal of no scope', async () => {
    keys = [key(1, { lastUsedAt: '2026-03-02T07:41:00.000Z' }), key(2, { status: 'REVOKED' })];
    renderPortal(<ApiKeysPage />, { translator: await translatorIn('es') });
    const table = (await screen.findByText('wm_abcdefghijk1_…')).closest('table')!;
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByRole('button', { name: 'Revocar Key 1' })).toBeTruthy();
    expect(within(rows[0]!).getByText('Activa')).toBeTruthy();
    expect(within(rows[1]!).getByText('Revocada')).toBeTruthy();
    expect(within(rows[0]!).getAllByText('Nunca')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Crear clave de API' }));
    expect(screen.getByRole('option', { name: '90 días' })).toBeTruthy();
    expect(screen.getByRole('option', { name: '2 años' })).toBeTruthy();
    expect(screen.getByText(/Leer las estadísticas/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Nombre/), { target: { value: 'Sync' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crear' }));
    await screen.findByText('elige al menos un ámbito');
  });

  it('says the form’s complaints in Spanish, empty or invalid (decision 052)', async () => {
    const spanish = await translatorIn('es');
    renderPortal(<ApiKeysPage />, { translator: spanish });
    await screen.findByText('wm_abcdefghijk1_…');
    fireEvent.click(screen.getByRole('button', { name: 'Crear clave de API' }));
    const form = (screen.getByRole('button', { name: 'Crear' }) as HTMLButtonElement).form!;
    await act(async () => {
      fireEvent.submit(form);
    });
    await waitFor(() => expect(complaintsIn(form)).toContain('Obligatorio'));
    fireEvent.change(form.querySelector('[name="name"]')!, { target: { value: 'x'.repeat(101) } });
    await act(async () => {
      fireEvent.submit(form);
    });
    await waitFor(() => expect(complaintsIn(form)).toContain('Debe tener como máximo 100 caracteres'));
    expect(englishOf(complaintsIn(form), spanish)).toEqual([]);
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
  });

  it('speaks Arabic', async () => {
    keys = [key(1), key(2, { status: 'REVOKED' })];
    renderPortal(<ApiKeysPage />, { translator: await translatorIn('ar') });
    const table = (await screen.findByText('wm_abcdefghijk1_…')).closest('table')!;
    expect(within(table).getByRole('button', { name: 'إلغاء Key 1' })).toBeTruthy();
    expect(within(table).getByText('مُلغى')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'مفاتيح API' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'إنشاء مفتاح API' }));
    expect(screen.getByRole('option', { name: 'سنتان' })).toBeTruthy();
  });
});
