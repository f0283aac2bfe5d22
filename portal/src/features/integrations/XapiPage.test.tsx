import type { CallDef } from '@shared/contract/define';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { complaintsIn, englishOf } from '../../testing/english-left';
import { renderPortal, translatorIn } from '../../testing/render';

const connected = {
  endpoint: 'https://lrs.example.com/xapi/',
  username: 'waymark',
  actorFormat: 'account',
  statements: ['studied', 'assessments', 'awards', 'roadmaps'],
  enabled: true,
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
  lastSentAt: null,
  failingSince: null,
  counts: { pending: 2, sent: 5, failed: 1 },
};
let connection: typeof connected | null = null;
const entry = (n: number, error: string | null, errorParts: unknown) => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  eventId: `00000000-0000-4000-8000-0000000000e${n}`,
  eventType: 'award.issued',
  status: 'FAILED',
  attempts: 1,
  createdAt: '2026-03-02T09:00:00.000Z',
  lastAttemptAt: '2026-03-02T09:00:00.000Z',
  nextAttemptAt: null,
  sentAt: null,
  responseStatus: 400,
  error,
  errorParts,
  statementIds: [],
});
/** A failure by code (the LRS's own words inside), and one stored before the codes (its English kept). */
const entries = [
  entry(1, 'The LRS answered 400: {"error": "bad actor"} It is not sent again until you resend it.', [
    { code: 'deliveries.error.lrsAnsweredBody', params: { status: 400, body: '{"error": "bad actor"}' } },
    { code: 'deliveries.error.notResent', params: {} },
  ]),
  entry(2, 'The LRS answered 500.', null),
];
const sent: { path: string; method: string; body?: unknown }[] = [];
const call = vi.fn(async (def: CallDef, args?: { body?: unknown }) => {
  sent.push({ path: def.path, method: def.method, body: args?.body });
  if (def.path === '/tenant/xapi' && def.method === 'GET') return { data: connection };
  if (def.path === '/tenant/xapi' && def.method === 'PUT') {
    connection = { ...connected, ...(args?.body as object) } as typeof connected;
    return { data: connection };
  }
  if (def.path === '/tenant/xapi/statements') return { data: { entries, nextCursor: null } };
  if (def.path === '/tenant/xapi/test')
    return {
      data: {
        ok: true,
        status: 200,
        ms: 12,
        statementId: 'x',
        message: 'The learning record store stored the test statement.',
        code: 'xapi.result.stored',
        params: {},
      },
    };
  throw new Error(`unexpected call ${def.path}`);
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { default: XapiPage } = await import('./XapiPage');

afterEach(() => {
  sent.length = 0;
  toasts.value = [];
});

describe('/portal/integrations/learning-record-store', () => {
  it('connects an LRS with its key and secret, learners as pseudonyms by default', async () => {
    connection = null;
    renderPortal(<XapiPage />, { url: '/portal/integrations/learning-record-store' });
    const form = await screen.findByRole('form', { name: 'Connect' });
    fireEvent.click(within(form).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(within(form).getAllByText('Required').length).toBeGreaterThan(0));
    expect(sent.filter((s) => s.method === 'PUT')).toHaveLength(0);
    fireEvent.change(within(form).getByLabelText(/xAPI endpoint/), {
      target: { value: 'https://lrs.example.com/xapi/' },
    });
    fireEvent.change(within(form).getByLabelText(/^Key/), { target: { value: 'waymark' } });
    fireEvent.change(within(form).getByLabelText(/^Secret/), { target: { value: 's3cret' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(sent.some((s) => s.method === 'PUT')).toBe(true));
    expect(sent.find((s) => s.method === 'PUT')!.body).toMatchObject({
      endpoint: 'https://lrs.example.com/xapi/',
      username: 'waymark',
      secret: 's3cret',
      actorFormat: 'account',
      statements: ['studied', 'assessments', 'awards', 'roadmaps'],
    });
  });

  it('shows a connected LRS with its counts, and what a test statement got', async () => {
    connection = connected;
    renderPortal(<XapiPage />, { url: '/portal/integrations/learning-record-store' });
    expect(await screen.findByText('2 waiting, 5 sent, 1 failed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send test statement' }));
    expect(await screen.findByText(/stored the test statement/)).toBeTruthy();
    // the secret is not asked again to save a change
    expect(screen.getByText('Leave empty to keep the current secret.')).toBeTruthy();
  });

  it('speaks Spanish: the state, the counts, what is sent and how learners are named', async () => {
    connection = { ...connected, failingSince: '2026-03-04T08:00:00.000Z' } as unknown as typeof connected;
    renderPortal(<XapiPage />, { translator: await translatorIn('es') });
    expect(await screen.findByText('2 en espera, 5 enviadas, 1 fallidas')).toBeTruthy();
    expect(screen.getByText(/^Falla desde .*mar 2026/)).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Rutas completadas' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: /Un seudónimo estable por alumno/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeTruthy();
    // why entries failed, said again from the server's codes; the LRS's answer as it wrote it (issue 31)
    expect(
      await screen.findByText(
        'El LRS respondió 400: {"error": "bad actor"} No se vuelve a enviar hasta que lo reenvíes.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('The LRS answered 500.')).toBeTruthy();
    expect(screen.queryByText(/It is not sent again/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar sentencia de prueba' }));
    expect(
      await screen.findByText(
        'El almacén de registros de aprendizaje guardó la sentencia de prueba. (200, 12 ms)',
      ),
    ).toBeTruthy();
  });

  it('says the form’s complaints in Spanish, empty or invalid (decision 052)', async () => {
    connection = null;
    const spanish = await translatorIn('es');
    renderPortal(<XapiPage />, { translator: spanish });
    const form = await screen.findByRole('form', { name: 'Conectar' });
    await act(async () => {
      fireEvent.submit(form);
    });
    await waitFor(() => expect(complaintsIn(form)).toContain('Obligatorio'));
    fireEvent.change(form.querySelector('[name="endpoint"]')!, { target: { value: 'lrs' } });
    await act(async () => {
      fireEvent.submit(form);
    });
    await waitFor(() =>
      expect(complaintsIn(form)).toContain('Debe ser una dirección como https://lrs.example.com/xapi/'),
    );
    expect(englishOf(complaintsIn(form), spanish)).toEqual([]);
    expect(sent.filter((s) => s.method === 'PUT')).toHaveLength(0);
  });

  it('speaks Arabic, its numbers as Arabic writes them', async () => {
    connection = connected;
    renderPortal(<XapiPage />, { translator: await translatorIn('ar') });
    const n = (x: number) => new Intl.NumberFormat('ar').format(x);
    expect(await screen.findByText(`${n(2)} في الانتظار، ${n(5)} أُرسلت، ${n(1)} فشلت`)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'مخزن سجلات التعلّم' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'فصل' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'إرسال عبارة تجريبية' }));
    expect(await screen.findByText(/^خزّن مخزن سجلات التعلّم العبارة التجريبية\./)).toBeTruthy();
  });
});
