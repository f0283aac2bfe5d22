import { afterEach, describe, expect, it } from 'vitest';

const first = { token: 'first-party', refreshToken: 'r1', user: { _id: 'u1', name: 'Own' } };
const launched = { token: 'launched', refreshToken: 'r2', user: { _id: 'u2', name: 'Launched' } };

afterEach(() => localStorage.clear());

describe('a session kept in memory (a page framed by an LMS, decision 045)', () => {
  it("neither reads nor replaces the person's own session in storage", async () => {
    localStorage.setItem('waymark.session', JSON.stringify(first));
    const m = await import('./session');
    m.keepSessionInMemory();
    expect(m.session.peek()).toBeNull();
    expect(m.sessionTokens.get()).toBeNull();
    m.setSession(launched as never);
    expect(m.sessionTokens.get()).toEqual({ token: 'launched', refreshToken: 'r2' });
    m.sessionTokens.update({ token: 'refreshed', refreshToken: 'r3' });
    expect(m.sessionTokens.get()).toEqual({ token: 'refreshed', refreshToken: 'r3' });
    // the first-party session is untouched, and another tab's change of it is not taken up
    expect(JSON.parse(localStorage.getItem('waymark.session')!)).toEqual(first);
    window.dispatchEvent(new StorageEvent('storage', { key: 'waymark.session' }));
    expect(m.session.peek()?.token).toBe('refreshed');
    m.clearSession();
    expect(localStorage.getItem('waymark.session')).not.toBeNull();
  });
});
