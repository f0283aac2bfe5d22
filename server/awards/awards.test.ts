/**
 * Awards through the HTTP API: public certificate info, the upload address and the upload itself (signed,
 * short-lived, type and size checked), marking the image generated, the stored file, and the Open Graph
 * tags of a shared award page.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../adapters/storage';
import { testLinks } from '../assessments/tables';
import { users } from '../db/schema';
import { assignTo, type Bank, calls, seedBank } from '../test/fixtures/assessments';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';

for (const backend of BACKENDS) {
  describe(`awards on ${backend}`, () => {
    let h: Harness;
    let bank: Bank;
    let api: ReturnType<typeof calls>;
    let asha: Person;
    let ar: string;
    let ravi: Person;
    let mentor: Person;
    let feather: string;
    let certificate: string;
    let failed: string;

    const JPEG = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.from('JFIF'),
      Buffer.alloc(200, 7),
    ]);
    const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

    const info = (linkId: string) =>
      api.inject({ method: 'GET', url: `/api/certificate/certificate-info-v2/${linkId}` });
    const presign = (linkId: string, who: Person) =>
      api.inject({
        method: 'POST',
        url: '/api/certificate/create-presigned-url',
        headers: who.headers,
        payload: { fileDetails: { extension: 'jpg' }, certificateId: linkId },
      });
    const markCreated = (linkId: string, who: Person) =>
      api.inject({ method: 'PUT', url: `/api/certificate/create-v2/${linkId}`, headers: who.headers });
    const upload = (url: string, body: Buffer, contentType = 'image/jpeg') => {
      const u = new URL(url);
      return api.inject({
        method: 'PUT',
        url: u.pathname + u.search,
        headers: { 'content-type': contentType },
        payload: body,
      });
    };

    beforeAll(async () => {
      h = await openHarness(backend);
      api = calls(h.app);
      bank = await seedBank(h.db);
      asha = await h.learner('Asha <b>Learner</b> & "Co"');
      ravi = await h.learner('Ravi Learner');
      mentor = await h.tenant('Mira Mentor');
      ar = await assignTo(h.db, asha.id, bank);
      feather = await api.createOk(asha, {
        type: 'RESOURCE',
        assignedRoadmapId: ar,
        sectionId: bank.sectionIds[0],
        resourceId: bank.resourceIds[1],
      });
      await api.take(feather, bank, 'right');
      failed = await api.createOk(asha, {
        type: 'SECTION',
        assignedRoadmapId: ar,
        sectionId: bank.sectionIds[1],
      });
      await api.take(failed, bank, 'wrong');
      certificate = await api.createOk(asha, { type: 'ROADMAP', assignedRoadmapId: ar });
      await api.take(certificate, bank, 'right');
    }, 120_000);

    afterAll(async () => {
      await h?.close();
    });

    describe('certificate info', () => {
      it('is public for an earned award, with the page address by type and a 1-based month', async () => {
        const res = await info(feather);
        expect(res.statusCode).toBe(200);
        const data = res.json().data;
        const [row] = await h.db.select().from(testLinks).where(eq(testLinks.linkId, feather));
        expect(data).toMatchObject({
          linkId: feather,
          type: 'RESOURCE',
          userName: 'Asha <b>Learner</b> & "Co"',
          assignedResourceName: 'Lesson 1.2',
          assignedSectionName: 'Section 1',
          certificateGenerated: false,
          s3CertificateUrl: null,
          orgId: 'Waymark',
          completetedYear: row!.completedAt!.getUTCFullYear(),
          completetedMonth: row!.completedAt!.getUTCMonth() + 1,
        });
        expect(data.certificateUrl).toMatch(new RegExp(`/feather/${feather}$`));
        // nothing beyond what the page shows: no score, no user id
        expect(data).not.toHaveProperty('percentage');
        expect(data).not.toHaveProperty('ownerId');
        expect(res.body).not.toContain(asha.id);
        expect(data.isOwner).toBe(false);
        const asOwner = await api.inject({
          method: 'GET',
          url: `/api/certificate/certificate-info-v2/${feather}`,
          headers: asha.headers,
        });
        expect(asOwner.json().data.isOwner).toBe(true);
        const asOther = await api.inject({
          method: 'GET',
          url: `/api/certificate/certificate-info-v2/${feather}`,
          headers: ravi.headers,
        });
        expect(asOther.json().data.isOwner).toBe(false);
        expect((await info(certificate)).json().data.certificateUrl).toMatch(
          new RegExp(`/certificate/${certificate}$`),
        );
      });

      it('is 404 for a link that earned nothing, an unfinished link and an unknown one', async () => {
        expect((await info(failed)).statusCode).toBe(404);
        const open = await api.createOk(asha, {
          type: 'SUBJECT',
          subject: bank.subjectId,
          lookingForJob: 'NO',
        });
        expect((await info(open)).statusCode).toBe(404);
        expect((await info('unknownLink0000')).statusCode).toBe(404);
      });
    });

    describe('the award image', () => {
      it('gives an upload address only to the learner who earned an award', async () => {
        expect((await presign(feather, ravi)).statusCode).toBe(403);
        expect((await presign(feather, mentor)).statusCode).toBe(403);
        const notEarned = await presign(failed, asha);
        expect(notEarned.statusCode).toBe(409);
        const bad = await api.inject({
          method: 'POST',
          url: '/api/certificate/create-presigned-url',
          headers: asha.headers,
          payload: { fileDetails: { extension: 'png' }, certificateId: feather },
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().field).toBe('fileDetails.extension');
        const res = await presign(feather, asha);
        expect(res.statusCode).toBe(201);
        const { url, key, expiresAt } = res.json().data;
        expect(key).toBe(`certificates/${feather}.jpg`);
        expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(60_000);
        expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(300_000);
        expect(new URL(url).pathname).toBe('/api/storage/upload');
      });

      it('refuses to mark the image generated before it is uploaded', async () => {
        const res = await markCreated(feather, asha);
        expect(res.statusCode).toBe(409);
        expect(res.json().errorCode).toBe('IMAGE_NOT_UPLOADED');
      });

      it('refuses a tampered or expired upload address', async () => {
        const { url } = (await presign(feather, asha)).json().data;
        const tamper = (name: string, value: string) => {
          const u = new URL(url);
          u.searchParams.set(name, value);
          return u.toString();
        };
        for (const bad of [
          tamper('key', `certificates/${certificate}.jpg`),
          tamper('max', String(5 * 1024 * 1024 - 1)),
          tamper('expires', String(Math.floor(Date.now() / 1000) + 86_400)),
          tamper('sig', '0'.repeat(64)),
          tamper('ct', 'image/png'),
        ]) {
          const res = await upload(bad, JPEG);
          expect(res.statusCode).toBe(403);
          expect(res.json().errorCode).toBe('UPLOAD_URL_INVALID');
        }
        const storage = h.app.services.storage;
        const expired = await storage.presignUpload(`certificates/${feather}.jpg`, {
          contentType: 'image/jpeg',
          maxBytes: 1000,
          expiresInSeconds: -1,
        });
        const res = await upload(expired.url, JPEG);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({
          errorCode: 'UPLOAD_URL_EXPIRED',
          message: expect.stringMatching(/expired/),
        });
        expect(await storage.stat(`certificates/${feather}.jpg`)).toBeNull();
      });

      it('refuses the wrong type and a file over the signed size', async () => {
        const { url } = (await presign(feather, asha)).json().data;
        const asPng = await upload(url, PNG, 'image/png');
        expect(asPng.statusCode).toBe(415);
        expect(asPng.json().field).toBe('content-type');
        const disguised = await upload(url, PNG, 'image/jpeg');
        expect(disguised.statusCode).toBe(415);
        expect(disguised.json().message).toBe('The file is not a JPEG image.');
        const text = await upload(url, Buffer.from('hello'), 'text/plain');
        expect(text.statusCode).toBe(415);
        const empty = await upload(url, Buffer.alloc(0));
        expect(empty.statusCode).toBe(400);
        const huge = await upload(url, Buffer.concat([JPEG, Buffer.alloc(5 * 1024 * 1024)]));
        expect(huge.statusCode).toBe(413);
        const storage = h.app.services.storage;
        const small = await storage.presignUpload(`certificates/${feather}.jpg`, {
          contentType: 'image/jpeg',
          maxBytes: 100,
        });
        const over = await upload(small.url, JPEG);
        expect(over.statusCode).toBe(413);
        expect(await storage.stat(`certificates/${feather}.jpg`)).toBeNull();
      });

      it('stores the JPEG, marks the award generated and serves the file', async () => {
        const { url } = (await presign(feather, asha)).json().data;
        const up = await upload(url, JPEG);
        expect(up.statusCode).toBe(200);
        expect(up.json().data).toMatchObject({ key: `certificates/${feather}.jpg`, size: JPEG.length });
        expect((await markCreated(feather, ravi)).statusCode).toBe(403);
        const res = await markCreated(feather, asha);
        expect(res.statusCode).toBe(201);
        const data = res.json().data;
        expect(data).toMatchObject({ certificateGenerated: true, linkId: feather });
        expect(data.s3CertificateUrl).toMatch(new RegExp(`/files/certificates/${feather}\\.jpg$`));
        // idempotent; no new upload address once generated
        expect((await markCreated(feather, asha)).statusCode).toBe(201);
        expect((await presign(feather, asha)).statusCode).toBe(409);
        const list = (await api.list(asha)).json().data as {
          linkId: string;
          status: string;
          certificateGenerated: boolean;
        }[];
        expect(list.find((l) => l.linkId === feather)).toMatchObject({
          status: 'VIEW_CERTIFICATE',
          certificateGenerated: true,
        });
        expect((await info(feather)).json().data.s3CertificateUrl).toBe(data.s3CertificateUrl);

        const file = await api.inject({ method: 'GET', url: new URL(data.s3CertificateUrl).pathname });
        expect(file.statusCode).toBe(200);
        expect(file.headers['content-type']).toBe('image/jpeg');
        expect(file.headers['cache-control']).toMatch(/max-age=31536000/);
        expect(file.rawPayload.equals(JPEG)).toBe(true);
        expect((await api.inject({ method: 'GET', url: '/files/certificates/none.jpg' })).statusCode).toBe(
          404,
        );
        expect(
          (await api.inject({ method: 'GET', url: '/files/..%2Fsecrets%2Fjwt-secret' })).statusCode,
        ).toBe(404);
      });

      it('refuses to mark generated an upload that is not a JPEG', async () => {
        const storage = h.app.services.storage;
        expect(storage).toBeInstanceOf(LocalStorage);
        await (storage as LocalStorage).write(`certificates/${certificate}.jpg`, PNG);
        const res = await markCreated(certificate, asha);
        expect(res.statusCode).toBe(415);
        expect(await storage.stat(`certificates/${certificate}.jpg`)).toBeNull();
      });
    });

    describe('Open Graph tags of award pages', () => {
      it('show the learner, the achievement and the image, HTML-escaped', async () => {
        const page = await api.inject({ method: 'GET', url: `/feather/${feather}` });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toMatch(/text\/html/);
        const html = page.body;
        const meta = (p: string) =>
          new RegExp(`<meta (?:property|name)="${p}" content="([^"]*)">`).exec(html)?.[1];
        expect(meta('og:title')).toBe(
          'Asha &lt;b&gt;Learner&lt;/b&gt; &amp; &quot;Co&quot; earned a feather: Lesson 1.2',
        );
        expect(meta('og:description')).toMatch(/^Waymark feather awarded to Asha &lt;b&gt;/);
        expect(meta('og:url')).toMatch(new RegExp(`/feather/${feather}$`));
        expect(meta('og:image')).toMatch(new RegExp(`/files/certificates/${feather}\\.jpg$`));
        expect(meta('twitter:card')).toBe('summary_large_image');
        expect(html).not.toContain('<b>Learner</b>');
        // not generated yet: no image, a small card
        const cert = (await api.inject({ method: 'GET', url: `/certificate/${certificate}` })).body;
        expect(cert).toContain('property="og:title"');
        expect(cert).not.toContain('property="og:image"');
        expect(cert).toContain('<meta name="twitter:card" content="summary">');
      });

      it('speak the learner’s language, and say it on the page', async () => {
        await h.db.update(users).set({ language: 'es' }).where(eq(users.id, asha.id));
        try {
          const html = (await api.inject({ method: 'GET', url: `/feather/${feather}` })).body;
          const meta = (p: string) =>
            new RegExp(`<meta (?:property|name)="${p}" content="([^"]*)">`).exec(html)?.[1];
          expect(meta('og:title')).toBe(
            'Asha &lt;b&gt;Learner&lt;/b&gt; &amp; &quot;Co&quot; ha obtenido una pluma: Lesson 1.2',
          );
          expect(meta('og:description')).toMatch(/^Pluma de Waymark otorgada a Asha &lt;b&gt;/);
          expect(html).toMatch(/<html[^>]* lang="es"/);
        } finally {
          await h.db.update(users).set({ language: 'en' }).where(eq(users.id, asha.id));
        }
      });

      it('are absent for other pages, wrong kinds and links without an award', async () => {
        for (const path of [
          `/badge/${feather}`,
          `/certificate/${failed}`,
          '/my-roadmaps',
          '/feather/unknownLink0000',
        ]) {
          const page = await api.inject({ method: 'GET', url: path });
          expect(page.statusCode).toBe(200);
          expect(page.body).not.toContain('og:title');
        }
      });

      it('use the name as it is now', async () => {
        await h.db.update(users).set({ name: 'Asha L.' }).where(eq(users.id, asha.id));
        const html = (await api.inject({ method: 'GET', url: `/feather/${feather}` })).body;
        expect(html).toContain('content="Asha L. earned a feather: Lesson 1.2"');
      });
    });
  });
}
