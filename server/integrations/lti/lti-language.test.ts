/**
 * The launch's pages in the launching person's language (issue 31) against the mock platform over real
 * HTTP: the id_token's launch presentation `locale` (LTI Core 1.3 §5.4.4) first, then the browser's
 * Accept-Language, then the linked account's language, then English — a language Waymark does not speak is
 * passed over — with `lang` and `dir` on the page (Arabic right to left).
 */
import { FREE_SEATS } from '@shared/rules/seats';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { tenantInvitations } from '../../tenant/tables';
import { type SignedIn, setupServer } from '../../test/helper';
import { deepLinkingClaims } from '../../test/lti-launch';
import { MockPlatform } from '../../test/lti-platform';
import { externalIdentities } from '../core/tables';

const server = setupServer({ env: { LTI_DEV_LOOPBACK: 'true' } });
const platform = new MockPlatform();
const PRESENTATION = 'https://purl.imsglobal.org/spec/lti/claim/launch_presentation';
const CUSTOM = 'https://purl.imsglobal.org/spec/lti/claim/custom';

let tenant: SignedIn;

const launchUrl = () => `${server.config.publicUrl.replace(/\/+$/, '')}/lti/launch`;

beforeAll(async () => {
  await platform.start();
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Language Mentor' });
  const made = await server.post('/api/tenant/lti/registrations', platform.manual(), tenant.auth);
  expect(made.status, made.text).toBe(201);
}, 60_000);
afterAll(() => platform.close());

const login = (extra: Record<string, string>, headers: Record<string, string> = {}) =>
  server.app.inject({
    method: 'GET',
    url: `/lti/login?${new URLSearchParams({
      iss: platform.issuer,
      login_hint: 'lms-user',
      target_link_uri: launchUrl(),
      client_id: platform.clientId,
      ...extra,
    })}`,
    headers,
  });

/** A launch whose id_token carries `claims` (`aud` the tool unless `claims.aud` says otherwise). */
async function launch(claims: Record<string, unknown>, headers: Record<string, string> = {}) {
  const started = await login({ lti_deployment_id: platform.deploymentId });
  expect(started.statusCode, started.body).toBe(302);
  const to = new URL(String(started.headers.location));
  const nonce = to.searchParams.get('nonce')!;
  const idToken = await platform.idToken(nonce, platform.clientId, launchUrl(), claims);
  const form = { id_token: idToken, state: to.searchParams.get('state')! };
  const post = () =>
    server.app.inject({
      method: 'POST',
      url: '/lti/launch',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(form).toString(),
    });
  return { res: await post(), again: post };
}

const locale = (tag: string) => ({ [PRESENTATION]: { locale: tag, document_target: 'iframe' } });
const html = (body: string) => /<html lang="([^"]+)" dir="([^"]+)">/.exec(body)?.slice(1);

describe('the refusal pages', () => {
  it('refuses an unknown platform in the browser’s language, English for one Waymark does not speak', async () => {
    const spanish = await login(
      { iss: 'https://elsewhere.example' },
      { 'accept-language': 'es-MX,es;q=0.9' },
    );
    expect(spanish.statusCode).toBe(404);
    expect(html(spanish.body)).toEqual(['es', 'ltr']);
    expect(spanish.body).toContain('Este LMS no está registrado en Waymark');
    expect(spanish.body).toMatch(/referencia: <code dir="ltr">[0-9a-f]{8}<\/code>/);
    expect(spanish.headers['content-language']).toBe('es');
    const arabic = await login({ iss: 'https://elsewhere.example' }, { 'accept-language': 'ar' });
    expect(html(arabic.body)).toEqual(['ar', 'rtl']);
    expect(arabic.body).toContain('نظام إدارة التعلّم هذا غير مسجّل في Waymark');
    const french = await login({ iss: 'https://elsewhere.example' }, { 'accept-language': 'fr-FR' });
    expect(html(french.body)).toEqual(['en', 'ltr']);
    expect(french.body).toContain('This LMS is not registered with Waymark');
  });

  it('says a refused launch in the id_token’s locale before the browser’s; an unknown locale falls back', async () => {
    // a wrong audience: refused before the token is trusted, said in the language it names
    const wrong = { aud: 'someone-else' };
    const spanish = await launch({ ...wrong, ...locale('es-MX') }, { 'accept-language': 'ar' });
    expect(spanish.res.statusCode).toBe(400);
    expect(html(spanish.res.body)).toEqual(['es', 'ltr']);
    expect(spanish.res.body).toContain('Este inicio era para otra herramienta');
    // Moodle's form of a tag
    const arabic = await launch({ ...wrong, ...locale('ar_eg') });
    expect(html(arabic.res.body)).toEqual(['ar', 'rtl']);
    expect(arabic.res.body).toContain('كان هذا التشغيل موجّهًا إلى أداة أخرى');
    // German is not spoken: the browser's Arabic, else English
    const german = await launch({ ...wrong, ...locale('de-DE') }, { 'accept-language': 'ar' });
    expect(html(german.res.body)).toEqual(['ar', 'rtl']);
    const none = await launch({ ...wrong, ...locale('de-DE') });
    expect(html(none.res.body)).toEqual(['en', 'ltr']);
    expect(none.res.body).toContain('This launch was meant for another tool');
  });

  it('refuses a replayed launch in Spanish, and a link to an assessment not the tenant’s in the account’s Arabic', async () => {
    const first = await launch({ sub: 'lang-learner-1', ...locale('es') });
    expect(first.res.statusCode, first.res.body).toBe(200);
    const replayed = await first.again();
    expect(replayed.statusCode).toBe(400);
    expect(replayed.body).toContain('Este inicio ya se usó');
    // the linked account reads Arabic; the launch names no locale and the browser no language
    const [identity] = await server.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.subject, 'lang-learner-1'));
    await server.db.update(users).set({ language: 'ar' }).where(eq(users.id, identity!.userId));
    const gone = await launch({
      sub: 'lang-learner-1',
      [CUSTOM]: { waymark_target: 'assessment:11111111-2222-4333-8444-000000000000' },
    });
    expect(gone.res.statusCode).toBe(400);
    expect(html(gone.res.body)).toEqual(['ar', 'rtl']);
    expect(gone.res.body).toContain('لا يستطيع Waymark فتح هذا لك');
    expect(gone.res.body).toContain('يرتبط هذا النشاط بتقييم في Waymark لم يعد متاحًا.');
    // the browser's language comes before the account's
    const browser = await launch(
      {
        sub: 'lang-learner-1',
        [CUSTOM]: { waymark_target: 'assessment:11111111-2222-4333-8444-000000000000' },
      },
      { 'accept-language': 'es' },
    );
    expect(browser.res.body).toContain(
      'Esta actividad enlaza con una evaluación de Waymark que ya no está disponible.',
    );
  });

  it('says seats exhausted in Arabic, right to left', async () => {
    const full = await server.signedIn('TENANT', { profile: true, name: 'Full Mentor' });
    platform.clientId = 'full-language-client';
    try {
      const made = await server.post('/api/tenant/lti/registrations', platform.manual('Full LMS'), full.auth);
      expect(made.status, made.text).toBe(201);
      await server.db.insert(tenantInvitations).values(
        Array.from({ length: FREE_SEATS }, (_, i) => ({
          tenantId: full.user._id,
          email: `pending-lang-${i}@example.com`,
          expiresAt: new Date(Date.now() + 86_400_000),
        })),
      );
      const { res } = await launch({ sub: 'seatless-ar', ...locale('ar') });
      expect(res.statusCode).toBe(403);
      expect(html(res.body)).toEqual(['ar', 'rtl']);
      expect(res.body).toContain('لا يوجد مقعد شاغر لك في Waymark');
      expect(res.body).toContain('أُبلغ مرشدك');
    } finally {
      platform.clientId = 'waymark-client-1';
    }
  });
});

