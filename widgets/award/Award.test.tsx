import { english, loaders } from 'virtual:wm-messages';
import { ApiError, type Client } from '@shared/client/client';
import type { CallDef } from '@shared/contract/define';
import { createTranslator } from '@shared/i18n/translator';
import type { CertificateInfo } from '@shared/schemas/award';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../core/i18n';
import { type WidgetEventName, type WidgetHost, WidgetHostProvider } from '../embed/host';
import { Award } from './Award';
import { fitSize } from './AwardArt';
import { awardModel } from './model';

afterEach(() => cleanup());

const LINK = 'AbC_123-xyz0';

function infoOf(over: Partial<CertificateInfo> = {}): CertificateInfo {
  return {
    linkId: LINK,
    type: 'RESOURCE',
    userName: 'Asha Learner',
    assignedResourceName: 'Closures',
    assignedSectionName: 'Functions',
    assignedRoadMapName: 'JavaScript Foundations',
    subject: { name: 'Programming' },
    createdAt: '2026-03-03T10:00:00.000Z',
    s3CertificateUrl: null,
    certificateUrl: `https://waymark.example/feather/${LINK}`,
    certificateGenerated: false,
    orgId: 'Waymark',
    completetedYear: 2026,
    completetedMonth: 3,
    isOwner: false,
    sandbox: false,
    ...over,
  };
}

const DID = 'did:web:waymark.example';
let credentialStatus: { awardId: string; status: 'active' | 'revoked'; issuer: string } = {
  awardId: LINK,
  status: 'active',
  issuer: DID,
};

function host(answer: () => Promise<unknown>) {
  const events: { type: WidgetEventName; detail: unknown }[] = [];
  const calls: { path: string; params: unknown }[] = [];
  const client = {
    options: { baseUrl: '/api', device: 'WEB_APP' },
    refresh: async () => true,
    async call(def: CallDef, args?: { params?: unknown }) {
      calls.push({ path: def.path, params: args?.params });
      if (def.path === '/credentials/{id}/status') return { data: credentialStatus };
      return answer();
    },
  } as unknown as Client;
  const value: WidgetHost = {
    client,
    siteBase: '',
    emit: (type, detail) => {
      events.push({ type, detail });
      return true;
    },
    navigate: vi.fn(),
    role: () => null,
  };
  return { value, events, calls };
}

/** The award of `info` in `locale`; its translator. */
async function showIn(locale: 'es' | 'ar', info: CertificateInfo) {
  const t = createTranslator(locale, (await loaders[locale]()).default, english);
  const h = host(async () => ({ data: info }));
  render(
    <I18nProvider value={t}>
      <WidgetHostProvider host={h.value}>
        <Award linkId={LINK} />
      </WidgetHostProvider>
    </I18nProvider>,
  );
  return t;
}

function show(info: CertificateInfo | Error, props: Partial<Parameters<typeof Award>[0]> = {}) {
  const h = host(async () => {
    if (info instanceof Error) throw info;
    return { data: info };
  });
  render(
    <WidgetHostProvider host={h.value}>
      <Award linkId={LINK} {...props} />
    </WidgetHostProvider>,
  );
  return h;
}

