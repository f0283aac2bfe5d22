/**
 * Certificates that expire (issue 30): a mentor sets how long the certificates of an assessment stay valid;
 * a certificate earned from then on carries validUntil (its Open Badges credential, its award page, the
 * verifier), one earned before keeps no end; 30 days before the end its learner gets one e-mail (however many
 * reminder jobs run at once) with a renewal test; passing it issues a new certificate that runs on from the
 * old one's end, and both pages show the history. The platform's subject-test period is recorded once.
 */
import { attemptHeaders, newAttemptToken } from '@shared/rules/attempt-token';
import { formatDate } from '@shared/rules/format-date';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldJob } from '../analysis/fold';
import { testLinks } from '../assessments/tables';
import { awardExpiries, awardValidityPeriods } from '../awards/tables';
import { SUBJECT_TESTS } from '../awards/validity';
import { credentials } from '../credentials/tables';
import { outbox, tenantUsers, users } from '../db/schema';
import { questionOptions } from '../questions/tables';
import { authoringApi, questionBody, seedSubject } from '../test/fixtures/authoring';
import type { Person } from '../test/harness';
import { type Json, setupServer, TestServer } from '../test/helper';
import { sendReminders } from './renewals';

const server = setupServer({ env: { SUBJECT_TEST_VALIDITY_MONTHS: '12' } });
const api = authoringApi(server);
const { call, ok } = api;
const STEP = 15 * 60_000;
const DAY = 86_400_000;

