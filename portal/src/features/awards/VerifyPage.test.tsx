/**
 * The verify page says who issued a credential by its DID, "this Waymark" only when the server confirmed
 * its own DID, and shows a name an issuer gives itself only as that issuer's claim (issue 25: a foreign
 * did:key named "Waymark" was shown as "Waymark did:key:…", with nothing saying it was not ours).
 */
import type { VerificationReport } from '@shared/schemas/credential';
import { fireEvent, screen } from '@testing-library/react';
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
