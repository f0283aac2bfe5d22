import { SESSION_KEY as PORTAL_SESSION_KEY } from '@widgets/core/session';
import { describe, expect, it } from 'vitest';
import { hasStoredSession, SESSION_KEY } from './session-client';

describe("the dashboard element's session", () => {
  it("reads the portal's stored session", () => {
    expect(SESSION_KEY).toBe(PORTAL_SESSION_KEY);
    localStorage.removeItem(SESSION_KEY);
    expect(hasStoredSession()).toBe(false);
    localStorage.setItem(SESSION_KEY, JSON.stringify({ token: 'a', refreshToken: 'b', user: {} }));
    expect(hasStoredSession()).toBe(true);
    localStorage.removeItem(SESSION_KEY);
  });
});
