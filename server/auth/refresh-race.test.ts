/**
 * Refresh-token reuse under concurrency: however simultaneous refreshes of one token interleave on the
 * database, at most one rotates it and one more is taken as a lost answer's retry (decision 054), and reuse ends the whole session — every refresh token and every access
 * token the family ever had, including the one a winner was just given. Runs on PGlite and on PostgreSQL
 * (where requests really run side by side on several connections).
 */
import { describe, expect, it } from 'vitest';
import { type Json, type Reply, setupServer } from '../test/helper';

const server = setupServer();
const TRIALS = 8;

const refresh = (refreshToken: string) =>
  server.post('/api/login/refresh', { refreshToken, device: 'WEB_APP' });

/** Everything the family handed out during the race must be dead afterwards. */
async function expectFamilyDead(replies: Reply<Json>[], trial: number) {
  for (const res of replies.filter((r) => r.status === 200)) {
    const again = await refresh(res.body.data.refreshToken);
    expect(again.status, `trial ${trial}: the winner's new refresh token`).toBe(401);
    const me = await server.get('/api/user/me', { token: res.body.data.token });
    expect(me.status, `trial ${trial}: the winner's new access token`).toBe(401);
  }
}

describe('six simultaneous refreshes with one token', () => {
  it('rotate it at most twice (a lost answer retried once), and reuse revokes the whole family, whatever the interleaving', async () => {
    for (let trial = 1; trial <= TRIALS; trial++) {
      const person = await server.signedIn('USER');
      const replies = await Promise.all(Array.from({ length: 6 }, () => refresh(person.refreshToken)));
      const statuses = replies.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200).length, `trial ${trial}: ${statuses}`).toBeLessThanOrEqual(2);
      for (const r of replies.filter((r) => r.status !== 200)) {
        expect(r.status).toBe(401);
        expect(['REFRESH_REUSED', 'REFRESH_REVOKED']).toContain(r.body.errorCode);
      }
      await expectFamilyDead(replies, trial);
      // the person's original access token belongs to the same session
      expect((await server.get('/api/user/me', { token: person.token })).status).toBe(401);
    }
  }, 120_000);

  it('a replayed old token racing the rotation of the newest one still ends the family', async () => {
    for (let trial = 1; trial <= TRIALS; trial++) {
      const person = await server.signedIn('USER');
      const first = await refresh(person.refreshToken);
      expect(first.status).toBe(200);
      const newest = first.body.data.refreshToken as string;
      // the thief replays the stolen, already rotated token while the rightful owner refreshes
      const replies = await Promise.all([
        refresh(person.refreshToken),
        refresh(newest),
        refresh(person.refreshToken),
        refresh(newest),
      ]);
      await expectFamilyDead(replies, trial);
      expect((await refresh(newest)).status).toBe(401);
    }
  }, 120_000);
});