describe('certificates that expire', () => {
  let mentor: Person;
  let rival: Person;
  let asha: Person;
  let ravi: { id: string; email: string };
  let assessment: string;
  const qs: string[] = [];
  const linkOf = new Map<string, string>();

  /** Starts a link and answers every question right, with the learner's token when given. */
  async function pass(linkId: string, who?: Person) {
    // the taker's browser holds the attempt's token, sent with the start and every write (decision 031)
    const headers = { ...who?.headers, ...attemptHeaders(newAttemptToken()) };
    const started = await server.app.inject({
      method: 'PUT',
      url: `/api/testlink/verify/${linkId}`,
      headers,
    });
    expect(started.statusCode, started.body).toBe(200);
    const answers = [];
    for (const q of qs) {
      const [right] = await server.db
        .select({ id: questionOptions.id })
        .from(questionOptions)
        .where(and(eq(questionOptions.questionId, q), eq(questionOptions.isCorrect, true)));
      answers.push({ questionId: q, answerId: right!.id });
    }
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/testlink/evaluvate/v2',
      headers,
      payload: { linkId, answers },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const info = async (awardId: string, who?: Person) =>
    (await call('GET', `/certificate/certificate-info-v2/${awardId}`, who)).body.data as Json;

  beforeAll(async () => {
    [mentor, rival, asha] = await Promise.all([
      api.person('TENANT', 'Mira Mentor'),
      api.person('TENANT', 'Rex Rival'),
      api.person('USER', 'Asha Learner'),
    ]);
    ravi = await api.quietLearner('Ravi Learner');
    const s = await seedSubject(server);
    assessment = await api.createAssessment(mentor, 'Cloud safety');
    for (let i = 0; i < 10; i++) {
      qs.push(
        await api.publishQuestion(
          mentor,
          questionBody('MCQ', s, { question: `Safety ${i + 1}` }),
          assessment,
        ),
      );
    }
    await server.db
      .insert(tenantUsers)
      .values([asha, ravi].map((l) => ({ tenantId: mentor.id, learnerId: l.id })));
    await ok('PUT', `/tenant/assessment/${assessment}/assign-users`, mentor, {
      userIds: [asha.id, ravi.id],
      createdAt: Date.now(),
      startTime: Math.ceil((Date.now() + 5 * 60_000) / STEP) * STEP,
      duration: 2,
    });
    await server.db
      .update(testLinks)
      .set({ startTime: new Date(Date.now() - 60_000) })
      .where(eq(testLinks.tenantAssessmentId, assessment));
    for (const r of await server.db
      .select({ userId: testLinks.userId, linkId: testLinks.linkId })
      .from(testLinks)
      .where(eq(testLinks.tenantAssessmentId, assessment))) {
      linkOf.set(r.userId!, r.linkId);
    }
  });

  it('lets the assessment’s tenant set a validity period, checked and kept with its history', async () => {
    const url = `/tenant/assessment/${assessment}/validity`;
    expect(await ok('GET', url, mentor)).toEqual({ months: null, periods: [] });
    for (const months of [0, 121, 1.5, '12']) {
      const bad = await call('PUT', url, mentor, { months });
      expect(bad.status, String(months)).toBe(400);
      expect(bad.body.field).toBe('months');
    }
    expect((await call('PUT', url, rival, { months: 12 })).status).toBe(404);
    expect((await call('GET', url, rival)).status).toBe(404);
    expect((await call('PUT', url, asha, { months: 12 })).status).toBe(403);
    // Ravi passes before any period: his certificate keeps no end
    await pass(linkOf.get(ravi.id)!);
    const set = await ok('PUT', url, mentor, { months: 12 });
    expect(set.months).toBe(12);
    // the same period again adds nothing
    expect((await ok('PUT', url, mentor, { months: 12 })).periods).toHaveLength(1);
  });

  it('gives a certificate earned from then on its end: credential, award page and verifier agree', async () => {
    const awardId = linkOf.get(asha.id)!;
    await pass(awardId, asha);
    const page = await info(awardId, asha);
    expect(page.type).toBe('CUSTOM-TEST');
    const link = (await server.db.select().from(testLinks).where(eq(testLinks.linkId, awardId)))[0]!;
    const expected = new Date(link.completedAt!);
    expected.setUTCFullYear(expected.getUTCFullYear() + 1);
    expect(page.validity.validUntil).toBe(expected.toISOString());
    expect(page.validity.state).toBe('valid');
    const credential = await server.app.inject({ method: 'GET', url: `/api/credentials/${awardId}` });
    const document = credential.json();
    expect(document.validUntil).toBe(`${expected.toISOString().slice(0, 19)}Z`);
    expect(document.credentialSubject.achievement.criteria.narrative).toContain(
      '“Cloud safety” set by Mira Mentor',
    );
    const report = await ok('POST', '/credentials/verify', asha, { credential: document });
    expect(report.verdict).toBe('valid');
    expect(report.checks.find((c: Json) => c.id === 'dates').detail).toContain(
      `until ${expected.toISOString().slice(0, 10)}`,
    );
    // nothing expires retroactively
    const earlier = await info(linkOf.get(ravi.id)!);
    expect(earlier.validity).toMatchObject({ validUntil: null, state: 'no-end', renewal: null });
  });

  describe('30 days before the end', () => {
    let validUntil: Date;

    beforeAll(async () => {
      // a year less 15 days ago: Asha's certificate ends in 15 days (the period was set before she passed)
      const shift = sql`interval '350 days'`;
      await server.db
        .update(testLinks)
        .set({
          completedAt: sql`${testLinks.completedAt} - ${shift}`,
          startedAt: sql`${testLinks.startedAt} - ${shift}`,
        })
        .where(eq(testLinks.linkId, linkOf.get(asha.id)!));
      await server.db
        .update(awardValidityPeriods)
        .set({ effectiveFrom: sql`${awardValidityPeriods.effectiveFrom} - interval '400 days'` })
        .where(eq(awardValidityPeriods.testKey, `CUSTOM-TEST:${assessment}`));
      // the credential signed before the dates moved is issued again on request
      await server.db.delete(credentials).where(eq(credentials.awardId, linkOf.get(asha.id)!));
      await foldJob(server.db, new Date());
      const [expiry] = await server.db
        .select()
        .from(awardExpiries)
        .where(eq(awardExpiries.awardId, linkOf.get(asha.id)!));
      validUntil = expiry!.validUntil;
      expect(validUntil.getTime() - Date.now()).toBeGreaterThan(14 * DAY);
      expect(validUntil.getTime() - Date.now()).toBeLessThan(16 * DAY);
    });

    it('says so on the award page, and offers its learner alone the renewal', async () => {
      const mine = await info(linkOf.get(asha.id)!, asha);
      expect(mine.validity.state).toBe('expiring');
      expect(mine.validity.renewal).toEqual({ kind: 'ASSESSMENT', testLinkId: null });
      const public$ = await info(linkOf.get(asha.id)!);
      expect(public$.validity.renewal).toBeNull();
      expect((await call('POST', `/certificate/${linkOf.get(asha.id)}/renew`, rival)).status).toBe(403);
    });

    it('e-mails the learner once, with a renewal test, however many jobs run at once', async () => {
      const now = new Date();
      const runs = await Promise.all([
        sendReminders(server.db, server.app.services.mail, server.config.publicUrl, now),
        sendReminders(server.db, server.app.services.mail, server.config.publicUrl, now),
      ]);
      expect(runs.reduce((a, r) => a + r.reminded, 0)).toBe(1);
      await sendReminders(server.db, server.app.services.mail, server.config.publicUrl, now);
      const mails = await server.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.to, asha.email), eq(outbox.kind, 'certificate-expiry')));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Your certificate “Cloud safety” expires soon');
      const [expiry] = await server.db
        .select()
        .from(awardExpiries)
        .where(eq(awardExpiries.awardId, linkOf.get(asha.id)!));
      expect(expiry!.remindedAt).not.toBeNull();
      expect(mails[0]!.text).toContain(`/test/${expiry!.renewalLinkId}`);
      expect(mails[0]!.text).toContain(`is valid until ${formatDate(validUntil, 'UTC')}.`);
      // issue 31: in the learner's own language, the date as it writes it
      await server.db.update(users).set({ language: 'es' }).where(eq(users.id, asha.id));
      await server.db
        .update(awardExpiries)
        .set({ remindedAt: null })
        .where(eq(awardExpiries.awardId, linkOf.get(asha.id)!));
      await sendReminders(server.db, server.app.services.mail, server.config.publicUrl, now);
      await server.db.update(users).set({ language: 'en' }).where(eq(users.id, asha.id));
      const spanish = await server.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.to, asha.email), eq(outbox.kind, 'certificate-expiry')));
      const mail = spanish.find((m) => m.id !== mails[0]!.id)!;
      expect(mail.subject).toBe('Tu certificado «Cloud safety» caduca pronto');
      expect(mail.text).toContain(`es válido hasta el ${formatDate(validUntil, 'UTC', 'es')}.`);
      expect(mail.text).toContain(`Haz aquí la prueba de renovación`);
      expect(mail.text).toContain(`/test/${expiry!.renewalLinkId}`);
      // Ravi's certificate has no end: nothing for him
      expect(
        await server.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.to, ravi.email), eq(outbox.kind, 'certificate-expiry'))),
      ).toHaveLength(0);
    });

    it('renews: a new certificate from the old one’s end, and both pages show the history', async () => {
      const oldId = linkOf.get(asha.id)!;
      const renewal = await ok('POST', `/certificate/${oldId}/renew`, asha);
      const [expiry] = await server.db.select().from(awardExpiries).where(eq(awardExpiries.awardId, oldId));
      expect(renewal.testLinkId).toBe(expiry!.renewalLinkId);
      await pass(renewal.testLinkId, asha);
      await foldJob(server.db, new Date());
      const fresh = await info(renewal.testLinkId, asha);
      const expected = new Date(validUntil);
      expected.setUTCFullYear(expected.getUTCFullYear() + 1);
      expect(fresh.validity.validUntil).toBe(expected.toISOString());
      expect(fresh.validity.history.map((h: Json) => h.awardId)).toEqual([oldId, renewal.testLinkId]);
      const old = await info(oldId, asha);
      expect(old.validity.renewedBy).toBe(renewal.testLinkId);
      expect(old.validity.renewal).toBeNull();
      const again = await call('POST', `/certificate/${oldId}/renew`, asha);
      expect(again.status).toBe(409);
      expect(again.body.errorCode).toBe('ALREADY_RENEWED');
      // the new certificate is a year away: no reminder for it
      expect(
        (await sendReminders(server.db, server.app.services.mail, server.config.publicUrl, new Date()))
          .reminded,
      ).toBe(0);
    });
  });

  it('records the platform’s subject-test period once, and a change from when a server starts with it', async () => {
    const rows = () =>
      server.db.select().from(awardValidityPeriods).where(eq(awardValidityPeriods.testKey, SUBJECT_TESTS));
    expect((await rows()).map((r) => r.months)).toEqual([12]);
    const same = await server.anotherProcess({ SUBJECT_TEST_VALIDITY_MONTHS: '12' });
    await same.close();
    expect(await rows()).toHaveLength(1);
    const changed = await server.anotherProcess({ SUBJECT_TEST_VALIDITY_MONTHS: '24' });
    await changed.close();
    expect((await rows()).map((r) => r.months)).toEqual([12, 24]);
  });
});

describe('the end-to-end shortcuts', () => {
  it('exist only under NODE_ENV=test, and only for the assessment’s tenant or the award’s learner', async () => {
    const other = await api.person('TENANT', 'Otto Other');
    const some = '00000000-0000-4000-8000-000000000000';
    expect((await call('PUT', `/test-support/assessment/${some}/open`, other)).status).toBe(404);
    expect(
      (await call('PUT', '/test-support/certificate/NoSuchLink_0123456789/age?days=3', other)).status,
    ).toBe(404);
    expect(
      (await call('PUT', '/test-support/certificate/NoSuchLink_0123456789/age?days=0', other)).status,
    ).toBe(400);
    const dev = await new TestServer({ env: { NODE_ENV: 'development' } }).start();
    try {
      const res = await dev.request('PUT', `/api/test-support/assessment/${some}/open`);
      expect(res.status).toBe(404);
      expect(dev.config.env).toBe('development');
    } finally {
      await dev.close();
    }
  }, 60_000);
});
