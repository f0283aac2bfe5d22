import { beforeEach, describe, expect, it, vi } from 'vitest';
import { attemptTokenOf, keepUntilDeadline, newTokenFor, prune, tokenForStart } from './attempt';

const DAY = 24 * 3600_000;

beforeEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the attempt token this browser holds for a test', () => {
  it('is made once for a start, asked again with the same one, and replaced only to continue here', () => {
    expect(attemptTokenOf('link-one-0001')).toBeNull();
    const first = tokenForStart('link-one-0001');
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenForStart('link-one-0001')).toBe(first);
    expect(attemptTokenOf('link-one-0001')).toBe(first);
    // another test has its own
    expect(tokenForStart('link-two-0002')).not.toBe(first);
    const moved = newTokenFor('link-one-0001');
    expect(moved).not.toBe(first);
    expect(attemptTokenOf('link-one-0001')).toBe(moved);
  });

  it('is dropped a day after the deadline, or a week after a start that never said it', () => {
    const now = Date.now();
    tokenForStart('link-kept-001');
    keepUntilDeadline('link-kept-001', new Date(now + 3600_000).toISOString());
    tokenForStart('link-over-001');
    keepUntilDeadline('link-over-001', new Date(now - DAY - 60_000).toISOString());
    tokenForStart('link-untold-1');
    localStorage.setItem('someone.else', 'theirs');
    prune(now);
    expect(attemptTokenOf('link-kept-001')).not.toBeNull();
    expect(attemptTokenOf('link-over-001')).toBeNull();
    expect(attemptTokenOf('link-untold-1')).not.toBeNull();
    prune(now + 8 * DAY);
    expect(attemptTokenOf('link-untold-1')).toBeNull();
    expect(localStorage.getItem('someone.else')).toBe('theirs');
  });

  it('lives as long as the page where local storage refuses it', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    const token = tokenForStart('link-full-001');
    expect(attemptTokenOf('link-full-001')).toBe(token);
  });
});
