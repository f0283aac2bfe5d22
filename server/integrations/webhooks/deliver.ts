/**
 * Sending webhook deliveries (issue 29 item 2; decision 042). A pg-boss job per endpoint with work due
 * (`webhooks-deliver`, server/jobs/jobs.ts) claims a batch of its deliveries, POSTs each — signed per
 * Standard Webhooks, through the outbound guard (server/lib/outbound.ts: public addresses only, the address
 * checked is the one connected to, no redirects, 10 s, the answer's first 2 KB kept) — and records each
 * outcome: DELIVERED on a 2xx, else the next attempt on the retry schedule (server/integrations/core/
 * retries.ts), or FAILED after the last.
 *
 * Exactly once per (event, endpoint) across processes: a delivery is sent only by the worker whose claim
 * moved it to SENDING — one UPDATE over rows locked with SKIP LOCKED, so two workers never claim the same
 * row — and only that claim records its outcome. A worker that dies leaves its claim to expire (the lease,
 * `next_attempt_at` of a SENDING row) and the delivery is claimed again; the receiver tells the two attempts
 * apart by nothing but `webhook-timestamp`: `webhook-id` is the event's. An ordered endpoint gets one
 * delivery at a time, the oldest open one (its `seq`), which holds back the rest until it is delivered or
 * given up.
 *
 * An endpoint that answered 410 Gone, or has failed without a success for three days, is disabled: its
 * waiting deliveries are FAILED (the tenant can redeliver them once it works again), the activity log says
 * so, and the tenant is told by mail.
 */

import { randomUUID } from 'node:crypto';
import type { Translator } from '@shared/i18n/translator';
import { type DeliveryError, deliveryError, deliverySaid } from '@shared/rules/delivery-words';
import { formatDateTime } from '@shared/rules/format-date';
import { lrsSaid } from '@shared/rules/lrs-words';
import { DISABLED_REASONS, RESPONSE_KEPT_BYTES, WEBHOOK_TEST_EVENT } from '@shared/schemas/webhooks';
import { sql } from 'drizzle-orm';
import type { MailService } from '../../adapters/mail';
import type { Db } from '../../db/client';
import { parsedJson, rowsOf } from '../../db/helpers';
import { translatorFor } from '../../lib/i18n';
import { guardedFetch, type OutboundOptions, OutboundRefused } from '../../lib/outbound';
import { recordAudit } from '../core/audit';
import { systemActor } from '../core/principal';
import {
  CLAIM_LEASE_SECONDS,
  FAILING_DAYS,
  MAX_ATTEMPTS,
  nextDelaySeconds,
  retryAfterSeconds,
} from '../core/retries';
import type { SecretBox } from '../core/sealed';
import { webhookHeaders } from './signing';

/** The delivery queue: a job per endpoint with work due (its id as the key: one waiting at most). */
export const WEBHOOKS_QUEUE = 'webhooks-deliver';
/** The deadline of one attempt, connection to last byte. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The largest body sent: an event bigger than this is not sent (none of the catalogue comes near). */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;
/** How much of an answer is kept. */
/** Deliveries of one unordered endpoint claimed and sent together. */
const BATCH = 25;
/** How long one job keeps sending before it leaves the rest to the next. */
const BUDGET_MS = 25_000;

type Log = {
  info: (o: object, m: string) => void;
  warn: (o: object, m: string) => void;
};

export interface WebhookSenderOptions {
  /** The guard's development allowance: plain http to loopback (ignored in production: decision 030). */
  allowLoopbackHttp: boolean;
  /** How names are resolved (tests give their own). */
  resolve?: OutboundOptions['resolve'];
  /** Where the tenant manages its endpoints, for the mail that says one was disabled. */
  publicUrl: string;
}

/** The sealed secrets' context: the row and which of its secrets. */
export const secretContext = (endpointId: string, which: 'secret' | 'previous') =>
  `webhook_endpoints:${endpointId}:${which}`;

interface Claimed {
  id: string;
  endpoint_id: string;
  claim: string;
  attempts: number;
  event_id: string;
  event_type: string;
  /** A test delivery's body. */
  payload: Record<string, unknown> | string | null;
  tenant_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | string | null;
  event_tenant: string | null;
  event_version: number | null;
  event_time: Date | string | null;
  event_payload: Record<string, unknown> | string | null;
}

