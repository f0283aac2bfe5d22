import type { CertificateInfo } from '@shared/schemas/award';
import type { User } from '@shared/schemas/user';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPortal, translatorIn } from '../../testing/render';

const LINK = 'AbC_123-xyz0';
const UPLOAD = `http://127.0.0.1:8080/api/storage/upload?key=certificates%2F${LINK}.jpg&ct=image%2Fjpeg&sig=0`;
const STORED = `http://127.0.0.1:8080/files/certificates/${LINK}.jpg`;

let info: CertificateInfo;
/** When set, the status call waits for it (the answer comes late, as on a loaded machine) or fails. */
let statusAnswer: Promise<unknown> | null = null;
const credential = {
  awardId: LINK,
  credentialUrl: `http://127.0.0.1:8080/api/credentials/${LINK}`,
  verifyUrl: `http://127.0.0.1:8080/verify/${LINK}`,
  issuer: 'did:web:127.0.0.1%3A8080',
  status: 'active',
  revokedAt: null,
  reason: null,
  canRevoke: false,
};
const call = vi.fn(async (def: { method: string; path: string }, _args?: unknown): Promise<unknown> => {
  if (def.path === '/certificate/certificate-info-v2/{id}') return { data: info };
  if (def.path === '/credentials/{id}/status') return statusAnswer ?? { data: credential };
  if (def.path === '/certificate/{id}/renew') return { data: { testLinkId: 'RenewalLink0001' } };
  if (def.path === '/certificate/create-presigned-url')
    return { data: { url: UPLOAD, key: 'k', expiresAt: '' } };
  if (def.path === '/certificate/create-v2/{id}') {
    info = { ...info, certificateGenerated: true, s3CertificateUrl: STORED };
    return { data: info };
  }
  throw new Error(`unexpected call ${def.path}`);
});
vi.mock('@widgets/core/api', () => ({
  client: { call: (...a: unknown[]) => call(...(a as [{ method: string; path: string }, unknown])) },
}));
// html2canvas draws only in a real browser (the end-to-end test renders for real)
const html2canvas = vi.fn(async (_node: HTMLElement, _options: { scale: number }) => ({
  toBlob: (done: (b: Blob) => void, type: string) => done(new Blob(['\xff\xd8\xff jpeg'], { type })),
}));
vi.mock('html2canvas', () => ({ default: html2canvas }));

const { currentUser } = await import('../../lib/auth');
const { FeatherPage, CertificatePage } = await import('./AwardPage');

const uploads: { url: string; init: RequestInit }[] = [];
let wide = true;

beforeEach(() => {
  info = {
    linkId: LINK,
    type: 'RESOURCE',
    userName: 'Asha Learner',
    assignedResourceName: 'Closures & scope',
    assignedSectionName: 'Functions',
    assignedRoadMapName: 'JavaScript Foundations',
    subject: { name: 'Programming' },
    createdAt: '2026-01-31T10:00:00.000Z',
    s3CertificateUrl: null,
    certificateUrl: `http://127.0.0.1:8080/feather/${LINK}`,
    certificateGenerated: false,
    orgId: 'Waymark',
    completetedYear: 2026,
    completetedMonth: 1,
    isOwner: false,
    sandbox: false,
  };
  wide = true;
  uploads.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      uploads.push({ url, init });
      return new Response('{}', { status: 200 });
    }),
  );
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('1050') ? wide : true,
    addEventListener() {},
    removeEventListener() {},
  }));
  Object.defineProperty(HTMLElement.prototype, 'getBoundingClientRect', {
    configurable: true,
    value: () => ({ width: 560, height: 700, top: 0, left: 0, right: 560, bottom: 700, x: 0, y: 0 }),
  });
});
afterEach(() => {
  call.mockClear();
  html2canvas.mockClear();
  vi.unstubAllGlobals();
  currentUser.value = null;
  statusAnswer = null;
});

const learner = { role: 'USER', name: 'Asha Learner' } as User;

function open(path: string) {
  return renderPortal(<FeatherPage />, {
    url: path,
    path: '/feather/:id',
    routes: { '/certificate/:id': <CertificatePage /> },
    toasts: true,
  });
}

