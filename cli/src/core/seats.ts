/**
 * Learner seats through the tenant calls, without any UI: listing them all, finding one by e-mail, checking
 * a roster at once (one call per 1,000 addresses), and adding, removing and inviting one learner, each
 * answer turned into an outcome a script can rely on. Adding and inviting are one call per learner (the
 * server decides each under its lock on the tenant's seats); the bulk commands run them with bounded
 * concurrency, for the addresses the roster's check says they are for.
 */
import { ApiError, type Client } from '@shared/client/client';
import { runPool } from '@shared/client/pool';
import { tenantSubscriptionInfo } from '@shared/contract/billing';
import { tenantInviteUser } from '@shared/contract/invitations';
import { config } from '@shared/contract/system';
import {
  tenantAddUserV2,
  tenantBeforeCheckAddUsers,
  tenantRemoveUser,
  tenantUserInfo,
  tenantUsersList,
} from '@shared/contract/tenant';
import type { BeforeCheckEntry, SeatCounts, TenantUserEntry } from '@shared/schemas/tenant';
import type { z } from 'zod';
import { identityUrl } from './login';

export type Seat = z.infer<typeof TenantUserEntry>;

/** The most seats one page of GET /tenant/users/list holds. */
export const SEAT_PAGE = 15;

/** Every seat (optionally those matching a search), reading the pages after the first concurrently. */
export async function listAllSeats(
  client: Client,
  options: { searchText?: string; concurrency: number; signal?: AbortSignal },
): Promise<{ seats: Seat[]; total: number }> {
  const page = async (n: number) =>
    (
      await client.call(tenantUsersList, {
        query: {
          page: n,
          limit: SEAT_PAGE,
          ...(options.searchText ? { searchText: options.searchText } : {}),
        },
        signal: options.signal,
      })
    ).data;
  const first = await page(1);
  const pages = Math.ceil(first.totalUserCount / SEAT_PAGE);
  const rest = Array.from({ length: Math.max(0, pages - 1) }, (_, i) => i + 2);
  const result = await runPool(rest, page, {
    concurrency: options.concurrency,
    signal: options.signal,
    isFatal: () => true,
  });
  if (result.fatal) throw result.fatal;
  const seats = [...first.tenantUserList];
  for (const outcome of result.outcomes) if (outcome?.ok) seats.push(...outcome.value.tenantUserList);
  // a seat added while paging could appear twice
  const unique = [...new Map(seats.map((s) => [s._id, s])).values()];
  return { seats: unique, total: first.totalUserCount };
}

/** The seat of the learner with this e-mail address, if they are one of the tenant's. */
export async function findSeat(client: Client, email: string, signal?: AbortSignal): Promise<Seat | null> {
  const { data } = await client.call(tenantUsersList, {
    query: { searchText: email, limit: SEAT_PAGE },
    signal,
  });
  return data.tenantUserList.find((s) => s.learnerId.email.toLowerCase() === email.toLowerCase()) ?? null;
}

/** A learner of the tenant, as the seat commands name them. */
export interface SeatHolder {
  learnerId: string;
  email: string;
  name: string | null;
  isDisabled: boolean;
}

