import type { CallDef } from '@shared/contract/define';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { complaintsIn, englishOf } from '../../testing/english-left';
import { renderPortal, translatorIn } from '../../testing/render';

const endpoint = (n: number, extra: Record<string, unknown> = {}) => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  url: `https://hooks${n}.example.com/waymark`,
  description: '',
  events: ['award.issued'],
  ordered: false,
  status: 'ACTIVE',
  disabledReason: null,
  disabledWhy: null,
  disabledAt: null,
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
  secretRotatedAt: null,
  previousSecretUntil: null,
  failingSince: null,
  lastDeliveredAt: null,
  ...extra,
});
const delivery = {
  _id: '00000000-0000-4000-8000-0000000000d1',
  eventId: '00000000-0000-4000-8000-0000000000e1',
  eventType: 'award.issued',
  status: 'FAILED',
  attempts: 10,
  createdAt: '2026-03-02T09:00:00.000Z',
  lastAttemptAt: '2026-03-05T09:00:00.000Z',
  nextAttemptAt: null,
  deliveredAt: null,
  responseStatus: 503,
  responseMs: 120,
  responseBody: 'Service Unavailable',
  error: 'The endpoint answered 503. Given up after 10 attempts.',
  errorParts: [
    { code: 'deliveries.error.answered', params: { status: 503 } },
    { code: 'deliveries.error.givenUp', params: { attempts: 10 } },
  ],
};
const TENANT = { code: 'TENANT', since: null, days: null };
let endpoints = [
  endpoint(1),
  endpoint(2, { status: 'DISABLED', disabledReason: 'Disabled by the tenant.', disabledWhy: TENANT }),
];
const sent: { path: string; method: string; body?: unknown; params?: unknown }[] = [];
const call = vi.fn(async (def: CallDef, args?: { body?: unknown; params?: { id: string } }) => {
  sent.push({ path: def.path, method: def.method, body: args?.body, params: args?.params });
  if (def.path === '/tenant/webhooks' && def.method === 'GET') return { data: endpoints };
  if (def.path === '/tenant/webhooks' && def.method === 'POST') {
    const made = { ...endpoint(3), ...(args?.body as object), secret: `whsec_${'A'.repeat(43)}=` };
    endpoints = [...endpoints, made];
    return { data: made };
  }
  if (def.path === '/tenant/webhooks/{id}/deliveries')
    return { data: { deliveries: [delivery], nextCursor: null } };
  if (def.path === '/tenant/webhooks/{id}/deliveries/{deliveryId}/redeliver')
    return { data: { ...delivery, status: 'PENDING' } };
  if (def.path === '/tenant/webhooks/{id}/rotate-secret')
    return { data: { ...endpoint(1), secret: `whsec_${'B'.repeat(43)}=` } };
  throw new Error(`unexpected call ${def.path}`);
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { default: WebhooksPage } = await import('./WebhooksPage');

afterEach(() => {
  sent.length = 0;
  toasts.value = [];
});

describe('/portal/integrations/webhooks', () => {
  it('lists the endpoints with their status; a paused one can be enabled and has no test', async () => {
    renderPortal(<WebhooksPage />, { url: '/portal/integrations/webhooks' });
    const table = (
      await screen.findByText('https://hooks1.example.com/waymark', { selector: 'code' })
    ).closest('table')!;
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Active')).toBeTruthy();
    expect(
      within(rows[0]!).getByRole('button', { name: 'Send test event to https://hooks1.example.com/waymark' }),
    ).toBeTruthy();
    expect(within(rows[1]!).getByText('Disabled by the tenant.')).toBeTruthy();
    expect(
      within(rows[1]!).getByRole('button', { name: 'Enable https://hooks2.example.com/waymark' }),
    ).toBeTruthy();
    expect(within(rows[1]!).queryByRole('button', { name: /Send test event/ })).toBeNull();
  });

  it('adds an endpoint with its events, and shows its signing secret once', async () => {
    renderPortal(<WebhooksPage />, { url: '/portal/integrations/webhooks' });
    await screen.findByText('https://hooks1.example.com/waymark', { selector: 'code' });
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add endpoint' });
    // nothing chosen: the form says what is missing, nothing is sent
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText('choose at least one event')).toBeTruthy();
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText(/Endpoint URL/), {
      target: { value: 'https://hr.example.com/hooks' },
    });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /seat\.added/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    const once = await screen.findByRole('dialog', { name: /added/ });
    expect((within(once).getByLabelText('The signing secret') as HTMLInputElement).value).toBe(
      `whsec_${'A'.repeat(43)}=`,
    );
    expect(sent.find((s) => s.method === 'POST')?.body).toMatchObject({
      url: 'https://hr.example.com/hooks',
      events: ['seat.added'],
    });
  });

  it('shows an endpoint’s deliveries with the answer, and redelivers one', async () => {
    renderPortal(<WebhooksPage />, { url: '/portal/integrations/webhooks' });
    await screen.findByText('https://hooks1.example.com/waymark', { selector: 'code' });
    fireEvent.click(screen.getByRole('button', { name: 'Deliveries of https://hooks1.example.com/waymark' }));
    const section = (await screen.findByRole('heading', { name: /Deliveries to/ })).closest('section')!;
    await within(section).findByText('503');
    expect(within(section).getByText('120 ms')).toBeTruthy();
    expect(within(section).getByText('Service Unavailable')).toBeTruthy();
    expect(within(section).getByText('The endpoint answered 503. Given up after 10 attempts.')).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: /^Redeliver award\.issued/ }));
    await waitFor(() =>
      expect(sent.some((s) => s.path.endsWith('/redeliver') && s.method === 'POST')).toBe(true),
    );
  });

  it('speaks Spanish: statuses, actions, the events explained and the periods', async () => {
    endpoints = [
      endpoint(1),
      endpoint(2, { status: 'DISABLED', disabledReason: 'Disabled by the tenant.', disabledWhy: TENANT }),
      endpoint(3, {
        status: 'DISABLED',
        disabledReason:
          'No delivery has succeeded since 2026-03-01T09:00:00.000Z: the endpoint failed for 3 days.',
        disabledWhy: { code: 'FAILING', since: '2026-03-01T09:00:00.000Z', days: 3 },
      }),
    ];
    renderPortal(<WebhooksPage />, { translator: await translatorIn('es') });
    const table = (
      await screen.findByText('https://hooks1.example.com/waymark', { selector: 'code' })
    ).closest('table')!;
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Activo')).toBeTruthy();
    expect(
      within(rows[0]!).getByRole('button', { name: 'Pausar https://hooks1.example.com/waymark' }),
    ).toBeTruthy();
    expect(within(rows[1]!).getByText('En pausa')).toBeTruthy();
    // why, said again from the server's code (issue 31)
    expect(within(rows[1]!).getByText('Desactivado por tu organización.')).toBeTruthy();
    expect(
      within(rows[2]!).getByText(
        /^Ninguna entrega ha tenido éxito desde el .*2026.*: el endpoint falló durante 3 días\.$/,
      ),
    ).toBeTruthy();
    expect(
      within(rows[1]!).getByRole('button', { name: 'Activar https://hooks2.example.com/waymark' }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Entregas de https://hooks1.example.com/waymark' }));
    const section = (await screen.findByRole('heading', { name: /Entregas a/ })).closest('section')!;
    await within(section).findByText('Service Unavailable');
    // why it failed, said again from the server's codes (issue 31)
    expect(within(section).getByText('El endpoint respondió 503. Abandonado tras 10 intentos.')).toBeTruthy();
    expect(within(section).queryByText(/answered|Given up/)).toBeNull();
    expect(within(section).getAllByText('Fallida')).toHaveLength(2);
    expect(within(section).getByRole('option', { name: 'las últimas 24 horas' })).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Reenviar fallidas' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Añadir endpoint' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(/Un alumno ocupó una de las plazas/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Añadir endpoint' }));
    expect(await within(dialog).findByText('elige al menos un evento')).toBeTruthy();
  });

  it('says the form’s complaints in Spanish, empty or invalid (decision 052)', async () => {
    const spanish = await translatorIn('es');
    renderPortal(<WebhooksPage />, { translator: spanish });
    await screen.findByText('https://hooks1.example.com/waymark', { selector: 'code' });
    fireEvent.click(screen.getByRole('button', { name: 'Añadir endpoint' }));
    const dialog = screen.getByRole('dialog');
    const form = dialog.querySelector('form')!;
    await act(async () => {
      fireEvent.submit(form);
    });
    await waitFor(() => expect(complaintsIn(dialog)).toContain('Obligatorio'));
    fireEvent.change(form.querySelector('[name="url"]')!, { target: { value: 'not an address' } });
    fireEvent.change(form.querySelector('[name="description"]')!, { target: { value: 'x'.repeat(201) } });
    await act(async () => {
      fireEvent.submit(form);
    });
    await waitFor(() =>
      expect(complaintsIn(dialog)).toContain(
        'Debe ser una dirección como https://example.com/webhooks/waymark',
      ),
    );
    expect(complaintsIn(dialog)).toContain('Debe tener como máximo 200 caracteres');
    expect(englishOf(complaintsIn(dialog), spanish)).toEqual([]);
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
  });

  it('speaks Arabic, numbers as Arabic writes them and addresses left to right', async () => {
    endpoints = [
      endpoint(1),
      endpoint(2, { status: 'DISABLED', disabledReason: 'Disabled by the tenant.', disabledWhy: TENANT }),
    ];
    renderPortal(<WebhooksPage />, { translator: await translatorIn('ar') });
    const url = await screen.findByText('https://hooks1.example.com/waymark', { selector: 'code' });
    expect(screen.getByText('عطّلته مؤسستك.')).toBeTruthy();
    expect(url.getAttribute('dir')).toBe('ltr');
    expect(screen.getByRole('heading', { name: 'خطافات الويب (Webhooks)' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'التسليمات إلى https://hooks1.example.com/waymark' }));
    const section = (await screen.findByRole('heading', { name: /التسليمات إلى/ })).closest('section')!;
    await within(section).findByText('Service Unavailable');
    expect(within(section).getAllByText('فشل')).toHaveLength(2);
    expect(within(section).getByText(`${new Intl.NumberFormat('ar').format(120)} ملّي ثانية`)).toBeTruthy();
  });
});
