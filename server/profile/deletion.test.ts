import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { setupServer } from '../test/helper';
import { purgeDeletedAccounts } from './deletion-job';

const server = setupServer();

const DAY = 86_400_000;
const quietLog = { info: () => {}, warn: () => {} };
const requestDeletion = (userId: string, token: string, deleteReason = 'Not useful') =>
  server.put(`/api/user/delete/${userId}`, { deleteReason, isDeleted: true }, { token });

describe('deleting my account', () => {
  it('schedules the deletion and ends every session at once', async () => {
    const learner = await server.signedIn('USER', { profile: true });
    const extension = await server.get('/api/login/socket-token', {
      ...learner.auth,
      query: { device: 'CHROME_EXTENSION' },
    });

    const res = await requestDeletion(learner.user._id, learner.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      _id: learner.user._id,
      isDeleted: true,
      deleteReason: 'Not useful',
    });

    // the access token stops working, and no refresh token of any device works
    const me = await server.get('/api/user/me', learner.auth);
    expect(me.status).toBe(401);
    expect(me.body.errorCode).toBe('USER_DELETED');
    const web = await server.post('/api/login/refresh', {
      refreshToken: learner.refreshToken,
      device: 'WEB_APP',
    });
    expect(web.status).toBe(401);
    const ext = await server.post('/api/login/refresh', {
      refreshToken: extension.body.data.extensionRefreshToken,
      device: 'CHROME_EXTENSION',
    });
    expect(ext.status).toBe(401);
  });

  it("refuses to delete someone else's account", async () => {
    const victim = await server.signedIn('USER');
    const other = await server.signedIn('USER');
    const res = await requestDeletion(victim.user._id, other.token);
    expect(res.status).toBe(403);
    expect((await server.get('/api/user/me', victim.auth)).body.data.isDeleted).toBe(false);
  });

  it('needs a reason and a valid id, naming the field', async () => {
    const learner = await server.signedIn('USER');
    const noReason = await requestDeletion(learner.user._id, learner.token, '  ');
    expect(noReason.status).toBe(400);
    expect(noReason.body.field).toBe('deleteReason');
    const badId = await requestDeletion('not-a-uuid', learner.token);
    expect(badId.status).toBe(400);
    expect(badId.body.field).toBe('userId');
    expect((await server.get('/api/user/me', learner.auth)).body.data.isDeleted).toBe(false);
  });

  it('is for learners: a mentor is not permitted', async () => {
    const mentor = await server.signedIn('TENANT');
    const res = await requestDeletion(mentor.user._id, mentor.token);
    expect(res.status).toBe(403);
  });

  it('is cancelled by signing in again within the grace period', async () => {
    const learner = await server.signedIn('USER', { profile: true, name: 'Returning Person' });
    await requestDeletion(learner.user._id, learner.token);

    const back = await server.signIn(learner.account);
    expect(back.status).toBe(200);
    expect(back.body.data.deletionCanceled).toBe(true);
    expect(back.body.data.user).toMatchObject({
      _id: learner.user._id,
      isDeleted: false,
      deleteReason: null,
      name: 'Returning Person',
    });
    expect((await server.get('/api/user/me', { token: back.body.data.token })).status).toBe(200);

    // a later sign-in is an ordinary one
    expect((await server.signIn(learner.account)).body.data.deletionCanceled).toBe(false);
  });
});

describe('the deletion job', () => {
  it('deletes accounts 90 days after the request, with their identity account, and keeps newer ones', async () => {
    const old = await server.signedIn('USER', { profile: true });
    const recent = await server.signedIn('USER', { profile: true });
    const kept = await server.signedIn('USER');
    await requestDeletion(old.user._id, old.token);
    await requestDeletion(recent.user._id, recent.token);
    // the first request was made 91 days ago
    await server.db
      .update(users)
      .set({ deletionRequestedAt: new Date(Date.now() - 91 * DAY) })
      .where(eq(users.id, old.user._id));

    const purged = await purgeDeletedAccounts(server.db, server.app.services.identity, 90, quietLog);
    expect(purged).toBe(1);

    const rows = await server.db.select({ id: users.id }).from(users);
    const ids = rows.map((r) => r.id);
    expect(ids).not.toContain(old.user._id);
    expect(ids).toContain(recent.user._id);
    expect(ids).toContain(kept.user._id);
    expect(await server.emulator.lookup(old.account.uid)).toBeNull();
    expect(await server.emulator.lookup(recent.account.uid)).not.toBeNull();

    // the deleted person is a stranger now
    const again = await server.post('/api/user/check-email-exist', { email: old.account.email });
    expect(again.body.data.isExist).toBe(false);
  });

  it('does nothing before the grace period is over', async () => {
    const learner = await server.signedIn('USER');
    await requestDeletion(learner.user._id, learner.token);
    const now = new Date(Date.now() + 89 * DAY);
    await purgeDeletedAccounts(server.db, server.app.services.identity, 90, quietLog, now);
    const [row] = await server.db.select().from(users).where(eq(users.id, learner.user._id));
    expect(row?.isDeleted).toBe(true);
  });
});
