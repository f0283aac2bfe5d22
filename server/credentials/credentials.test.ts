/**
 * Awards as Open Badges 3.0 credentials, through the HTTP API: issued when earned (or on first request for
 * an award earned before), checked against the OB 3.0 data model and verified by an independent verifier
 * (the DCC libraries); one character altered fails; revocation by the mentor whose test it was or platform
 * staff shows in the status list; a key rotated after issuing still verifies the old credential; the
 * verifier's answers to bad input; did:key and another site's did:web.
 */

import { performance } from 'node:perf_hooks';
import { openBadgeProblems } from '@shared/credentials/ob3';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignedRoadmaps, assignedSections } from '../catalogue/tables';
import { assignTo, type Bank, calls, linkRowOf, seedBank } from '../test/fixtures/assessments';
import { BACKENDS, type Person, signedInPerson } from '../test/harness';
import { TestServer } from '../test/helper';
import { verifyIndependently } from './independent';
import { newKey } from './keys';
import { credentials } from './tables';

const STAFF = `staff-${Date.now()}@waymark.test`;

/** What another site (partner.example) serves, standing in for the network. */
const remote = new Map<string, unknown>();

for (const backend of BACKENDS) {
  describe(`credentials on ${backend}`, () => {
    let server: TestServer;
    let api: ReturnType<typeof calls>;
    let bank: Bank;
    let asha: Person;
    let mentor: Person;
    let otherMentor: Person;
    let feather: string;
    let badge: string;

    const person = (role: 'USER' | 'TENANT', name: string, email?: string) =>
      signedInPerson(server, role, { name, email });
    const getCredential = (id: string) => api.inject({ method: 'GET', url: `/api/credentials/${id}` });
    const verify = (credential: unknown) =>
      api.inject({ method: 'POST', url: '/api/credentials/verify', payload: { credential } });
    const revoke = (id: string, who: Person, reason = 'Answers were shared before the test.') =>
      api.inject({
        method: 'POST',
        url: `/api/credentials/${id}/revoke`,
        headers: who.headers,
        payload: { reason },
      });

    /**
     * The credential once the background issuing after the evaluation has stored it. The first one also
     * starts the signers' worker pool, which on a loaded machine (the PostgreSQL run beside other work)
     * took over 5 s: the wait is bounded by time well inside the test's timeout, not by a count of polls.
     */
    async function issued(id: string) {
      const until = Date.now() + 20_000;
      do {
        const [row] = await server.db.select().from(credentials).where(eq(credentials.awardId, id));
        if (row) return row;
        await new Promise((r) => setTimeout(r, 50));
      } while (Date.now() < until);
      throw new Error(`credential of ${id} was not issued after the evaluation`);
    }

    beforeAll(async () => {
      server = await new TestServer({
        env: { PLATFORM_STAFF_EMAILS: STAFF },
        services: {
          credentialOptions: {
            fetchJson: async (url) => {
              if (!remote.has(url)) throw new Error('getaddrinfo ENOTFOUND (no network)');
              return remote.get(url);
            },
          },
        },
      }).start();
      api = calls(server.app);
      bank = await seedBank(server.db);
      asha = await person('USER', 'Asha Learner');
      mentor = await person('TENANT', 'Mira Mentor');
      otherMentor = await person('TENANT', 'Otto Other');
      // a roadmap Mira assigned: its awards are of her tests
      const ar = await assignTo(server.db, asha.id, bank);
      await server.db
        .update(assignedRoadmaps)
        .set({ source: 'TENANT', assignedBy: mentor.id })
        .where(eq(assignedRoadmaps.id, ar));
      void assignedSections;
      feather = await api.createOk(asha, {
        type: 'RESOURCE',
        assignedRoadmapId: ar,
        sectionId: bank.sectionIds[0],
        resourceId: bank.resourceIds[0],
      });
      await api.take(feather, bank, 'right');
      badge = await api.createOk(asha, {
        type: 'SECTION',
        assignedRoadmapId: ar,
        sectionId: bank.sectionIds[1],
      });
      await api.take(badge, bank, 'right');
    }, 120_000);

    afterAll(async () => {
      await server?.close();
    });

    it('issues an Open Badges 3.0 credential when the award is earned, served as application/vc+ld+json', async () => {
      const row = await issued(feather);
      const res = await getCredential(feather);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/vc\+ld\+json/);
      const vc = res.json();
      expect(vc).toEqual(row.document);
      expect(openBadgeProblems(vc)).toEqual([]);
      expect(vc).toMatchObject({
        type: ['VerifiableCredential', 'OpenBadgeCredential'],
        name: 'Feather: Lesson 1.1',
        issuer: { id: server.app.services.credentials!.did, type: ['Profile'], name: 'Waymark' },
        credentialSubject: {
          name: 'Asha Learner',
          achievement: {
            achievementType: 'Achievement',
            name: 'Lesson 1.1',
            creator: { type: ['Profile'], name: 'Mira Mentor' },
          },
          result: [{ value: '100' }],
        },
        credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' },
        proof: {
          type: 'DataIntegrityProof',
          cryptosuite: 'eddsa-rdfc-2022',
          proofPurpose: 'assertionMethod',
        },
      });
      // the learner is named, and identified by a salted hash of the e-mail, never the address itself
      expect(JSON.stringify(vc)).not.toContain(asha.email);
      const [hashed] = vc.credentialSubject.identifier;
      const { createHash } = await import('node:crypto');
      expect(hashed.identityHash).toBe(
        `sha256$${createHash('sha256')
          .update(asha.email.toLowerCase() + hashed.salt)
          .digest('hex')}`,
      );
      expect(vc.issuer.id).toMatch(/^did:web:127\.0\.0\.1%3A\d+$/);
      // the test was the mentor's: the issuer profile names her organisation
      expect(vc.issuer.description).toMatch(/, for Mira Mentor: the organisation that assigned this roadmap/);
    });

    it('is accepted by an independent verifier, and an altered character is not', async () => {
      const vc = (await getCredential(feather)).json();
      const independent = await verifyIndependently(server.app, vc);
      expect(independent.errors).toEqual([]);
      expect(independent).toMatchObject({ verified: true, revoked: false });
      const ours = (await verify(vc)).json().data;
      expect(ours.verdict).toBe('valid');
      expect(ours.checks.map((c: { outcome: string }) => c.outcome)).toEqual(Array(6).fill('passed'));

      const altered = structuredClone(vc);
      altered.credentialSubject.name = 'Asha Learnex';
      expect((await verifyIndependently(server.app, altered)).verified).toBe(false);
      const report = (await verify(altered)).json().data;
      expect(report.verdict).toBe('tampered');
      expect(report.checks.find((c: { id: string }) => c.id === 'signature').outcome).toBe('failed');
      // one character of the JSON text, anywhere that carries meaning
      const text = JSON.stringify(vc);
      const at = text.indexOf('"validFrom":"') + 14;
      const shifted = text.slice(0, at) + (text[at] === '1' ? '2' : '1') + text.slice(at + 1);
      expect((await verify(shifted)).json().data.verdict).toBe('tampered');
    });

    it('issues an award earned before on first request, once, whoever asks at the same moment', async () => {
      await issued(badge);
      await server.db.delete(credentials).where(eq(credentials.awardId, badge));
      const answers = await Promise.all([1, 2, 3, 4].map(() => getCredential(badge)));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      const proofs = new Set(answers.map((r) => r.json().proof.proofValue));
      expect(proofs.size).toBe(1);
      expect((await verifyIndependently(server.app, answers[0]!.json())).verified).toBe(true);
    });

    it('issues the credentials of evaluations one at a time behind the requests, and queues none for a link that earned nothing', async () => {
      const service = server.app.services.credentials!;
      await Promise.all([issued(feather), issued(badge)]);
      await server.db.delete(credentials).where(inArray(credentials.awardId, [feather, badge]));
      const ravi = await person('USER', 'Ravi Learner');
      const ar = await assignTo(server.db, ravi.id, bank);
      const failed = await api.createOk(ravi, {
        type: 'RESOURCE',
        assignedRoadmapId: ar,
        sectionId: bank.sectionIds[0],
        resourceId: bank.resourceIds[1],
      });
      await api.take(failed, bank, 'wrong', ravi);
      const issue = service.issue.bind(service);
      let running = 0;
      let most = 0;
      const asked: string[] = [];
      service.issue = async (link) => {
        asked.push(link.linkId);
        most = Math.max(most, ++running);
        try {
          return await issue(link);
        } finally {
          running--;
        }
      };
      try {
        for (const id of [feather, failed, badge]) service.issueLater(await linkRowOf(server.db, id));
        await Promise.all([issued(feather), issued(badge)]);
      } finally {
        service.issue = issue;
      }
      expect(asked).toEqual([feather, badge]);
      expect(most).toBe(1);
      expect(await server.db.select().from(credentials).where(eq(credentials.awardId, failed))).toEqual([]);
    });

    it('signs beside the event loop: timers keep their time while credentials are issued', async () => {
      const service = server.app.services.credentials!;
      await Promise.all([issued(feather), issued(badge)]);
      /** How late a 5 ms timer runs, at worst, while both credentials are issued again (~50 ms of CPU each). */
      const worstTimerDelay = async () => {
        await server.db.delete(credentials).where(inArray(credentials.awardId, [feather, badge]));
        const ticks = [performance.now()];
        const timer = setInterval(() => ticks.push(performance.now()), 5);
        const rows = await Promise.all([service.credentialOf(feather), service.credentialOf(badge)]);
        clearInterval(timer);
        // the span from the last tick to the end counts too: a loop held the whole time is one long delay
        ticks.push(performance.now());
        expect(rows.map((r) => r?.awardId)).toEqual([feather, badge]);
        return { worst: Math.max(...ticks.slice(1).map((t, i) => t - ticks[i]! - 5)), rows };
      };
      const rounds = [];
      for (let i = 0; i < 3; i++) rounds.push(await worstTimerDelay());
      // the median round: one stall of this shared machine's CPU is not the server's doing; signing on the
      // event loop holds every timer (and every request) for the whole canonicalisation, every round
      const median = rounds.map((r) => r.worst).sort((x, y) => x - y)[1]!;
      expect(median).toBeLessThan(60);
      for (const row of rounds[2]!.rows) {
        expect((await verifyIndependently(server.app, row!.document)).verified).toBe(true);
      }
    });

    it('answers 404 for a link without an award and 400 for a malformed id', async () => {
      expect((await getCredential('unknownLink0000')).statusCode).toBe(404);
      expect((await getCredential('bad id!')).statusCode).toBe(400);
      expect((await api.inject({ method: 'GET', url: '/api/credentials/status/999' })).statusCode).toBe(404);
    });

    it('serves the DID document and a public, briefly cacheable status list', async () => {
      const did = await api.inject({ method: 'GET', url: '/.well-known/did.json' });
      expect(did.statusCode).toBe(200);
      const doc = did.json();
      expect(doc.id).toBe(server.app.services.credentials!.did);
      expect(doc.assertionMethod).toContain(doc.verificationMethod[0].id);
      expect(doc.verificationMethod[0]).toMatchObject({ type: 'Multikey', controller: doc.id });
      const vc = (await getCredential(feather)).json();
      const list = await api.inject({
        method: 'GET',
        url: new URL(vc.credentialStatus.statusListCredential).pathname,
      });
      expect(list.statusCode).toBe(200);
      expect(list.headers['cache-control']).toBe('public, max-age=30');
      expect(list.headers['content-type']).toMatch(/^application\/vc\+ld\+json/);
      expect(list.json()).toMatchObject({
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: doc.id,
        credentialSubject: { type: 'BitstringStatusList', statusPurpose: 'revocation' },
      });
    });

    it('lets only the mentor whose test it was, or platform staff, revoke — with a reason — and reports it revoked', async () => {
      const learnerTry = await revoke(feather, asha);
      expect(learnerTry.statusCode).toBe(403);
      expect((await revoke(feather, otherMentor)).statusCode).toBe(403);
      const noReason = await api.inject({
        method: 'POST',
        url: `/api/credentials/${feather}/revoke`,
        headers: mentor.headers,
        payload: { reason: ' ' },
      });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json().field).toBe('reason');

      const before = await api.inject({
        method: 'GET',
        url: `/api/credentials/${feather}/status`,
        headers: mentor.headers,
      });
      expect(before.json().data).toMatchObject({ status: 'active', canRevoke: true });

      const res = await revoke(feather, mentor);
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({
        awardId: feather,
        revokedAs: 'MENTOR',
        reason: 'Answers were shared before the test.',
      });
      const again = await revoke(feather, mentor, 'Another reason entirely');
      expect(again.statusCode).toBe(200);
      expect(again.json().data.reason).toBe('Answers were shared before the test.');

      const vc = (await getCredential(feather)).json();
      expect(await verifyIndependently(server.app, vc)).toMatchObject({
        verified: false,
        revoked: true,
        errors: [],
      });
      const report = (await verify(vc)).json().data;
      expect(report.verdict).toBe('revoked');
      expect(report.checks.find((c: { id: string }) => c.id === 'signature').outcome).toBe('passed');

      // the reason is for the learner and the revoker; the public sees that it was revoked
      const publicView = (
        await api.inject({ method: 'GET', url: `/api/credentials/${feather}/status` })
      ).json().data;
      expect(publicView).toMatchObject({ status: 'revoked', reason: null, canRevoke: false });
      const learnerView = (
        await api.inject({ method: 'GET', url: `/api/credentials/${feather}/status`, headers: asha.headers })
      ).json().data;
      expect(learnerView.reason).toBe('Answers were shared before the test.');
    });

    it('lets platform staff revoke any award', async () => {
      const staff = await person('TENANT', 'Sam Staff', STAFF);
      const res = await revoke(badge, staff, 'Issued by mistake during an outage.');
      expect(res.statusCode).toBe(201);
      expect(res.json().data.revokedAs).toBe('PLATFORM');
      expect((await verify((await getCredential(badge)).json())).json().data.verdict).toBe('revoked');
    });

    it('still verifies a credential signed before the key was rotated', async () => {
      const earlier = await api.createOk(asha, {
        type: 'SUBJECT',
        subject: bank.subjectId,
        lookingForJob: 'NO',
      });
      await api.take(earlier, bank, 'right');
      const oldVc = (await getCredential(earlier)).json();
      // a subject test is no mentor's: Waymark alone
      expect(oldVc.issuer.description).not.toContain('Mira Mentor');
      expect(oldVc.credentialSubject.achievement.creator).toBeUndefined();
      const revokedVc = (await getCredential(feather)).json();
      const rotated = await newKey();
      // a restart with a new signing key, on the same database: a whole new process, so that nothing the
      // first one assembled (the evaluation's background issuing included) signs with the old key
      const restarted = await server.anotherProcess({
        CREDENTIAL_SIGNING_KEY: rotated.secretKeyMultibase,
        PLATFORM_STAFF_EMAILS: STAFF,
      });
      const after = calls(restarted.app);
      const did = restarted.app.services.credentials!.keys.did;
      try {
        const doc = (await after.inject({ method: 'GET', url: '/.well-known/did.json' })).json();
        expect(doc.verificationMethod[0].publicKeyMultibase).toBe(rotated.publicKeyMultibase);
        expect(doc.assertionMethod).toContain(oldVc.proof.verificationMethod);
        expect(oldVc.proof.verificationMethod).not.toContain(rotated.publicKeyMultibase);
        expect(await verifyIndependently(restarted.app, oldVc)).toMatchObject({
          verified: true,
          revoked: false,
        });
        const verifyAfter = (credential: unknown) =>
          after.inject({ method: 'POST', url: '/api/credentials/verify', payload: { credential } });
        expect((await verifyAfter(oldVc)).json().data.verdict).toBe('valid');
        // revoked before the rotation, still revoked after
        expect((await verifyAfter(revokedVc)).json().data.verdict).toBe('revoked');
        const fresh = await after.createOk(asha, {
          type: 'SUBJECT',
          subject: bank.subjectId,
          lookingForJob: 'NO',
        });
        await after.take(fresh, bank, 'right');
        const newVc = (await after.inject({ method: 'GET', url: `/api/credentials/${fresh}` })).json();
        expect(newVc.proof.verificationMethod).toBe(`${did}#${rotated.publicKeyMultibase}`);
        expect((await verifyIndependently(restarted.app, newVc)).verified).toBe(true);
      } finally {
        await restarted.close();
      }
    });

    describe('bad input and other issuers', () => {
      it('says what is wrong with input that is no credential, never a 5xx', async () => {
        const cases: [unknown, RegExp][] = [
          ['{"not json', /not valid JSON/],
          ['[1,2]', /a credential is a JSON object/],
          ['eyJhbGciOiJFZERTQSJ9.eyJ2YyI6e319.c2ln', /JWT/],
          [{}, /no @context/],
          [
            { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'] },
            /no issuer/,
          ],
        ];
        for (const [input, message] of cases) {
          const res = await verify(input);
          expect(res.statusCode).toBe(200);
          expect(res.json().data.verdict).toBe('malformed');
          expect(res.json().data.summary).toMatch(message);
        }
        for (const body of [{}, { credential: 5 }, { credential: '' }]) {
          const res = await api.inject({ method: 'POST', url: '/api/credentials/verify', payload: body });
          expect(res.statusCode).toBe(400);
          expect(res.json().field).toBe('credential');
        }
      });

      it('reports an issuer whose DID cannot be resolved as unknown, saying why', async () => {
        const vc = (await getCredential(badge)).json();
        for (const [issuer, message] of [
          ['did:example:123', /did:example method; this verifier resolves did:web and did:key/],
          ['did:web:partner.example', /fetching https:\/\/partner\.example\/\.well-known\/did\.json failed/],
        ] as const) {
          const moved = { ...structuredClone(vc), issuer: { ...vc.issuer, id: issuer } };
          const report = (await verify(moved)).json().data;
          expect(report.verdict).toBe('unknown-issuer');
          expect(report.checks.find((c: { id: string }) => c.id === 'issuer').detail).toMatch(message);
        }
      });

      it('verifies credentials of other issuers signed with the independent library: did:key and did:web', async () => {
        const { signForeign } = await import('./foreign.fixture');
        const byKey = await signForeign('key');
        const keyReport = (await verify(byKey.credential)).json().data;
        expect(keyReport.checks).toEqual(
          expect.arrayContaining([expect.objectContaining({ id: 'signature', outcome: 'passed' })]),
        );
        expect(keyReport).toMatchObject({ verdict: 'valid', issuer: { id: byKey.did, isThisServer: false } });

        const byWeb = await signForeign('web');
        remote.set('https://partner.example/.well-known/did.json', byWeb.didDocument);
        const webReport = (await verify(byWeb.credential)).json().data;
        expect(webReport.verdict).toBe('valid');
        const tampered = { ...byWeb.credential, name: `${byWeb.credential.name}!` };
        expect((await verify(tampered)).json().data.verdict).toBe('tampered');
      });

      it('says who issued a credential by its DID: this Waymark only for its own DID or key, never for a name', async () => {
        const { signForeign } = await import('./foreign.fixture');
        const service = server.app.services.credentials!;
        const own = (await verify((await getCredential(feather)).json())).json().data;
        expect(own.issuer).toMatchObject({
          id: service.did,
          name: 'Waymark',
          isThisServer: true,
          confirmed: true,
        });
        expect(own.issuer.statement).toBe(`Issued by this Waymark (${service.did}).`);

        // someone else's did:key calling itself "Waymark": authentic, and plainly not ours
        const impostor = await signForeign('key', { name: 'Waymark' });
        const report = (await verify(impostor.credential)).json().data;
        expect(report.verdict).toBe('valid');
        expect(report.issuer).toMatchObject({
          id: impostor.did,
          name: 'Waymark',
          isThisServer: false,
          confirmed: true,
        });
        expect(report.issuer.statement).toBe(
          `Issued by ${impostor.did}, which calls itself “Waymark” — not by this Waymark.`,
        );
        expect(report.summary).toMatch(/not by this Waymark\.$/);
        expect(report.checks.find((c: { id: string }) => c.id === 'issuer')).toMatchObject({
          outcome: 'warning',
        });

        // a did:key of the key this server signs with is this server
        const ours = await signForeign('key', {
          name: 'Waymark',
          secretKeyMultibase: service.keys.signing.pair.secretKeyMultibase!,
        });
        expect(ours.did).toBe(`did:key:${service.keys.signing.publicKeyMultibase}`);
        const byOwnKey = (await verify(ours.credential)).json().data;
        expect(byOwnKey.issuer).toMatchObject({ id: ours.did, isThisServer: true });
      });

      it('calls a credential valid only when every proof holds: a garbage second proof makes it not valid', async () => {
        const vc = (await getCredential(feather)).json();
        const value: string = vc.proof.proofValue;
        const garbage = { ...vc.proof, proofValue: `${value.slice(0, 20)}${value.slice(21)}1` };
        const report = (await verify({ ...vc, proof: [vc.proof, garbage] })).json().data;
        expect(report.verdict).toBe('tampered');
        expect(report.checks.find((c: { id: string }) => c.id === 'signature').detail).toMatch(
          /^The Data Integrity proof 2 of 2 does not match the content/,
        );
        expect(report.issuer).toMatchObject({ isThisServer: false, confirmed: false });
        const odd = (await verify({ ...vc, proof: [vc.proof, { type: 'Ed25519Signature2020' }] })).json()
          .data;
        expect(odd.verdict).toBe('malformed');
        expect(odd.summary).toMatch(/cannot be called valid/);
      });
    });
  });
}
