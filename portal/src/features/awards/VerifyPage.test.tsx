/**
 * The verify page says who issued a credential by its DID, "this Waymark" only when the server confirmed
 * its own DID, and shows a name an issuer gives itself only as that issuer's claim (issue 25: a foreign
 * did:key named "Waymark" was shown as "Waymark did:key:…", with nothing saying it was not ours).
 */
import { english, loaders } from 'virtual:wm-messages';
import { createTranslator } from '@shared/i18n/translator';
import type { VerificationReport } from '@shared/schemas/credential';
import { fireEvent, screen } from '@testing-library/react';
import { I18nProvider } from '@widgets/core/i18n';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPortal } from '../../testing/render';

let answer: VerificationReport;
const call = vi.fn(async (def: { path: string }, _args?: unknown): Promise<unknown> => {
  if (def.path === '/credentials/verify') return { data: answer };
  throw new Error(`unexpected call ${def.path}`);
});
vi.mock('@widgets/core/api', () => ({
  client: { call: (...a: unknown[]) => call(...(a as [{ path: string }, unknown])) },
}));

const { default: VerifyPage } = await import('./VerifyPage');

const FOREIGN = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const OURS = 'did:web:waymark.example.com';

function report(issuer: VerificationReport['issuer'], verdict: VerificationReport['verdict'] = 'valid') {
  return {
    verdict,
    summary: 'This credential is valid: it is authentic, unchanged since it was signed, and not revoked.',
    checks: [{ id: 'signature', label: 'Signature', outcome: 'passed', detail: 'It matches.' }],
    issuer,
    credential: {
      id: 'urn:uuid:1',
      name: 'Workshop Badge',
      achievement: 'Workshop',
      achievementType: null,
      description: null,
      recipient: 'Rae Reader',
      validFrom: '2025-06-01T09:00:00Z',
      validUntil: null,
    },
    checkedAt: '2026-11-28T10:00:00.000Z',
  } as VerificationReport;
}

async function verifyPasted() {
  renderPortal(<VerifyPage />, { url: '/verify' });
  fireEvent.change(screen.getByLabelText('Paste the credential (JSON)'), {
    target: { value: '{"@context": ["https://www.w3.org/ns/credentials/v2"]}' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  // the row of the credential's facts that says who issued it
  const label = await screen.findByText(/^Issue(r|d by)$/, { selector: 'dt' });
  return label.nextElementSibling as HTMLElement;
}

beforeEach(() => {
  call.mockClear();
});

describe('who issued it, on the verify page', () => {
  it('shows a foreign issuer that calls itself "Waymark" by its DID, and says it is not this Waymark', async () => {
    answer = report({
      id: FOREIGN,
      name: 'Waymark',
      isThisServer: false,
      confirmed: true,
      statement: `Issued by ${FOREIGN}, which calls itself “Waymark” — not by this Waymark.`,
    });
    const issuer = await verifyPasted();
    expect(issuer.textContent).toBe(`${FOREIGN}, which calls itself “Waymark” — not issued by this Waymark`);
    expect(issuer.querySelector('code')?.textContent).toBe(FOREIGN);
    expect(issuer.textContent).not.toMatch(/^Waymark/);
  });

  it('calls this Waymark its own only when the server confirmed it', async () => {
    answer = report({
      id: OURS,
      name: 'Waymark',
      isThisServer: true,
      confirmed: true,
      statement: `Issued by this Waymark (${OURS}).`,
    });
    expect((await verifyPasted()).textContent).toBe(`This Waymark (${OURS})`);
  });

  it('says an issuer it could not confirm is not confirmed, even with this Waymark’s DID', async () => {
    answer = report(
      {
        id: OURS,
        name: 'Waymark',
        isThisServer: false,
        confirmed: false,
        statement: `It names this Waymark (${OURS}) as its issuer, but its proof does not confirm that this Waymark issued it.`,
      },
      'tampered',
    );
    const issuer = await verifyPasted();
    expect(issuer.textContent).toMatch(/not confirmed/);
    expect(issuer.textContent).not.toMatch(/^This Waymark/);
  });
});

describe('the verifier’s words in the reader’s language', () => {
  // what the server answers (shared/credentials/verify.ts): each finding by its code beside its English
  const issuer = { id: FOREIGN, name: null, isThisServer: false, confirmed: true, statement: '' };
  const coded = (): VerificationReport => ({
    ...report(issuer, 'expired'),
    credential: { ...report(issuer).credential!, validUntil: '2026-01-31T00:00:00Z' },
    summary: 'This credential has expired.',
    summaryParts: [{ code: 'verify.summary.expired' }],
    checks: [
      {
        id: 'open-badge',
        label: 'Open Badges 3.0',
        outcome: 'warning',
        detail:
          'Does not follow the Open Badges 3.0 data model: the achievement has no name (credentialSubject.achievement.name).',
        code: 'verify.check.openBadgeProblems',
        params: { problems: 'the achievement has no name (credentialSubject.achievement.name)' },
        problems: [
          { code: 'verify.ob.achievementName', params: { path: 'credentialSubject.achievement.name' } },
        ],
      },
      {
        id: 'dates',
        label: 'Validity dates',
        outcome: 'failed',
        detail: 'Expired on 2026-01-31.',
        code: 'verify.check.expiredOn',
        params: { date: '2026-01-31' },
      },
    ],
  });

  async function shown(locale: 'es' | 'ar') {
    answer = coded();
    const t = createTranslator(locale, (await loaders[locale]()).default, english);
    renderPortal(
      <I18nProvider value={t}>
        <VerifyPage />
      </I18nProvider>,
      { url: '/verify' },
    );
    fireEvent.change(screen.getByLabelText(t.t('verify.paste')), { target: { value: '{"@context": []}' } });
    fireEvent.click(screen.getByRole('button', { name: t.t('verify.verify') }));
    await screen.findByText(t.t('verify.checksTitle'));
    const checks = [...document.querySelectorAll('.verify-check')].map((li) => li.textContent);
    const validity = document.querySelector('.verify-report time[datetime="2026-01-31T00:00:00Z"]');
    return {
      summary: document.querySelector('.verify-report .lead')?.textContent,
      checks,
      validity: validity?.textContent,
    };
  }

  it('says the summary and each check in Spanish', async () => {
    expect(await shown('es')).toEqual({
      summary: 'Esta credencial ha caducado.',
      checks: [
        'Open Badges 3.0: AdvertenciaNo sigue el modelo de datos de Open Badges 3.0: el logro no tiene nombre (credentialSubject.achievement.name).',
        'Fechas de validez: No superadaCaducó el 2026-01-31.',
      ],
      validity: 'Caducó el 31 ene 2026',
    });
  });

  it('says them in Arabic', async () => {
    expect(await shown('ar')).toEqual({
      summary: 'انتهت صلاحية هذه الشهادة.',
      checks: [
        'Open Badges 3.0: تحذيرلا تتبع نموذج بيانات Open Badges 3.0: ليس للإنجاز اسم (credentialSubject.achievement.name).',
        'تواريخ الصلاحية: فاشلانتهت صلاحيتها في 2026-01-31.',
      ],
      validity: `انتهت في ${new Intl.DateTimeFormat('ar', { timeZone: 'UTC', dateStyle: 'medium' }).format(new Date('2026-01-31T00:00:00Z'))}`,
    });
  });
});
