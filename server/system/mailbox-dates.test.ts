/**
 * The local mailbox (GET /dev/mailbox, no SMTP): the identity emulator's mails carry no time, so each is
 * dated when a server first lists it, in the database — a mail sent later is dated later, and listing
 * again never moves a date.
 */
import { describe, expect, it } from 'vitest';
import { emulatorApi, setupServer } from '../test/helper';

interface Entry {
  to: string;
  subject: string;
  createdAt: string;
  source: 'outbox' | 'identity';
}

describe('the local mailbox', () => {
  const server = setupServer();
  const emulator = emulatorApi();
  const list = async () => (await server.request<{ data: Entry[] }>('GET', '/api/dev/mailbox')).body.data;
  const of = (entries: Entry[], to: string) => entries.find((e) => e.to === to && e.source === 'identity');

  it('dates each identity mail when it is first listed, and keeps that date', async () => {
    const first = await emulator.createAccount();
    const second = await emulator.createAccount();
    await emulator.sendVerificationEmail(first);
    const before = of(await list(), first.email);
    expect(before).toMatchObject({ subject: 'Verify your e-mail address', source: 'identity' });
    await new Promise((r) => setTimeout(r, 1100));
    await emulator.sendVerificationEmail(second);
    const entries = await list();
    const later = of(entries, second.email)!;
    expect(of(entries, first.email)!.createdAt).toBe(before!.createdAt);
    expect(Date.parse(later.createdAt) - Date.parse(before!.createdAt)).toBeGreaterThanOrEqual(1000);
    // newest first
    expect(entries.indexOf(later)).toBeLessThan(entries.indexOf(of(entries, first.email)!));
  });
});