interface Outcome {
  id: string;
  claim: string;
  status: 'DELIVERED' | 'PENDING' | 'FAILED';
  next: string | null;
  rs: number | null;
  ms: number | null;
  body: string | null;
  err: string | null;
  /** `err` by code, sentence by sentence (shared/rules/delivery-words.ts). */
  parts: DeliveryError['parts'] | null;
  /** The answer said the endpoint is gone (410). */
  gone?: boolean;
}

const iso = (t: Date | string) => (t instanceof Date ? t : new Date(t)).toISOString();

/** Why Waymark disabled an endpoint: it answered 410 Gone, or it failed every delivery for days. */
type DisabledWhy = { reasonCode: 'gone' } | { reasonCode: 'failing'; failingSince: string; days: number };

/** The why in English (the endpoint's disabled reason, the deliveries' error, the mail, the log's line). */
const disabledReason = (why: DisabledWhy) =>
  why.reasonCode === 'gone' ? DISABLED_REASONS.GONE : DISABLED_REASONS.failing(why.failingSince, why.days);
/** The mail that tells the tenant its endpoint was disabled, in `translator`'s language. */
export function disabledMail(
  { t, locale }: Pick<Translator, 't' | 'locale'>,
  owner: { name: string | null },
  input: { url: string; why: DisabledWhy; publicUrl: string },
) {
  const { why } = input;
  return {
    subject: t('mail.webhookDisabled.subject'),
    text: t('mail.webhookDisabled.text', {
      hasName: owner.name ? 'yes' : 'no',
      name: owner.name ?? '',
      url: input.url,
      why: why.reasonCode,
      since: why.reasonCode === 'failing' ? formatDateTime(why.failingSince, 'UTC', locale) : '',
      days: why.reasonCode === 'failing' ? why.days : 0,
      portal: `${input.publicUrl}/portal/integrations/webhooks`,
    }),
  };
}

/** Text PostgreSQL can keep (no NUL). */
const storable = (s: string) => s.replace(/\0/g, '');

/** The body a consumer receives: the event's envelope (shared/contract/events.ts `eventEnvelope`). */
export function envelopeOf(row: {
  event_id: string;
  event_type: string;
  event_version: number;
  event_time: Date | string;
  event_tenant: string;
  event_payload: Record<string, unknown> | string;
}): string {
  return JSON.stringify({
    id: row.event_id,
    type: row.event_type,
    version: row.event_version,
    timestamp: iso(row.event_time),
    tenantId: row.event_tenant,
    data: parsedJson(row.event_payload),
  });
}