/** The learner an e-mail address or learner id names, if they are one of the tenant's (else null). */
export async function findSeatHolder(
  client: Client,
  person: { kind: 'email'; email: string } | { kind: 'id'; id: string },
  signal?: AbortSignal,
): Promise<SeatHolder | null> {
  if (person.kind === 'email') {
    const seat = await findSeat(client, person.email, signal);
    return seat
      ? {
          learnerId: seat.learnerId._id,
          email: seat.learnerId.email,
          name: seat.learnerId.name,
          isDisabled: seat.isDisabled,
        }
      : null;
  }
  try {
    const { data } = await client.call(tenantUserInfo, { params: { id: person.id }, signal });
    return { learnerId: data._id, email: data.email, name: data.name, isDisabled: data.isDisabled };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export async function subscriptionInfo(client: Client, signal?: AbortSignal) {
  return (await client.call(tenantSubscriptionInfo, { signal })).data;
}

/** What adding one learner came to. */
export type AddOutcome =
  | { kind: 'added'; learnerId: string; name: string | null }
  | { kind: 'already'; message: string }
  | { kind: 'notFound'; mayInvite: boolean; message: string }
  | {
      kind: 'payment';
      outcome: string;
      message: string;
      /** The seats the tenant would hold with this learner (the checkout's quantity). */
      quantity: number;
      /** The seats to buy, beyond those held now, to add this learner. */
      seatsNeeded: number;
    };

const isDuplicate = (err: unknown) =>
  err instanceof ApiError && err.status === 409 && String(err.code) === '11000';
const isEmailNotFound = (err: unknown) =>
  err instanceof ApiError &&
  err.status === 404 &&
  (err.errorCode === 'EMAIL_NOT_FOUND' || err.message === 'Email Not Found');
const mayInvite = (err: ApiError) => (err.body as { isAllowToInvite?: boolean }).isAllowToInvite === true;

/** POST /tenant/users/add-user-v2 for one address. Other failures are thrown. */
export async function addSeat(client: Client, email: string, signal?: AbortSignal): Promise<AddOutcome> {
  try {
    const res = await client.call(tenantAddUserV2, { body: { email }, signal });
    const { data } = res;
    if (data.outcome === 'ADDED')
      return { kind: 'added', learnerId: data.learnerId, name: data.user?.learnerId.name ?? null };
    return {
      kind: 'payment',
      outcome: data.outcome,
      message: res.message ?? data.outcome,
      quantity: data.quantity,
      seatsNeeded: data.seatsNeeded,
    };
  } catch (err) {
    if (isDuplicate(err)) return { kind: 'already', message: (err as ApiError).message };
    if (isEmailNotFound(err))
      return { kind: 'notFound', mayInvite: mayInvite(err as ApiError), message: (err as ApiError).message };
    throw err;
  }
}

/** What the check before adding says of an address (it writes nothing). */
export type CheckOutcome =
  | { kind: 'wouldAdd'; learnerId: string; name: string | null }
  | { kind: 'already'; message: string }
  | { kind: 'notFound'; mayInvite: boolean; message: string };

/** The server's words for a seat of the tenant's already (code 11000) and for no learner account. */
export const ALREADY_ASSIGNED_MESSAGE = 'Email Already Assigned For You';
export const EMAIL_NOT_FOUND_MESSAGE = 'Email Not Found';

/** What the roster's check said of one address, and the seats when it ran. */
export type RosterEntry = z.infer<typeof BeforeCheckEntry>;
export type Seats = z.infer<typeof SeatCounts>;

/** The addresses one check of a roster takes (the server's CHECK_MANY_MAX). */
export const ROSTER_BATCH = 1000;

/**
 * Checks every address of a roster with the server (POST /tenant/users/before-check-add-users, 1,000 a
 * call, `concurrency` calls at a time): which are learner accounts to add, which are seats already, which
 * have no learner account (and whether they can be invited). Writes nothing. `seats` are the counts of the
 * first answer: the allowance and what uses it before anything is added.
 */
export async function checkRoster(
  client: Client,
  emails: readonly string[],
  options: { concurrency: number; signal?: AbortSignal },
): Promise<{ entries: Map<string, RosterEntry>; seats: Seats }> {
  const batches = Array.from({ length: Math.ceil(emails.length / ROSTER_BATCH) }, (_, i) =>
    emails.slice(i * ROSTER_BATCH, (i + 1) * ROSTER_BATCH),
  );
  const result = await runPool(
    batches,
    async (batch) =>
      (await client.call(tenantBeforeCheckAddUsers, { body: { emails: batch }, signal: options.signal }))
        .data,
    { concurrency: Math.min(options.concurrency, 4), signal: options.signal, isFatal: () => true },
  );
  if (result.fatal) throw result.fatal;
  const entries = new Map<string, RosterEntry>();
  for (const outcome of result.outcomes)
    if (outcome?.ok) for (const entry of outcome.value.results) entries.set(entry.email, entry);
  const first = result.outcomes[0];
  const seats = first?.ok ? first.value.seats : { allowance: 0, active: 0, pending: 0 };
  return { entries, seats };
}

/** Seats free now: the allowance less the seats held and the pending invitations. */
export const freeSeats = (seats: Seats) => Math.max(0, seats.allowance - seats.active - seats.pending);

/** The seat counts of GET /tenant/subscription/info. */
export const seatsOf = (info: { totalQuantity: number; seatCount: number; pendingInvitations: number }) => ({
  allowance: info.totalQuantity,
  active: info.seatCount,
  pending: info.pendingInvitations,
});

export type RemoveOutcome = { kind: 'removed' } | { kind: 'disabled'; accessUntil: string | null };

/**
 * DELETE /tenant/users/remove-user/{learnerId}: removed at once, or (subscribed) disabled until the end of
 * the billing cycle. A learner who is not the tenant's is thrown (404).
 */
export async function removeSeat(
  client: Client,
  learnerId: string,
  signal?: AbortSignal,
): Promise<RemoveOutcome> {
  const { data } = await client.call(tenantRemoveUser, { params: { learnerId }, signal });
  return data.removed ? { kind: 'removed' } : { kind: 'disabled', accessUntil: data.accessUntil };
}

/** The identity service's refusal of the invitation e-mail. */
export class InviteMailError extends Error {
  constructor(
    readonly email: string,
    readonly reason: string,
  ) {
    super(
      'Unfortunately, it looks like the email was not sent to the invited user. We will look into the issue and try to resend the invitation as soon as possible.',
    );
    this.name = 'InviteMailError';
  }
}

export type InviteOutcome = { kind: 'invited'; expiresAt: string; continueUrl: string };

/**
 * Invites one address: records the invitation (POST /tenant/users/invite-user), then asks the identity
 * service the server names (GET /api/config) to send the e-mail sign-in link with the invitation's return
 * address, as the portal's Firebase SDK does (accounts:sendOobCode, requestType EMAIL_SIGNIN).
 */
export async function inviteSeat(
  client: Client,
  email: string,
  deps: {
    fetch: typeof globalThis.fetch;
    firebase: { apiKey: string; emulatorHost: string | null };
    signal?: AbortSignal;
  },
): Promise<InviteOutcome> {
  const { data } = await client.call(tenantInviteUser, { body: { email }, signal: deps.signal });
  let res: Response;
  try {
    res = await deps.fetch(identityUrl(deps.firebase, 'sendOobCode'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        requestType: 'EMAIL_SIGNIN',
        email: data.email,
        continueUrl: data.continueUrl,
        canHandleCodeInApp: true,
        clientType: 'CLIENT_TYPE_WEB',
      }),
      signal: deps.signal,
    });
  } catch (err) {
    if (deps.signal?.aborted) throw err;
    throw new InviteMailError(email, `the identity service could not be reached (${(err as Error).message})`);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
    throw new InviteMailError(email, body.error?.message ?? `HTTP ${res.status}`);
  }
  return { kind: 'invited', expiresAt: data.expiresAt, continueUrl: data.continueUrl };
}

