import type { CallDef } from '@shared/contract/define';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPortal, translatorIn } from '../../../testing/render';

const link = (n: number, extra: Record<string, unknown> = {}) => ({
  linkId: `sbx-link-${n}`,
  learnerId: `00000000-0000-4000-8000-00000000000${n}`,
  learnerName: `Demo Learner ${n}`,
  type: 'RESOURCE',
  title: `Variables ${n}`,
  roadmapName: 'Python for beginners',
  status: 'TAKE_TEST',
  isCompleted: false,
  percentage: null,
  testUrl: `/test/sbx-link-${n}`,
  awardUrl: null,
  ...extra,
});
const sandbox = {
  createdAt: '2026-03-01T09:00:00.000Z',
  resetAt: '2026-03-03T09:00:00.000Z',
  resets: 2,
  learners: [
    { _id: '00000000-0000-4000-8000-000000000001', name: 'Ana', email: 'ana@sandbox.waymark.invalid' },
    { _id: '00000000-0000-4000-8000-000000000002', name: 'Omar', email: 'omar@sandbox.waymark.invalid' },
  ],
  roadmaps: [{ _id: '00000000-0000-4000-8000-0000000000a1', name: 'Python for beginners' }],
  links: [
    link(1),
    link(2, {
      status: 'NO_ENOUGH_MARKS',
      isCompleted: true,
      percentage: 42.4,
      awardUrl: null,
    }),
  ],
};
let current: typeof sandbox | null = sandbox;
const call = vi.fn(async (def: CallDef) => {
  if (def.path === '/tenant/sandbox' && def.method === 'GET') return { data: current };
  if (def.path === '/tenant/sandbox' && def.method === 'POST') {
    current = sandbox;
    return { data: current };
  }
  if (def.path === '/tenant/sandbox/reset') return { data: { ...sandbox, resets: 3 } };
  throw new Error(`unexpected call ${def.method} ${def.path}`);
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { default: SandboxPage } = await import('./SandboxPage');

afterEach(() => {
  current = sandbox;
});

describe('/portal/sandbox', () => {
  it('offers to create a sandbox, then lists its links with their state', async () => {
    current = null;
    renderPortal(<SandboxPage />);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Create sandbox' }));
    });
    expect(screen.getByRole('status').textContent).toBe('Your sandbox is ready.');
    const table = screen.getByRole('table', { name: "The sandbox's test links" });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Open')).toBeTruthy();
    expect(within(rows[1]!).getByText('No Enough Marks (42 %)')).toBeTruthy();
    expect(
      screen.getByText(/; reset 2 times, last .*Learners: Ana and Omar\. Roadmaps: Python for beginners\./),
    ).toBeTruthy();
    expect(
      within(rows[0]!).getByRole('link', {
        name: "Test page of Demo Learner 1's Variables 1 (opens in a new tab)",
      }),
    ).toBeTruthy();
  });

  it('speaks Spanish: the state, the list of learners, the reset asked first', async () => {
    renderPortal(<SandboxPage />, { translator: await translatorIn('es') });
    const table = await screen.findByRole('table', { name: 'Los enlaces a pruebas del entorno de pruebas' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Abierto')).toBeTruthy();
    expect(screen.getByText(/restablecido 2 veces.*Alumnos: Ana y Omar\./)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Entorno de pruebas Práctica');
    fireEvent.click(screen.getByRole('button', { name: 'Restablecer intentos' }));
    expect(screen.getByRole('dialog', { name: '¿Restablecer todos los intentos?' })).toBeTruthy();
  });

  it('speaks Arabic', async () => {
    renderPortal(<SandboxPage />, { translator: await translatorIn('ar') });
    const table = await screen.findByRole('table', { name: 'روابط الاختبارات في بيئة الاختبار' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('مفتوح')).toBeTruthy();
    expect(screen.getByText(/أُعيد تعيينها مرتين/)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('بيئة الاختبار تجريبي');
    expect(screen.getByRole('button', { name: 'إعادة تعيين المحاولات' })).toBeTruthy();
  });
});