describe('the award viewer', () => {
  it('draws a feather with the learner, the resource, its section and roadmap, the date, the issuer and the credential id', async () => {
    const h = show(infoOf(), { kind: 'feather' });
    expect(screen.getByRole('status').textContent).toBe('Loading the award…');
    const art = await screen.findByRole('img', {
      name: 'Feather: Closures, awarded to Asha Learner by Waymark on 3rd Mar 2026. Credential ID AbC_123-xyz0.',
    });
    expect(art.className).toBe('wm-art wm-art-feather');
    expect(art.querySelector('.wm-sheet-feather')).toBeTruthy();
    const text = art.textContent ?? '';
    for (const part of [
      'Feather',
      'Closures',
      'Functions · JavaScript Foundations',
      'Earned by',
      'Asha Learner',
      '3rd Mar 2026',
      'Waymark',
      LINK,
    ]) {
      expect(text).toContain(part);
    }
    // the credential's mark (its status is asked after the award is drawn), and the link to the verify page
    expect(await screen.findByText('✓ Verified')).toBeTruthy();
    // who issued it, by the DID the server says is its own (never a name)
    const issuer = document.querySelector('[part="issuer"]');
    expect(issuer?.textContent).toBe(`Issued by ${DID}`);
    expect(issuer?.querySelector('code')?.textContent).toBe(DID);
    expect(h.calls).toEqual([
      { path: '/certificate/certificate-info-v2/{id}', params: { id: LINK } },
      { path: '/credentials/{id}/status', params: { id: LINK } },
    ]);
    const link = screen.getByRole('link', { name: /Verify this feather on Waymark/ });
    expect(link.getAttribute('href')).toBe(`https://waymark.example/verify/${LINK}`);
    await waitFor(() =>
      expect(h.events).toEqual([
        {
          type: 'wm-load',
          detail: {
            linkId: LINK,
            kind: 'feather',
            name: 'Closures',
            learner: 'Asha Learner',
            imageUrl: null,
          },
        },
        { type: 'wm-ready', detail: { linkId: LINK } },
      ]),
    );
  });

  it('draws a badge as an emblem with the section and its roadmap', async () => {
    show(infoOf({ type: 'SECTION', assignedResourceName: null }), { kind: 'badge' });
    const art = await screen.findByRole('img', { name: /^Badge: Functions, awarded to Asha Learner/ });
    expect(art.querySelector('.wm-sheet-badge')).toBeTruthy();
    expect(art.querySelector('.wm-emblem svg')).toBeTruthy();
    expect(within(art).getByText('Badge earned')).toBeTruthy();
    expect(within(art).getByText('JavaScript Foundations')).toBeTruthy();
    expect(within(art).getByText('Asha Learner')).toBeTruthy();
  });

  it('draws a certificate for a roadmap and for a subject, with the statement of each', async () => {
    show(infoOf({ type: 'ROADMAP', assignedResourceName: null, assignedSectionName: null }));
    const art = await screen.findByRole('img', { name: /^Certificate: JavaScript Foundations/ });
    expect(art.querySelector('.wm-sheet-certificate .wm-frame svg')).toBeTruthy();
    expect(art.textContent).toContain('This certifies that');
    expect(art.textContent).toContain('has completed the final assessment of the roadmap');
    expect(art.textContent).toContain('Date of issue');
    expect(art.textContent).toContain(
      `Credential ID ${LINK} · Verify at https://waymark.example/feather/${LINK}`,
    );
    cleanup();
    show(infoOf({ type: 'SUBJECT', assignedRoadMapName: null, assignedResourceName: null }));
    const subject = await screen.findByRole('img', { name: /^Certificate: Programming/ });
    expect(subject.textContent).toContain('has passed the assessment of the subject');
  });

  it('shows the stored image once generated, and the live design when asked to', async () => {
    const generated = infoOf({
      certificateGenerated: true,
      s3CertificateUrl: `https://cdn.example/certificates/${LINK}.jpg`,
    });
    const h = show(generated);
    const image = (await screen.findByRole('img', { name: /^Feather: Closures/ })) as HTMLImageElement;
    expect(image.tagName).toBe('IMG');
    expect(image.getAttribute('src')).toBe(`https://cdn.example/certificates/${LINK}.jpg`);
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['1120', '1400']);
    await waitFor(() =>
      expect(h.events[0]?.detail).toMatchObject({ imageUrl: `https://cdn.example/certificates/${LINK}.jpg` }),
    );
    cleanup();
    show(generated, { view: 'live' });
    expect((await screen.findByRole('img', { name: /^Feather: Closures/ })).tagName).toBe('DIV');
  });

  it('shows and reports the new award when link-id changes, never the previous one under the new id', async () => {
    const other = 'Other_link_01';
    const h = host(async () => ({}));
    const answers: Record<string, CertificateInfo> = {
      [LINK]: infoOf(),
      [other]: infoOf({ linkId: other, type: 'SECTION', assignedSectionName: 'Arrays' }),
    };
    h.value.client.call = (async (def: CallDef, args?: { params?: { id: string } }) => {
      h.calls.push({ path: def.path, params: args?.params });
      await new Promise((r) => setTimeout(r, 20));
      return { data: answers[args!.params!.id] };
    }) as Client['call'];
    const view = (linkId: string) => (
      <WidgetHostProvider host={h.value}>
        <Award linkId={linkId} />
      </WidgetHostProvider>
    );
    const { rerender } = render(view(LINK));
    await screen.findByRole('img', { name: /^Feather: Closures/ });
    rerender(view(other));
    expect(screen.queryByRole('img', { name: /^Feather: Closures/ })).toBeNull();
    await screen.findByRole('img', { name: /^Badge: Arrays/ });
    await waitFor(() =>
      expect(h.events).toEqual([
        {
          type: 'wm-load',
          detail: expect.objectContaining({ linkId: LINK, kind: 'feather', name: 'Closures' }),
        },
        { type: 'wm-ready', detail: { linkId: LINK } },
        {
          type: 'wm-load',
          detail: expect.objectContaining({ linkId: other, kind: 'badge', name: 'Arrays' }),
        },
        { type: 'wm-ready', detail: { linkId: other } },
      ]),
    );
  });

  it('marks a revoked credential as revoked', async () => {
    credentialStatus = { awardId: LINK, status: 'revoked', issuer: DID };
    try {
      show(infoOf());
      expect(await screen.findByText('⊘ Revoked')).toBeTruthy();
      expect(screen.queryByText('✓ Verified')).toBeNull();
    } finally {
      credentialStatus = { awardId: LINK, status: 'active', issuer: DID };
    }
  });

  it('says not found for an unknown link and for an award of another kind', async () => {
    const h = show(new ApiError(404, { statusCode: 404, error: 'Not Found', message: 'no award' }));
    expect(await screen.findByText('Award not found')).toBeTruthy();
    await waitFor(() =>
      expect(h.events).toEqual([
        { type: 'wm-error', detail: { status: 404, code: 'not-found', message: 'Award not found' } },
      ]),
    );
    cleanup();
    show(infoOf(), { kind: 'certificate' });
    expect(await screen.findByText('Award not found')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it("reports any other failure as 'Certificate Issue'", async () => {
    const h = show(new ApiError(500, { statusCode: 500, error: 'Server Error', message: 'boom' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Certificate Issue');
    await waitFor(() =>
      expect(h.events).toEqual([
        { type: 'wm-error', detail: { status: 500, code: 'server-error', message: 'Certificate Issue' } },
      ]),
    );
  });

  it("marks a sandbox's award as no credential, and asks for no credential's status", async () => {
    const h = show(infoOf({ sandbox: true }));
    await waitFor(() => expect(document.querySelector('[part="sandbox"]')).toBeTruthy());
    expect(document.querySelector('[part="sandbox"]')!.textContent).toBe('Sandbox award: not a credential');
    // on the design itself, so the image made of it carries the mark
    expect(document.querySelector('[part="art"] .wm-art-sandbox')!.textContent).toBe(
      'Sandbox award: not a credential',
    );
    expect(screen.queryByText('✓ Verified')).toBeNull();
    expect(screen.queryByRole('link', { name: /Verify this/ })).toBeNull();
    expect(h.calls.map((c) => c.path)).toEqual(['/certificate/certificate-info-v2/{id}']);
  });

  it('shrinks long names so they keep to the design', () => {
    expect(fitSize('Asha', 5, [[22, 0.8]])).toBe('5cqw');
    expect(fitSize('A name much longer than twenty-two', 5, [[22, 0.8]])).toBe('4cqw');
    const model = awardModel(
      infoOf({ userName: 'x'.repeat(60) }),
      'feather',
      createTranslator('en', english),
    );
    expect(model.learner).toHaveLength(60);
  });
});

describe("the award's validity in the element's language", () => {
  // issue 31: 'Valid until …' / 'Expired on …' was English inside a Spanish or Arabic element
  const validity = (validUntil: string) => ({
    validUntil,
    state: 'valid' as const,
    renewedBy: null,
    history: [],
    renewal: null,
  });

  async function said(locale: 'es' | 'ar', validUntil: string) {
    await showIn(locale, infoOf({ type: 'SUBJECT', validity: validity(validUntil) }));
    await waitFor(() => expect(document.querySelector('.wm-award-validity time')).not.toBeNull());
    return document.querySelector('.wm-award-validity time')!.textContent;
  }

  it('says it in Spanish', async () => {
    expect(await said('es', '2099-03-03T00:00:00.000Z')).toBe('Válido hasta el 3 mar 2099');
  });

  it('says it in Arabic, the date as Arabic writes it', async () => {
    const day = new Intl.DateTimeFormat('ar', { timeZone: 'UTC', dateStyle: 'medium' });
    expect(await said('ar', '2020-03-03T00:00:00.000Z')).toBe(
      `انتهت في ${day.format(new Date('2020-03-03T00:00:00Z'))}`,
    );
  });
});

describe.each(['es', 'ar'] as const)("a sandbox's award in %s", (locale) => {
  it('says the mark beside the award and on its design in the reader’s language', async () => {
    const t = await showIn(locale, infoOf({ sandbox: true }));
    await waitFor(() => expect(document.querySelector('[part="sandbox"]')).toBeTruthy());
    const note = t.t('sandbox.awardNote');
    expect(note).not.toMatch(/Sandbox|credential/);
    expect(document.querySelector('[part="sandbox"]')!.textContent).toBe(note);
    expect(document.querySelector('[part="art"] .wm-art-sandbox')!.textContent).toBe(note);
    expect(document.body.textContent).not.toMatch(/Sandbox/);
  });
});