/** The identity service settings the server publishes (for invitations). */
export async function identitySettings(client: Client, signal?: AbortSignal) {
  return (await client.call(config, { signal })).data.firebase;
}

/**
 * What a bulk seat command says when every seat is taken: that it stopped (and how many it did not attempt),
 * and how many seats to buy for the `left` it could not do — with `waymark seats buy` or the portal's Pay Now.
 */
export function everySeatTaken(o: {
  notAttempted: number;
  toBuy: number;
  left: number;
  verb: string;
  portal: string;
}) {
  const { notAttempted, toBuy, portal } = o;
  return {
    lines: [
      notAttempted
        ? `Stopped: every seat is taken, so ${notAttempted} more ${notAttempted === 1 ? 'was' : 'were'} not attempted.`
        : 'Every seat is taken.',
      `Buy ${toBuy} seat${toBuy === 1 ? '' : 's'} for the ${o.left} not ${o.verb}: waymark seats buy ${toBuy} (or Pay Now in the portal: ${portal}), then run this again.`,
    ],
    fields: { seatsToBuy: toBuy, checkout: `waymark seats buy ${toBuy}`, portal },
  };
}

/**
 * What the summary of `seats add` / `seats import` says of the addresses with no account: they were not
 * added (they have none), they can be invited, and each invitation keeps a seat for 7 days — so inviting
 * them takes `seatsToBuy` seats beyond the `alsoBuying` the learners need (0: there is room).
 */
export function inviteAdvice(o: { emails: readonly string[]; seatsToBuy: number; alsoBuying: number }) {
  const n = o.emails.length;
  if (!n) return { lines: [] as string[], fields: {} };
  const command = `waymark seats invite ${o.emails.slice(0, 3).join(' ')}${n > 3 ? ' …' : ''}`;
  const seats = `${o.seatsToBuy} seat${o.seatsToBuy === 1 ? '' : 's'}`;
  const cost = o.seatsToBuy
    ? `: that takes ${seats} more${o.alsoBuying ? ` than the ${o.alsoBuying} above (waymark seats buy ${o.alsoBuying + o.seatsToBuy} for both)` : ` (waymark seats buy ${o.seatsToBuy})`}`
    : ', and there is room for them';
  return {
    lines: [
      `${n === 1 ? 'One address has' : `${n} addresses have`} no account, so ${n === 1 ? 'it takes' : 'they take'} no seat here. To invite ${n === 1 ? 'it' : 'them'}: ${command} — each invitation keeps a seat for 7 days${cost}.`,
    ],
    fields: { invitable: n, seatsToInvite: o.seatsToBuy },
  };
}