export class WebhookSender {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly mail: MailService,
    private readonly log: Log,
    private readonly options: WebhookSenderOptions,
  ) {}

  /** The guard's options for a request to an endpoint. */
  get outbound(): Pick<OutboundOptions, 'allowLoopbackHttp' | 'resolve'> {
    return { allowLoopbackHttp: this.options.allowLoopbackHttp, resolve: this.options.resolve };
  }

  /**
   * The job: sends the endpoint's due deliveries, batch after batch, for up to BUDGET_MS (the next job
   * carries on). Returns how many were delivered and how many failed an attempt.
   */
  async deliverEndpoint(endpointId: string): Promise<{ delivered: number; failed: number }> {
    const until = Date.now() + BUDGET_MS;
    let delivered = 0;
    let failed = 0;
    while (Date.now() < until) {
      const { ordered, rows } = await this.claim(endpointId);
      if (rows.length === 0) break;
      const outcomes = await Promise.all(rows.map((row) => this.attempt(row)));
      await this.record(outcomes);
      delivered += outcomes.filter((o) => o.status === 'DELIVERED').length;
      failed += outcomes.filter((o) => o.status !== 'DELIVERED').length;
      if (!(await this.afterBatch(endpointId, rows[0]!.tenant_id, rows[0]!.url, outcomes))) break;
      // an ordered endpoint's next delivery waits for this one's outcome, recorded above
      if (ordered && outcomes[0]?.status !== 'DELIVERED' && outcomes[0]?.status !== 'FAILED') break;
    }
    return { delivered, failed };
  }

  /**
   * Claims what is due of an active endpoint: a batch (unordered), or its oldest open delivery when that is
   * due (ordered). One statement: the rows are locked as they are picked and moved to SENDING with a fresh
   * claim and the lease as their next attempt, and read with the endpoint and the event.
   */
  async claim(endpointId: string): Promise<{ ordered: boolean; rows: Claimed[] }> {
    const [endpoint] = rowsOf<{ ordered: boolean }>(
      await this.db.execute(
        sql`select ordered from webhook_endpoints where id = ${endpointId} and status = 'ACTIVE'`,
      ),
    );
    if (!endpoint) return { ordered: false, rows: [] };
    const picked = endpoint.ordered
      ? sql`
        select d.id from webhook_deliveries d
        where d.id = (select h.id from webhook_deliveries h
            where h.endpoint_id = ${endpointId} and h.status in ('PENDING', 'SENDING') order by h.seq limit 1)
          and d.status in ('PENDING', 'SENDING') and d.next_attempt_at <= now()
        for update of d`
      : sql`
        select d.id from webhook_deliveries d
        where d.endpoint_id = ${endpointId} and d.status in ('PENDING', 'SENDING') and d.next_attempt_at <= now()
        order by d.next_attempt_at, d.seq limit ${BATCH}
        for update of d skip locked`;
    const rows = rowsOf<Claimed & { seq: number }>(
      await this.db.execute(sql`
        with picked as (${picked}),
        claimed as (
          update webhook_deliveries d
          set status = 'SENDING', attempts = d.attempts + 1, claim = gen_random_uuid(), last_attempt_at = now(),
            next_attempt_at = now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})
          from picked, webhook_endpoints w
          where d.id = picked.id and w.id = d.endpoint_id and w.status = 'ACTIVE'
          returning d.id, d.endpoint_id, d.seq, d.claim, d.attempts, d.event_id, d.event_type, d.payload, d.tenant_id,
            w.url, w.secret, w.previous_secret, w.previous_secret_until
        )
        select c.*, e.tenant_id as event_tenant, e.version as event_version, e.occurred_at as event_time,
          e.payload as event_payload
        from claimed c left join events e on e.id = c.event_id and c.payload is null
        order by c.seq`),
    );
    return { ordered: endpoint.ordered, rows };
  }

  /** One attempt of one claimed delivery: its outcome, never thrown. */
  private async attempt(row: Claimed): Promise<Outcome> {
    const base = { id: row.id, claim: row.claim };
    const given = (err: DeliveryError): Outcome => ({
      ...base,
      status: 'FAILED',
      next: null,
      rs: null,
      ms: null,
      body: null,
      err: err.message,
      parts: err.parts,
    });
    let body: string;
    if (row.payload !== null) body = JSON.stringify(parsedJson(row.payload));
    else if (row.event_payload === null || row.event_time === null || row.event_version === null)
      return given(deliveryError(deliverySaid('deliveries.error.eventGone', {})));
    else if (row.event_tenant !== row.tenant_id)
      // never another tenant's event, whatever a row says
      return given(deliveryError(deliverySaid('deliveries.error.otherTenant', {})));
    else body = envelopeOf({ ...row, event_payload: row.event_payload } as Parameters<typeof envelopeOf>[0]);
    if (Buffer.byteLength(body) > MAX_WEBHOOK_BODY_BYTES)
      return given(
        deliveryError(deliverySaid('deliveries.error.tooLarge', { kb: MAX_WEBHOOK_BODY_BYTES / 1024 })),
      );

    const secrets = [this.secrets.openText(row.secret, secretContext(row.endpoint_id, 'secret'))];
    if (row.previous_secret && row.previous_secret_until && new Date(row.previous_secret_until) > new Date())
      secrets.push(this.secrets.openText(row.previous_secret, secretContext(row.endpoint_id, 'previous')));
    const timestamp = Math.floor(Date.now() / 1000);
    const started = performance.now();
    const later = (
      why: DeliveryError['parts'][number],
      status: number | null,
      answer: string | null,
      retryAfter: number | null,
    ) => {
      const delay = nextDelaySeconds(row.attempts, retryAfter);
      const err =
        delay === null
          ? deliveryError(why, deliverySaid('deliveries.error.givenUp', { attempts: MAX_ATTEMPTS }))
          : deliveryError(why);
      return {
        ...base,
        status: delay === null ? ('FAILED' as const) : ('PENDING' as const),
        next: delay === null ? null : new Date(Date.now() + delay * 1000).toISOString(),
        rs: status,
        ms: Math.round(performance.now() - started),
        body: answer,
        err: err.message,
        parts: err.parts,
      };
    };
    try {
      const res = await guardedFetch(row.url, {
        ...this.outbound,
        method: 'POST',
        headers: webhookHeaders(secrets, row.event_id, timestamp, body),
        body,
        timeoutMs: WEBHOOK_TIMEOUT_MS,
        keepBytes: RESPONSE_KEPT_BYTES,
      });
      const answer = storable(res.body.toString('utf8'));
      if (res.status >= 200 && res.status < 300) {
        return {
          ...base,
          status: 'DELIVERED',
          next: null,
          rs: res.status,
          ms: Math.round(performance.now() - started),
          body: answer,
          err: null,
          parts: null,
        };
      }
      const location = res.headers.location ? String(res.headers.location).slice(0, 300) : null;
      const why =
        res.status < 300 || res.status >= 400
          ? deliverySaid('deliveries.error.answered', { status: res.status })
          : location
            ? deliverySaid('deliveries.error.redirectTo', { status: res.status, location })
            : deliverySaid('deliveries.error.redirect', { status: res.status });
      const outcome = later(why, res.status, answer, retryAfterSeconds(res.headers['retry-after']));
      return res.status === 410 ? { ...outcome, gone: true } : outcome;
    } catch (err) {
      const { code, params } =
        err instanceof OutboundRefused
          ? lrsSaid('xapi.result.refused', { reason: err.message })
          : lrsSaid('xapi.result.noAnswer', { reason: (err as Error).message.slice(0, 500) });
      return later({ code, params }, null, null, null);
    }
  }

  /** Records the outcomes of a batch in one statement; only the claim that sent a delivery records it. */
  private async record(outcomes: Outcome[]): Promise<void> {
    const values = outcomes.map(({ gone: _gone, ...o }) => o);
    await this.db.execute(sql`
      update webhook_deliveries d
      set status = v.status, next_attempt_at = v.next, claim = null, response_status = v.rs,
        response_ms = v.ms, response_body = v.body, last_error = v.err, last_error_parts = v.parts,
        delivered_at = case when v.status = 'DELIVERED' then now() else d.delivered_at end
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
        as v(id uuid, claim uuid, status text, next timestamptz, rs int, ms int, body text, err text, parts jsonb)
      where d.id = v.id and d.claim = v.claim`);
  }

  /**
   * The endpoint's state after a batch: a success clears its failing, a batch with none starts or continues
   * it, and three days of it (or a 410) disable the endpoint. Returns whether it is still active.
   */
  private async afterBatch(
    endpointId: string,
    tenantId: string,
    url: string,
    outcomes: Outcome[],
  ): Promise<boolean> {
    if (outcomes.some((o) => o.gone)) {
      await this.disable(endpointId, tenantId, url, { reasonCode: 'gone' });
      return false;
    }
    if (outcomes.some((o) => o.status === 'DELIVERED')) {
      await this.db.execute(sql`
        update webhook_endpoints set failing_since = null, last_delivered_at = now()
        where id = ${endpointId} and (failing_since is not null or last_delivered_at is null
          or last_delivered_at < now() - interval '1 minute')`);
      return true;
    }
    const [state] = rowsOf<{ since: Date | string }>(
      await this.db.execute(sql`
        update webhook_endpoints set failing_since = coalesce(failing_since, now())
        where id = ${endpointId} returning failing_since as since`),
    );
    if (state && Date.now() - new Date(state.since).getTime() >= FAILING_DAYS * 86_400_000) {
      await this.disable(endpointId, tenantId, url, {
        reasonCode: 'failing',
        failingSince: iso(state.since),
        days: FAILING_DAYS,
      });
      return false;
    }
    return true;
  }

  /**
   * Disables an active endpoint (once: the first to change its status does the rest): its waiting
   * deliveries are FAILED, the activity log records it as Waymark's doing (the why by code, for the
   * portal to say in the reader's language, beside its English), and the tenant is told by mail.
   */
  async disable(endpointId: string, tenantId: string, url: string, why: DisabledWhy): Promise<void> {
    const reason = disabledReason(why);
    const owner = await this.db.transaction(async (tx) => {
      const [row] = rowsOf<{ email: string; name: string | null; language: string | null }>(
        await tx.execute(sql`
          update webhook_endpoints w set status = 'DISABLED', disabled_reason = ${reason}, disabled_at = now(),
            updated_at = now()
          from users u
          where w.id = ${endpointId} and w.status = 'ACTIVE' and u.id = w.tenant_id
          returning u.email, u.name, u.language`),
      );
      if (!row) return null;
      const failed = deliveryError(
        why.reasonCode === 'gone'
          ? deliverySaid('deliveries.error.disabledGone', {})
          : deliverySaid('deliveries.error.disabledFailing', { since: why.failingSince, days: why.days }),
      );
      await tx.execute(sql`
        update webhook_deliveries set status = 'FAILED', next_attempt_at = null, claim = null,
          last_error = ${failed.message}, last_error_parts = ${JSON.stringify(failed.parts)}::jsonb
        where endpoint_id = ${endpointId} and status = 'PENDING'`);
      await recordAudit(tx, systemActor, {
        tenantId,
        action: 'webhook.disabled',
        target: { kind: 'webhookEndpoint', id: endpointId },
        summary: `Webhook endpoint ${url} disabled by Waymark: ${reason}`,
        details: { url, reason, ...why },
      });
      return row;
    });
    if (!owner) return;
    this.log.warn({ endpointId, reason }, 'webhook endpoint disabled');
    await this.mail
      .send({
        to: owner.email,
        // in the tenant's own language (decision 040)
        ...disabledMail(translatorFor(owner.language), owner, {
          url,
          why,
          publicUrl: this.options.publicUrl,
        }),
        kind: 'webhook-disabled',
      })
      .catch((err: unknown) =>
        this.log.warn({ err, endpointId }, 'the disabled endpoint’s mail was not sent'),
      );
  }
}