describe('the hand-off page', () => {
  it('opens in the launch’s language, its words and its calls in it', async () => {
    const { res } = await launch({ sub: 'lang-learner-2', ...locale('es-ES') });
    expect(res.statusCode, res.body).toBe(200);
    expect(html(res.body)).toEqual(['es', 'ltr']);
    expect(res.body).toContain('<h1 id="t">Abriendo Waymark…</h1>');
    expect(res.body).toContain("'accept-language':lang");
    expect(res.body).toContain('var lang="es"');
    // the portal's page for the launch starts in it
    expect(res.body).toContain(
      "'/lti/app/'+encodeURIComponent(a.launchId)+'?lang='+encodeURIComponent(lang)+'#'",
    );
    // the account the first launch made reads Waymark in that language (the portal and its mail follow it)
    const [identity] = await server.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.subject, 'lang-learner-2'));
    const [account] = await server.db.select().from(users).where(eq(users.id, identity!.userId));
    expect(account!.language).toBe('es');
    // the instructor's picker, in Arabic, names the course
    const picker = await launch({ sub: 'teacher-ar', ...locale('ar'), ...deepLinkingClaims(platform) });
    expect(picker.res.statusCode, picker.res.body).toBe(200);
    expect(html(picker.res.body)).toEqual(['ar', 'rtl']);
    expect(picker.res.body).toContain('اختر ما تريد إضافته إلى Course One.');
    expect(picker.res.body).toContain('{title} (اختبار القسم)');
  });
});

describe('the Dynamic Registration pages', () => {
  it('say what could not be registered in the browser’s language', async () => {
    const bare = await server.app.inject({
      method: 'GET',
      url: '/lti/register',
      headers: { 'accept-language': 'es' },
    });
    expect(bare.statusCode).toBe(400);
    expect(html(bare.body)).toEqual(['es', 'ltr']);
    expect(bare.body).toContain('No se pudo registrar Waymark');
    expect(bare.body).toContain('Abre esta dirección desde el registro de herramientas de tu LMS');
    // the same platform (issuer and client id) a second time, in Arabic
    const invite = await server.post('/api/tenant/lti/registration-invites', { label: 'Again' }, tenant.auth);
    expect(invite.status, invite.text).toBe(201);
    const to = new URL(invite.body.data.url);
    const again = await server.app.inject({
      method: 'GET',
      url: `${to.pathname}${to.search}&${new URLSearchParams({
        openid_configuration: `${platform.base}/.well-known/openid-configuration`,
        registration_token: platform.registrationToken,
      })}`,
      headers: { 'accept-language': 'ar' },
    });
    expect(again.statusCode).toBe(400);
    expect(html(again.body)).toEqual(['ar', 'rtl']);
    expect(again.body).toContain('تعذّر تسجيل Waymark');
    expect(again.body).toContain('هذه المنصّة مسجّلة بالفعل.');
  });
});
