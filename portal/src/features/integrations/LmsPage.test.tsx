import type { CallDef } from '@shared/contract/define';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { complaintsIn, englishOf } from '../../testing/english-left';
import { renderPortal, translatorIn } from '../../testing/render';

const reg = (n: number, extra: Record<string, unknown> = {}) => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  label: `LMS ${n}`,
  issuer: `https://lms${n}.example.edu`,
  clientId: `client-${n}`,
  deploymentIds: ['1'],
  authLoginUrl: `https://lms${n}.example.edu/mod/lti/auth.php`,
  tokenUrl: `https://lms${n}.example.edu/mod/lti/token.php`,
  jwksUrl: `https://lms${n}.example.edu/mod/lti/certs.php`,
  authServer: null,
  status: 'ACTIVE',
  via: 'MANUAL',
  emailsVerified: false,
  attemptPolicy: 'LATEST',
  scopes: [],
  platform: { product: null, version: null },
  createdAt: '2026-03-01T09:00:00.000Z',
  deliveries: { pending: 0, failed: 0, delivered: 0 },
  ...extra,
});
let regs = [reg(1), reg(2, { status: 'PAUSED', via: 'DYNAMIC' })];
const tool = {
  clientName: 'Waymark',
  domain: 'waymark.example.com',
  loginUrl: 'https://waymark.example.com/lti/login',
  launchUrl: 'https://waymark.example.com/lti/launch',
  redirectUrls: ['https://waymark.example.com/lti/launch'],
  jwksUrl: 'https://waymark.example.com/lti/jwks',
  deepLinkingUrl: 'https://waymark.example.com/lti/launch',
  scopes: [],
  customParameters: '',
};
const failedPost = {
  _id: '00000000-0000-4000-8000-0000000000aa',
  registrationId: reg(1)._id,
  status: 'GAVE_UP',
  attempts: 8,
  learner: { _id: '00000000-0000-4000-8000-0000000000bb', name: 'Asha Learner', email: 'asha@example.com' },
  eventType: 'assessment.evaluated',
  lineItemUrl: 'https://lms1.example.edu/lineitems/1',
  scoreGiven: 85,
  scoreMaximum: 100,
  lastStatus: 503,
  lastError: 'Service Unavailable',
  lastErrorCode: null,
  createdAt: '2026-03-01T09:00:00.000Z',
  nextAttemptAt: null,
  deliveredAt: null,
};
/** A post Waymark gave up by itself: its reason by code, said in the reader's language. */
const goneTarget = {
  ...failedPost,
  _id: '00000000-0000-4000-8000-0000000000ab',
  learner: { _id: '00000000-0000-4000-8000-0000000000bc', name: 'Bo Learner', email: 'bo@example.com' },
  lastStatus: null,
  lastError: 'The grade column is no longer known.',
  lastErrorCode: 'TARGET_GONE',
};
let posts: object[] = [failedPost];
const sent: { path: string; method: string; body?: unknown; params?: unknown }[] = [];
const call = vi.fn(
  async (def: CallDef, args?: { body?: Record<string, unknown>; params?: { id: string } }) => {
    sent.push({ path: def.path, method: def.method, body: args?.body, params: args?.params });
    if (def.path === '/tenant/lti/tool') return { data: tool };
    if (def.path === '/tenant/lti/registrations' && def.method === 'GET') return { data: regs };
    if (def.path === '/tenant/lti/registrations' && def.method === 'POST') {
      const made = reg(3, args?.body);
      regs = [made, ...regs];
      return { data: made };
    }
    if (def.path === '/tenant/lti/registrations/{id}' && def.method === 'PATCH') {
      regs = regs.map((r) => (r._id === args?.params?.id ? { ...r, ...args?.body } : r));
      return { data: regs.find((r) => r._id === args?.params?.id) };
    }
    if (def.path === '/tenant/lti/registrations/{id}' && def.method === 'DELETE') {
      regs = regs.filter((r) => r._id !== args?.params?.id);
      return { data: { removed: true } };
    }
    if (def.path === '/tenant/lti/deliveries') return { data: posts };
    if (def.path === '/tenant/lti/registrations/{id}/contexts')
      return {
        data: [
          {
            _id: 'c0000000-0000-4000-8000-000000000001',
            contextId: 'c1',
            title: 'Course One',
            canSyncMembers: true,
            lastLaunchAt: '2026-03-01T09:00:00.000Z',
          },
        ],
      };
    if (def.path === '/tenant/lti/contexts/{id}/sync') {
      const dryRun = (args?.body as { dryRun: boolean } | undefined)?.dryRun ?? false;
      return {
        data: {
          dryRun,
          members: [
            {
              subject: 's1',
              name: 'Rita Roster',
              email: null,
              outcome: 'ADDED',
              reason: dryRun ? 'Would be given a seat, if one is free.' : null,
              reasonCode: dryRun ? 'WOULD_ADD' : null,
            },
            {
              subject: 's2',
              name: 'Nate Noseat',
              email: null,
              outcome: 'NOT_ADDED',
              reason: 'payment required',
              reasonCode: 'PAYMENT_REQUIRED',
            },
            {
              subject: 's3',
              name: 'Ola Other',
              email: null,
              outcome: 'NOT_ADDED',
              reason: 'This e-mail address belongs to a mentor account, not a learner.',
              reasonCode: 'REFUSED',
            },
          ],
          counts: { added: 1, present: 2, notAdded: 2 },
          skipped: 1,
        },
      };
    }
    if (def.path === '/tenant/lti/deliveries/{id}/retry') {
      posts = [];
      return { data: { ...failedPost, status: 'PENDING' } };
    }
    if (def.path === '/tenant/lti/registration-invites') {
      return {
        data: {
          url: 'https://waymark.example.com/lti/register?invite=abc',
          expiresAt: '2026-03-08T09:00:00.000Z',
        },
      };
    }
    throw new Error(`unexpected call ${def.method} ${def.path}`);
  },
);
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { default: LmsPage } = await import('./LmsPage');

