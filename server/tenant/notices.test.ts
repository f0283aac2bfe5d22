/**
 * The no-seat notice goes to the mentor in the mentor's own language (issue 31): a Spanish mentor's has no
 * English word of the template; an English mentor's stays as it was.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, users } from '../db/schema';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';
import { noticeNoSeat } from './notices';

for (const backend of BACKENDS) {
  describe(`the no-seat notice on ${backend}`, () => {
    let h: Harness;
    let spanish: Person;
    let english: Person;

    beforeAll(async () => {
      h = await openHarness(backend);
      spanish = await h.tenant('Marta Mentora');
      english = await h.tenant('Mira Mentor');
      await h.db.update(users).set({ language: 'es' }).where(eq(users.id, spanish.id));
    }, 120_000);

    afterAll(async () => {
      await h?.close();
    });

    const noticeOf = async (tenant: Person) => {
      const sent = await noticeNoSeat(h.db, h.app.services.mail, {
        tenantId: tenant.id,
        kind: 'scim',
        who: 'lee@example.com',
        publicUrl: 'https://w.example',
        now: new Date(),
      });
      expect(sent).toBe(true);
      const [mail] = await h.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.to, tenant.email), eq(outbox.kind, 'no-seat')));
      return mail!;
    };

    it('is in Spanish for a Spanish mentor', async () => {
      const mail = await noticeOf(spanish);
      expect(mail.subject).toBe('Un alumno espera una plaza en Waymark');
      expect(mail.text).toContain('Hola Marta Mentora:');
      expect(mail.text).toContain('Tu proveedor de identidad intentó dar de alta a lee@example.com');
      expect(mail.text).not.toMatch(/\b(Hello|seat|identity|provider|Buy|hour)\b/);
    });

    it('is in English for an English mentor, word for word as before', async () => {
      const mail = await noticeOf(english);
      expect(mail.subject).toBe('A learner is waiting for a seat on Waymark');
      expect(mail.text).toBe(
        [
          'Hello Mira Mentor,',
          '',
          'Your identity provider tried to provision lee@example.com, but every seat is taken, so they have no access yet.',
          'Buy more seats (Pay Now on the Users page: https://w.example/portal/users) or free one; your identity provider sends the user again on its next cycle.',
          '',
          'We tell you this at most once an hour.',
        ].join('\n'),
      );
    });
  });
}