/**
 * The active endpoints with a delivery due now (an ordered one: its oldest open delivery is due): what the
 * wake-up sends a job for. One probe of the due index per active endpoint.
 */
export async function endpointsDue(db: Db): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select w.id from webhook_endpoints w
      where w.status = 'ACTIVE' and case when w.ordered then exists (
          select 1 from (select h.next_attempt_at from webhook_deliveries h
            where h.endpoint_id = w.id and h.status in ('PENDING', 'SENDING') order by h.seq limit 1) head
          where head.next_attempt_at <= now())
        else exists (select 1 from webhook_deliveries d
          where d.endpoint_id = w.id and d.status in ('PENDING', 'SENDING') and d.next_attempt_at <= now())
        end`),
  );
  return rows.map((r) => r.id);
}

/** Deletes finished deliveries (DELIVERED, FAILED) older than `days`; returns how many went. */
export async function pruneDeliveries(db: Db, days: number): Promise<number> {
  const [row] = rowsOf<{ n: string | number }>(
    await db.execute(sql`
      with gone as (
        delete from webhook_deliveries
        where created_at < now() - make_interval(days => ${days}) and status in ('DELIVERED', 'FAILED')
        returning 1
      ) select count(*) as n from gone`),
  );
  return Number(row?.n ?? 0);
}

/** A test delivery's body: the envelope of a `webhook.test` event, its id its own. */
export function testEnvelope(tenantId: string, endpointId: string, now: Date) {
  const id = randomUUID();
  return {
    id,
    body: {
      id,
      type: WEBHOOK_TEST_EVENT,
      version: 1,
      timestamp: now.toISOString(),
      tenantId,
      data: {
        message: 'This is a test event from Waymark: your endpoint receives and verifies events.',
        endpointId,
        requestedAt: now.toISOString(),
      },
    },
  };
}
