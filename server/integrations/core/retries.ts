/**
 * When a delivery that failed is tried again (webhooks and LRS statements; decision 042): Standard Webhooks'
 * example schedule — 5 seconds, 5 minutes, 30 minutes, 2, 5, 10, 14, 20 and 24 hours after each failure,
 * about three days from the first attempt to the tenth and last — with ±10 % jitter, so that deliveries
 * that failed together do not all come back together. An answer's Retry-After (429, 503) is honoured when
 * it asks for longer, up to a day. A delivery in hand is claimed for a lease; a worker that dies leaves it
 * to be claimed again when the lease ends.
 */

import { sql } from 'drizzle-orm';

/** What a delivery or statement entry sent again becomes: due now, its attempts and error forgotten. */
export const sendAgain = () =>
  ({
    status: 'PENDING',
    attempts: 0,
    nextAttemptAt: sql`now()`,
    claim: null,
    lastError: null,
    lastErrorParts: null,
  }) as const;

/** Seconds to wait after the n-th failed attempt (n from 1); after the last, the delivery is given up. */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400] as const;
/** Attempts in all: the first and one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** How long a claim keeps other workers off a delivery in hand: three times the request's deadline. */
export const CLAIM_LEASE_SECONDS = 30;
/** How long an endpoint may fail (no delivery succeeding) before it is disabled. */
export const FAILING_DAYS = 3;

/**
 * The seconds until the next attempt after `attempts` failed ones, or null when it is given up. `random`
 * in [0, 1) (jitter); `retryAfterSeconds`: what the answer asked for.
 */
export function nextDelaySeconds(
  attempts: number,
  retryAfterSeconds: number | null = null,
  random: number = Math.random(),
): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_SECONDS[Math.max(0, attempts - 1)]!;
  const jittered = base * (0.9 + 0.2 * random);
  const asked = retryAfterSeconds !== null ? Math.min(retryAfterSeconds, 86_400) : 0;
  return Math.round(Math.max(jittered, asked) * 1000) / 1000;
}

/** Retry-After as seconds (a number of seconds, or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.round((at - now) / 1000));
}
