import type { CallDef } from '@shared/contract/define';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPortal, translatorIn } from '../../testing/render';

const entry = (n: number, extra: Record<string, unknown> = {}) => ({
  _id: `00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  occurredAt: `2026-03-0${1 + (n % 8)}T10:00:00.000Z`,
  actor: { kind: 'person', id: 'p1', label: 'Meera Iyer' },
  action: 'seat.added',
  target: { kind: 'user', id: 'u1' },
  summary: `learner${n}@example.com added as a learner`,
  details: {},
  ip: '198.51.100.7',
  userAgent: 'Firefox',
  ...extra,
});

const queries: Record<string, unknown>[] = [];
/** When set, the log's only page. */
let only: ReturnType<typeof entry>[] | null = null;
const call = vi.fn(async (def: CallDef, args?: { query?: Record<string, unknown> }) => {
  const query = args?.query ?? {};
  queries.push(query);
  if (def.path !== '/tenant/audit-log') throw new Error(`unexpected call ${def.path}`);
  if (only) return { data: { entries: only, nextCursor: null } };
  if (query.actorKind === 'apiKey')
    return {
      data: {
        entries: [entry(9, { actor: { kind: 'apiKey', id: 'k1', label: 'HR sync (wm_k4t9x2m7q1bz_…)' } })],
        nextCursor: null,
      },
    };
  if (query.cursor === 'page2') return { data: { entries: [entry(3)], nextCursor: null } };
  return { data: { entries: [entry(1), entry(2)], nextCursor: 'page2' } };
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { default: ActivityLogPage } = await import('./ActivityLogPage');

afterEach(() => {
  queries.length = 0;
  only = null;
});

describe('/portal/integrations/activity-log', () => {
  it('shows who did what, when and from where, and reads on with Load more', async () => {
    renderPortal(<ActivityLogPage />, { url: '/portal/integrations/activity-log' });
    const table = (await screen.findByText('learner1@example.com added as a learner')).closest('table')!;
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getAllByText('Meera Iyer')).toHaveLength(2);
    expect(within(table).getAllByText('198.51.100.7')).toHaveLength(2);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    });
    await screen.findByText('learner3@example.com added as a learner');
    expect(queries.at(-1)).toMatchObject({ cursor: 'page2', limit: 50 });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('filters by the kind of change, who made it and the days', async () => {
    renderPortal(<ActivityLogPage />, { url: '/portal/integrations/activity-log' });
    await screen.findByText('learner1@example.com added as a learner');
    fireEvent.change(screen.getByLabelText('Change'), { target: { value: 'seat' } });
    fireEvent.change(screen.getByLabelText('Made by'), { target: { value: 'apiKey' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-07' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    await screen.findByText('HR sync (wm_k4t9x2m7q1bz_…)');
    const last = queries.at(-1)!;
    expect(last).toMatchObject({ action: 'seat', actorKind: 'apiKey', limit: 50 });
    // the days picked, from the start of the first to the start of the day after the last
    expect(Date.parse(String(last.to)) - Date.parse(String(last.from))).toBe(7 * 86_400_000);
    await waitFor(() => expect(screen.queryByText('learner1@example.com added as a learner')).toBeNull());
  });

  it('speaks Spanish: headings, filters, the kind of actor and the dates', async () => {
    renderPortal(<ActivityLogPage />, { translator: await translatorIn('es') });
    const table = (await screen.findByText('learner1@example.com added as a learner')).closest('table')!;
    expect(screen.getByRole('heading', { name: 'Registro de actividad' })).toBeTruthy();
    expect(within(table).getAllByText('Persona')).toHaveLength(2);
    expect(within(table).getAllByText(/mar 2026/)).toHaveLength(2);
    expect(screen.getByLabelText('Hecho por')).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Plazas e invitaciones' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cargar más' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Descargar CSV del registro de actividad' })).toBeTruthy();
  });

  it('speaks Arabic, with the address left to right', async () => {
    renderPortal(<ActivityLogPage />, { translator: await translatorIn('ar') });
    const table = (await screen.findByText('learner1@example.com added as a learner')).closest('table')!;
    expect(screen.getByRole('heading', { name: 'سجل النشاط' })).toBeTruthy();
    expect(within(table).getAllByText('شخص')).toHaveLength(2);
    expect(within(table).getAllByText('198.51.100.7')[0]!.closest('[dir]')?.getAttribute('dir')).toBe('ltr');
    expect(screen.getByRole('button', { name: 'تحميل المزيد' })).toBeTruthy();
    expect(screen.queryByText('Load more')).toBeNull();
  });
});

describe('what happened, in the reader’s language (issue 31)', () => {
  // as the server records them: its English line, and the action's details beside it
  const entries = () => [
    entry(1, {
      action: 'cohort.member_added',
      summary: 'asha@example.com joined cohort “Night class”',
      details: { cohortId: 'c1', cohort: 'Night class', email: 'asha@example.com' },
    }),
    entry(2, {
      action: 'xapi.resent',
      summary: '3 failed statement entries sent again to https://lrs.example/xapi/',
      details: { endpoint: 'https://lrs.example/xapi/', count: 3 },
    }),
    entry(3, {
      action: 'lti.paused',
      summary: 'Paused the LMS platform Moodle',
      details: { label: 'Moodle', changes: { status: 'PAUSED' } },
    }),
    entry(4, {
      action: 'webhook.updated',
      summary: 'Webhook endpoint https://hooks.example/ changed: events seat.added, seat.removed; in order',
      details: {
        url: 'https://hooks.example/',
        events: ['seat.added', 'seat.removed'],
        ordered: true,
        status: 'ACTIVE',
        changed: ['events', 'ordered'],
      },
    }),
    entry(5, {
      action: 'sso.configured',
      summary: 'Single sign-on (OIDC) through Okta (https://okta.example) set up: on',
      details: {
        protocol: 'oidc',
        displayName: 'Okta',
        issuer: 'https://okta.example',
        enabled: true,
        requireSso: false,
      },
    }),
    entry(6, {
      action: 'award.revoked',
      summary: "asha@example.com's certificate aw1 revoked: Shared answers.",
      details: { awardId: 'aw1', email: 'asha@example.com', kind: 'certificate', reason: 'Shared answers.' },
    }),
    // written before its details named the platform: shown as recorded
    entry(7, { action: 'lti.resumed', summary: 'Resumed the LMS platform Canvas', details: { changes: {} } }),
  ];

  async function said(locale: 'es' | 'ar') {
    only = entries();
    renderPortal(<ActivityLogPage />, { translator: await translatorIn(locale) });
    const table = (await screen.findByText('Resumed the LMS platform Canvas')).closest('table')!;
    return within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelectorAll('td')[3]!.textContent);
  }

  it('says each entry again in Spanish from its action and details; one it cannot, as recorded', async () => {
    expect(await said('es')).toEqual([
      'asha@example.com se unió a la cohorte «Night class»',
      '3 declaraciones fallidas reenviadas a https://lrs.example/xapi/',
      'Plataforma LMS Moodle en pausa',
      'Endpoint de webhook https://hooks.example/ modificado: eventos seat.added y seat.removed; en orden',
      'Inicio de sesión único (OIDC) con Okta (https://okta.example) configurado: activado',
      'Certificado aw1 de asha@example.com revocado: Shared answers.',
      'Resumed the LMS platform Canvas',
    ]);
    // the filter offers every group of actions the log records
    expect(screen.getByRole('option', { name: 'Inicio de sesión único y dominios' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Aprovisionamiento SCIM' })).toBeTruthy();
  });

  it('says them in Arabic', async () => {
    expect(await said('ar')).toEqual([
      'انضم asha@example.com إلى المجموعة «Night class»',
      'أُعيد إرسال 3 بيانات فاشلة إلى https://lrs.example/xapi/',
      'أُوقفت منصة LMS Moodle مؤقتًا',
      'عُدّلت نقطة استقبال خطافات الويب https://hooks.example/: الأحداث seat.added وseat.removed؛ بالترتيب',
      'أُعدّ تسجيل الدخول الموحّد (OIDC) عبر Okta (https://okta.example): مفعّل',
      'أُلغيت شهادة asha@example.com aw1: Shared answers.',
      'Resumed the LMS platform Canvas',
    ]);
    expect(screen.getByRole('option', { name: 'خطافات الويب' })).toBeTruthy();
  });
});