/** The award calls made (the credential panel's status call aside). */
const paths = () =>
  call.mock.calls.map((c) => (c[0] as { path: string }).path).filter((p) => !p.startsWith('/credentials/'));

describe('an award page', () => {
  it('tells a visitor who earned what, when, verified by Waymark, without LinkedIn or generation', async () => {
    open(`/feather/${LINK}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Asha Learner earned a Waymark feather' }),
    ).toBeTruthy();
    expect(screen.getByText('Verified by Waymark')).toBeTruthy();
    const details = screen.getByRole('complementary', { name: 'Feather details' });
    for (const text of ['Closures & scope', 'Functions', 'JavaScript Foundations', '31st Jan 2026', LINK])
      expect(details.textContent).toContain(text);
    expect(
      screen.getByRole('img', { name: /^Feather: Closures & scope, awarded to Asha Learner/ }),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Add to profile/ })).toBeNull();
    expect(screen.getByRole('link', { name: /Explore Waymark's roadmaps/ }).getAttribute('href')).toBe(
      '/landing',
    );
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(paths()).toEqual(['/certificate/certificate-info-v2/{id}']);
    expect(html2canvas).not.toHaveBeenCalled();
    // the award's credential: verify it, download it, and no Revoke for a visitor
    expect((await screen.findByRole('link', { name: 'Verify' })).getAttribute('href')).toBe(
      `/verify/${LINK}`,
    );
    // the panel shows before its status call answers; the download then points at the issuer's own address
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Download credential (JSON)' }).getAttribute('href')).toBe(
        credential.credentialUrl,
      ),
    );
    expect(screen.queryByRole('button', { name: 'Revoke award' })).toBeNull();
  });

  it("generates and stores the image when the learner who earned it opens it, then offers it and LinkedIn's link", async () => {
    info.isOwner = true;
    currentUser.value = learner;
    open(`/feather/${LINK}`);
    const download = await screen.findByRole('link', { name: 'Download' });
    expect(download.getAttribute('href')).toBe(STORED);
    expect(download.getAttribute('download')).toBe(`waymark-feather-${LINK}.jpg`);
    expect(paths()).toEqual([
      '/certificate/certificate-info-v2/{id}',
      '/certificate/create-presigned-url',
      '/certificate/create-v2/{id}',
    ]);
    expect(
      call.mock.calls.find(
        (c) => (c[0] as { path: string }).path === '/certificate/create-presigned-url',
      )?.[1],
    ).toEqual({
      // the rendered image's exact size, signed into the address
      body: {
        fileDetails: { extension: 'jpg', size: new Blob(['\xff\xd8\xff jpeg']).size },
        certificateId: LINK,
      },
    });
    // rendered at the stored size, uploaded with the signed type
    expect(html2canvas.mock.calls[0]?.[1].scale).toBe(1120 / 560);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.url).toBe(UPLOAD);
    expect(uploads[0]?.init).toMatchObject({ method: 'PUT', headers: { 'content-type': 'image/jpeg' } });
    expect((uploads[0]!.init.body as Blob).type).toBe('image/jpeg');

    const linkedIn = new URL(screen.getByRole('link', { name: /Add to profile/ }).getAttribute('href')!);
    expect(Object.fromEntries(linkedIn.searchParams)).toEqual({
      startTask: 'CERTIFICATION_NAME',
      name: 'Feather: Closures & scope',
      organizationName: 'Waymark',
      issueYear: '2026',
      issueMonth: '1',
      certUrl: `http://127.0.0.1:8080/verify/${LINK}`,
      certId: LINK,
    });
  });

  it('shows the stored image without generating again', async () => {
    Object.assign(info, { isOwner: true, certificateGenerated: true, s3CertificateUrl: STORED });
    currentUser.value = learner;
    open(`/feather/${LINK}`);
    expect((await screen.findByRole('link', { name: 'Download' })).getAttribute('href')).toBe(STORED);
    expect(paths()).toEqual(['/certificate/certificate-info-v2/{id}']);
    expect(html2canvas).not.toHaveBeenCalled();
  });

  it('says what went wrong when the image cannot be made, and tries again on Download', async () => {
    info.isOwner = true;
    currentUser.value = learner;
    html2canvas.mockRejectedValueOnce(new Error('tainted canvas'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    open(`/feather/${LINK}`);
    expect((await screen.findByRole('alert')).textContent).toBe(
      "Couldn't get the certificate ready to download. Please try later",
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect((await screen.findByRole('link', { name: 'Download' })).getAttribute('href')).toBe(STORED);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('renders the certificate only in a window at least 1050 px wide, and asks for a desktop below', async () => {
    Object.assign(info, {
      type: 'ROADMAP',
      assignedResourceName: null,
      assignedSectionName: null,
      isOwner: true,
      certificateUrl: `http://127.0.0.1:8080/certificate/${LINK}`,
    });
    currentUser.value = learner;
    wide = false;
    open(`/certificate/${LINK}`);
    expect(await screen.findByText('Please download in desktop or laptop.')).toBeTruthy();
    const download = screen.getByRole('button', { name: 'Download' });
    expect(download.getAttribute('aria-describedby')).toBe('award-desktop-note');
    await act(async () => fireEvent.click(download));
    expect(
      await screen.findByText('Please try later in desktop or laptop to download the image.'),
    ).toBeTruthy();
    expect(paths()).toEqual(['/certificate/certificate-info-v2/{id}']);
    expect(html2canvas).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: /Add to profile/ })).toBeTruthy();
  });

  it("shows the credential's standing before it draws the image (drawing holds the page's main thread)", async () => {
    info.isOwner = true;
    currentUser.value = learner;
    let answer!: (value: unknown) => void;
    statusAnswer = new Promise((resolve) => {
      answer = resolve;
    });
    open(`/feather/${LINK}`);
    const panel = await screen.findByRole('region', { name: 'Verifiable credential' });
    expect(screen.getByRole('link', { name: 'Verify' }).getAttribute('href')).toBe(`/verify/${LINK}`);
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(html2canvas).not.toHaveBeenCalled();
    await act(async () => answer({ data: credential }));
    expect(panel.textContent).toContain('An Open Badges 3.0 credential signed by did:web:127.0.0.1%3A8080');
    expect((await screen.findByRole('link', { name: 'Download' })).getAttribute('href')).toBe(STORED);
    expect(html2canvas).toHaveBeenCalledTimes(1);
  });

  it("says when the credential's standing could not be read, offers to try again, and still draws the image", async () => {
    info.isOwner = true;
    currentUser.value = learner;
    statusAnswer = Promise.reject(new Error('Failed to fetch'));
    statusAnswer.catch(() => {});
    open(`/feather/${LINK}`);
    const panel = await screen.findByRole('region', { name: 'Verifiable credential' });
    await waitFor(() =>
      expect(panel.textContent).toContain("Couldn't check whether this credential still stands just now."),
    );
    expect((await screen.findByRole('link', { name: 'Download' })).getAttribute('href')).toBe(STORED);
    statusAnswer = null;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(panel.textContent).toContain('An Open Badges 3.0 credential signed by'));
  });

  /** The learner's own certificate of a custom test, as its page loads it. */
  const ownCertificate = () => ({
    ...info,
    type: 'CUSTOM-TEST' as const,
    subject: { name: 'Cloud safety' },
    certificateUrl: `http://127.0.0.1:8080/certificate/${LINK}`,
    certificateGenerated: true,
    s3CertificateUrl: STORED,
    isOwner: true,
  });

  it('says until when a certificate is valid, shows its history, and offers its learner the renewal test', async () => {
    const older = 'OldAward_0001';
    info = {
      ...ownCertificate(),
      validity: {
        validUntil: '2020-03-03T10:00:00.000Z',
        state: 'expired',
        renewedBy: null,
        history: [
          { awardId: older, earnedAt: '2018-03-03T10:00:00.000Z', validUntil: '2019-03-03T10:00:00.000Z' },
          { awardId: LINK, earnedAt: '2019-03-01T10:00:00.000Z', validUntil: '2020-03-03T10:00:00.000Z' },
        ],
        renewal: { kind: 'ASSESSMENT', testLinkId: null },
      },
    };
    currentUser.value = learner;
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderPortal(<CertificatePage />, { url: `/certificate/${LINK}?renew=1`, path: '/certificate/:id' });
    const details = await screen.findByRole('complementary', { name: 'Certificate details' });
    expect(details.textContent).toContain('Expired on 3rd Mar 2020');
    const validity = screen.getByRole('region', { name: 'Validity' });
    expect(validity.textContent).toContain('This certificate is expired on 3rd Mar 2020.');
    expect(validity.textContent).toContain('earned 3rd Mar 2018, expired on 3rd Mar 2019');
    expect(screen.getByRole('link', { name: 'Certificate' }).getAttribute('href')).toBe(
      `/certificate/${older}`,
    );
    // the reminder's link lands on the renewal
    const renew = screen.getByRole('region', { name: 'Renew it' });
    expect(document.activeElement).toBe(renew);
    fireEvent.click(screen.getByRole('button', { name: 'Take the renewal test' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/test/RenewalLink0001'));
  });

  it('says the validity, its history and the renewal in Spanish and in Arabic', async () => {
    info = {
      ...ownCertificate(),
      validity: {
        validUntil: '2020-03-03T10:00:00.000Z',
        state: 'expired',
        renewedBy: 'NewAward_0001',
        history: [
          { awardId: 'OldAward_0001', earnedAt: '2018-03-03T10:00:00.000Z', validUntil: null },
          { awardId: LINK, earnedAt: '2019-03-01T10:00:00.000Z', validUntil: '2020-03-03T10:00:00.000Z' },
        ],
        renewal: { kind: 'SUBJECT', subjectId: '00000000-0000-4000-8000-0000000000c1', lookingForJob: 'NO' },
      },
    } as typeof info;
    currentUser.value = learner;
    const page = { url: `/certificate/${LINK}`, path: '/certificate/:id' };
    const first = renderPortal(<CertificatePage />, { ...page, translator: await translatorIn('es') });
    let validity = await screen.findByRole('region', { name: 'Validez' });
    expect(validity.textContent).toContain('Este certificado caducó el 3 mar 2020.');
    expect(validity.textContent).toContain('obtenido el 3 mar 2018, sin fecha de fin');
    expect(screen.getByRole('link', { name: 'ver el certificado vigente' }).getAttribute('href')).toBe(
      '/certificate/NewAward_0001',
    );
    expect(screen.getByText(/^Vuelve a hacer la prueba de la materia\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hacer la prueba de renovación' })).toBeTruthy();
    first.unmount();
    renderPortal(<CertificatePage />, { ...page, translator: await translatorIn('ar') });
    validity = await screen.findByRole('region', { name: 'الصلاحية' });
    expect(validity.textContent).toContain('هذه الشهادة انتهت في');
    expect(screen.getByRole('link', { name: 'شهادة' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'أداء اختبار التجديد' })).toBeTruthy();
  });

  it.each(['es', 'ar'] as const)(
    "marks a sandbox's award in %s: beside it, under it and on its design",
    async (locale) => {
      info = { ...info, sandbox: true };
      const translator = await translatorIn(locale);
      renderPortal(<FeatherPage />, { url: `/feather/${LINK}`, path: '/feather/:id', translator });
      const note = translator.t('sandbox.notCredential');
      expect(await screen.findByText(note)).toBeTruthy();
      const hero = document.querySelector('.award-hero .award-verified')!;
      expect(hero.textContent).toBe(`${translator.t('sandbox.mark')} ${translator.t('sandbox.awardNote')}`);
      expect(document.querySelector('.wm-art-sandbox')?.textContent).toBe(translator.t('sandbox.awardNote'));
      expect(document.body.textContent).not.toMatch(/Sandbox|nothing to verify/);
    },
  );

  it('offers no renewal to a visitor, and says nothing of validity for an award with no end', async () => {
    info = {
      ...info,
      validity: { validUntil: null, state: 'no-end', renewedBy: null, history: [], renewal: null },
    };
    open(`/feather/${LINK}`);
    const details = await screen.findByRole('complementary', { name: 'Feather details' });
    expect(details.textContent).not.toMatch(/Valid|Expired/);
    expect(screen.queryByRole('region', { name: 'Validity' })).toBeNull();
  });

  it('says not found for a link without an award of that kind', async () => {
    open(`/certificate/${LINK}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Award not found' })).toBeTruthy();
    await waitFor(() => expect(document.title).toMatch(/^Award not found/));
  });
});