afterEach(() => {
  sent.length = 0;
  toasts.value = [];
});

describe('/portal/integrations/lms', () => {
  it("shows Waymark's values to paste and the platforms with their status", async () => {
    renderPortal(<LmsPage />, { url: '/portal/integrations/lms' });
    expect(await screen.findByText('https://waymark.example.com/lti/login')).toBeTruthy();
    expect(screen.getByText('https://waymark.example.com/lti/jwks')).toBeTruthy();
    const table = (await screen.findByText('client-1')).closest('table')!;
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Active')).toBeTruthy();
    expect(within(rows[0]!).getByRole('button', { name: 'Pause LMS 1' })).toBeTruthy();
    expect(within(rows[1]!).getByRole('button', { name: 'Resume LMS 2' })).toBeTruthy();
  });

  it('pauses a platform and says what that does', async () => {
    renderPortal(<LmsPage />, { url: '/portal/integrations/lms', toasts: true });
    const pause = await screen.findByRole('button', { name: 'Pause LMS 1' });
    await act(async () => {
      fireEvent.click(pause);
    });
    await waitFor(() => expect(sent.some((s) => s.method === 'PATCH')).toBe(true));
    expect(sent.find((s) => s.method === 'PATCH')).toMatchObject({
      params: { id: reg(1)._id },
      body: { status: 'PAUSED' },
    });
    await screen.findByText(/“LMS 1” is paused/);
  });

  it('adds a platform by hand: every value required, deployments split', async () => {
    renderPortal(<LmsPage />, { url: '/portal/integrations/lms', toasts: true });
    await screen.findByText('client-1');
    fireEvent.click(screen.getByRole('button', { name: 'Add platform' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await screen.findAllByText('Required');
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
    const fill = (label: RegExp, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    fill(/^Name/, 'Our Moodle');
    fill(/^Issuer/, 'https://moodle.example.edu');
    fill(/^Client id/, 'aBc123');
    fill(/^Deployment ids/, '1, 2');
    fill(/^Authentication request/, 'https://moodle.example.edu/mod/lti/auth.php');
    fill(/^Access token URL/, 'https://moodle.example.edu/mod/lti/token.php');
    fill(/^Public keyset URL/, 'https://moodle.example.edu/mod/lti/certs.php');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    });
    await waitFor(() => expect(sent.some((s) => s.method === 'POST')).toBe(true));
    expect(sent.find((s) => s.method === 'POST')!.body).toEqual({
      label: 'Our Moodle',
      issuer: 'https://moodle.example.edu',
      clientId: 'aBc123',
      deploymentIds: ['1', '2'],
      authLoginUrl: 'https://moodle.example.edu/mod/lti/auth.php',
      tokenUrl: 'https://moodle.example.edu/mod/lti/token.php',
      jwksUrl: 'https://moodle.example.edu/mod/lti/certs.php',
    });
    await screen.findByText('The platform “Our Moodle” was added.');
  });

  it('says the form’s complaints in Spanish, empty or invalid (decision 052)', async () => {
    const spanish = await translatorIn('es');
    renderPortal(<LmsPage />, { translator: spanish });
    await screen.findByText('client-1');
    fireEvent.click(screen.getByRole('button', { name: 'Añadir plataforma' }));
    const dialog = screen.getByRole('dialog');
    const form = dialog.querySelector('form')!;
    await act(async () => {
      fireEvent.submit(form);
    });
    await waitFor(() => expect(complaintsIn(dialog)).toContain('Obligatorio'));
    fireEvent.change(form.querySelector('[name="issuer"]')!, { target: { value: 'moodle' } });
    fireEvent.change(form.querySelector('[name="label"]')!, { target: { value: 'x'.repeat(101) } });
    await act(async () => {
      fireEvent.submit(form);
    });
    await waitFor(() => expect(complaintsIn(dialog)).toContain('Debe ser una dirección https'));
    expect(complaintsIn(dialog)).toContain('Debe tener como máximo 100 caracteres');
    expect(englishOf(complaintsIn(dialog), spanish)).toEqual([]);
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);
  });

  it('makes a one-time registration URL', async () => {
    renderPortal(<LmsPage />, { url: '/portal/integrations/lms' });
    await screen.findByText('client-1');
    fireEvent.click(screen.getByRole('button', { name: 'Registration URL' }));
    fireEvent.change(screen.getByLabelText(/^Name of the platform/), { target: { value: 'Our Canvas' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Make URL/ }));
    });
    const shown = (await screen.findByLabelText('The registration URL')) as HTMLInputElement;
    expect(shown.value).toBe('https://waymark.example.com/lti/register?invite=abc');
    expect(sent.find((s) => s.path === '/tenant/lti/registration-invites')!.body).toEqual({
      label: 'Our Canvas',
    });
  });

  it('shows the scores that did not reach the gradebook, and sends one again', async () => {
    renderPortal(<LmsPage />, { url: '/portal/integrations/lms', toasts: true });
    const row = (await screen.findByText('Asha Learner')).closest('tr')!;
    expect(within(row).getByText('85 / 100')).toBeTruthy();
    expect(within(row).getByText('503: Service Unavailable')).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: /Send again/ }));
    });
    await screen.findByText('The score will be sent again within a minute.');
    expect(sent.find((s) => s.path === '/tenant/lti/deliveries/{id}/retry')!.params).toEqual({
      id: failedPost._id,
    });
    await screen.findByText('Every score reached its gradebook');
  });

  it("shows a platform's courses and syncs their members, checking first", async () => {
    renderPortal(<LmsPage />, { url: '/portal/integrations/lms' });
    fireEvent.click(await screen.findByRole('button', { name: 'Courses of LMS 1' }));
    const check = await screen.findByRole('button', { name: 'Check members of Course One' });
    await act(async () => {
      fireEvent.click(check);
    });
    await screen.findByText(/Would add 1, already seated 2/);
    expect(screen.getByText(/Rita Roster: Added — Would be given a seat/)).toBeTruthy();
    expect(screen.getByText('Nate Noseat: Not added — Payment required: every seat is taken.')).toBeTruthy();
    // a refusal without a code of its own: the server's words
    expect(
      screen.getByText(/Ola Other: Not added — This e-mail address belongs to a mentor account/),
    ).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sync members of Course One' }));
    });
    await screen.findByText(/^Added 1, already seated 2/);
    const syncs = sent.filter((x) => x.path === '/tenant/lti/contexts/{id}/sync');
    expect(syncs.map((x) => x.body)).toEqual([{ dryRun: true }, { dryRun: false }]);
  });

  it('asks before removing, then removes', async () => {
    renderPortal(<LmsPage />, { url: '/portal/integrations/lms', toasts: true });
    fireEvent.click(await screen.findByRole('button', { name: /Remove LMS 2/ }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByText(/keep their accounts/)).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    });
    await screen.findByText('The platform “LMS 2” was removed.');
  });

  it('speaks Spanish: platforms, score posts with their attempts, and the members a sync would add', async () => {
    regs = [reg(1), reg(2, { status: 'PAUSED', via: 'DYNAMIC' })];
    posts = [failedPost, goneTarget];
    renderPortal(<LmsPage />, { translator: await translatorIn('es') });
    const row = (await screen.findByText('Asha Learner')).closest('tr')!;
    expect(within(row).getByText('Fallida (8 intentos)')).toBeTruthy();
    // the platform's answer in its own words; Waymark's reason in the reader's language
    expect(within(row).getByText('503: Service Unavailable')).toBeTruthy();
    const gone = screen.getByText('Bo Learner').closest('tr')!;
    expect(within(gone).getByText('La columna de calificaciones ya no existe.')).toBeTruthy();
    expect(screen.getByText('En pausa')).toBeTruthy();
    expect(screen.getByText(/^Registro dinámico, /)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reanudar LMS 2' })).toBeTruthy();
    expect(screen.getByText('URL de inicio de sesión (inicio de OpenID Connect)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cursos de LMS 1' }));
    const check = await screen.findByRole('button', { name: 'Comprobar miembros de Course One' });
    await act(async () => {
      fireEvent.click(check);
    });
    await screen.findByText(/^Se añadirían 1, ya con plaza 2/);
    expect(screen.getByText('Rita Roster: Añadido — Recibiría una plaza, si hay alguna libre.')).toBeTruthy();
    expect(
      screen.getByText('Nate Noseat: No añadido — Pago necesario: todas las plazas están ocupadas.'),
    ).toBeTruthy();
  });

  it('speaks Arabic, the addresses left to right', async () => {
    regs = [reg(1), reg(2, { status: 'PAUSED', via: 'DYNAMIC' })];
    renderPortal(<LmsPage />, { translator: await translatorIn('ar') });
    const login = await screen.findByText('https://waymark.example.com/lti/login');
    expect(login.getAttribute('dir')).toBe('ltr');
    expect(screen.getByRole('heading', { name: 'نظام إدارة التعلّم (LMS)' })).toBeTruthy();
    expect(screen.getByText('متوقفة مؤقتًا')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'إضافة منصة' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'الدورات في LMS 1' }));
    const check = await screen.findByRole('button', { name: 'فحص الأعضاء في Course One' });
    await act(async () => {
      fireEvent.click(check);
    });
    expect(await screen.findByText('Nate Noseat: لم يُضف — الدفع مطلوب: جميع المقاعد مشغولة.')).toBeTruthy();
  });
});
