/**
 * The one assembly (server/services.ts): every service is built before any route, and a test replaces any
 * of them through buildApp's `services`. The routes get the replacement — tenant's seat accounting counts the
 * paid seats of the seat plans it was given, not billing's — and the services built from a replaced one use
 * it: mail leaves through the transport given.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { MailMessage, MailTransport } from './adapters/mail';
import { outbox, users } from './db/schema';
import type { SeatPlans } from './tenant/accounting';
import { signedInPerson } from './test/harness';
import { setupServer } from './test/helper';

/** A tenant subscribed to two paid seats, as a plan of our own says (billing knows of no subscription). */
const plans: SeatPlans = {
  now: () => new Date(),
  planOf: async () => ({
    subscribed: true,
    paid: 2,
    periodEnd: new Date(Date.now() + 30 * 86_400_000),
    discounted: false,
  }),
  offerApplied: async () => false,
  shrinkForNextPeriod: async () => {},
};

const delivered: MailMessage[] = [];
const transport: MailTransport = {
  name: 'smtp',
  async deliver(msg) {
    delivered.push(msg);
  },
};

const server = setupServer({
  env: { SUPPORT_EMAIL: 'help@waymark.test' },
  services: { seatPlans: plans, mailTransport: transport },
});

/** A registered learner nobody has added yet. */
async function learner(): Promise<string> {
  const email = `assembly-${randomBytes(5).toString('hex')}@example.com`;
  await server.db
    .insert(users)
    .values({ firebaseUid: randomUUID(), email, role: 'USER', name: 'Seat', emailVerified: true });
  return email;
}

describe('services given to buildApp', () => {
  it('are the ones the routes use: seats are counted with the seat plans given', async () => {
    expect(server.app.services.seatPlans).toBe(plans);
    // billing is still built, from the settings; it is only no longer what seat accounting asks
    expect(server.app.services.billing).not.toBe(plans);
    const tenant = await signedInPerson(server, 'TENANT', { name: 'Assembly Tenant' });
    const outcomes: string[] = [];
    for (let i = 0; i < 13; i++) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/tenant/users/add-user-v2',
        headers: tenant.headers,
        payload: { email: await learner() },
      });
      outcomes.push(res.json().data.outcome);
    }
    // 10 free seats and the 2 paid ones of the plan given; the 13th needs another paid seat
    expect(outcomes).toEqual([...Array(12).fill('ADDED'), 'PAYMENT_REQUIRED']);
  });

  it('are the ones the services built from them use: mail leaves through the transport given', async () => {
    expect(server.app.services.mail.transport).toBe(transport);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/contact-us/send-email',
      payload: {
        name: 'Asha',
        email: 'asha@example.com',
        subject: 'The assembly',
        message: 'Which transport carries this?',
      },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await server.db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(1);
    await server.app.services.mail.deliver(row!.id);
    expect(delivered.map((m) => m.subject)).toContain(row!.subject);
    const [sent] = await server.db.select().from(outbox).where(eq(outbox.id, row!.id));
    expect(sent!.status).toBe('SENT');
  });
});
