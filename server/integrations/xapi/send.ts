/**
 * Sending statements to a tenant's learning record store (issue 29 item 3; decision 042). A pg-boss job per
 * tenant with entries due (`xapi-send`, server/jobs/jobs.ts) claims a batch of its queue — the same claim
 * as the webhooks' (server/integrations/webhooks/deliver.ts: one UPDATE over rows locked with SKIP LOCKED,
 * a lease, only the claim records the outcome) —, turns each entry's event into its statements the first
 * time (kept: a re-send is the same statements, the same ids) and POSTs them together to
 * `{endpoint}statements` per xAPI 1.0.3: `X-Experience-API-Version: 1.0.3`, HTTP Basic with the tenant's
 * key and secret, through the outbound guard.
 *
 * The LRS answers 200 (the ids) or 204: sent. A batch it refuses as a whole (400, 409: one statement it
 * will not take, or one it already holds — xAPI lets it answer 409 for a statement re-sent) is sent again
 * one entry at a time at once, so one bad entry does not hold back the others; one entry refused on its own
 * with 409 is one the LRS already holds (it stores a statement id once), and counts as sent; a 400 alone
 * fails the entry (sending it again would be refused again: the tenant resends it once the LRS is fixed).
 * Any other failure is retried on the schedule of server/integrations/core/retries.ts. Only jobs send: a
 * failing LRS never slows a learner.
 */

import { type DeliveryError, deliveryError, deliverySaid } from '@shared/rules/delivery-words';
import { lrsSaid } from '@shared/rules/lrs-words';
import { sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import type { Db } from '../../db/client';
import { parsedJson, rowsOf } from '../../db/helpers';
import { guardedFetch, type OutboundOptions, OutboundRefused } from '../../lib/outbound';
import { CLAIM_LEASE_SECONDS, MAX_ATTEMPTS, nextDelaySeconds, retryAfterSeconds } from '../core/retries';
import type { SecretBox } from '../core/sealed';
import { type Statement, type StatementOptions, statementsOf } from './statements';

export const XAPI_QUEUE = 'xapi-send';
/** The xAPI version every request names. */
export const XAPI_VERSION = '1.0.3';
const TIMEOUT_MS = 10_000;
/** Entries (events) claimed and sent in one request. */
const BATCH = 50;
const BUDGET_MS = 25_000;
/** Entries of a refused batch sent alone at the same time. */
const ALONE_CONCURRENCY = 10;

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };

export interface XapiSenderOptions {
  allowLoopbackHttp: boolean;
  resolve?: OutboundOptions['resolve'];
  publicUrl: string;
}

/** The sealed secrets' contexts of a tenant's connection. */
export const xapiSecretContext = (tenantId: string, which: 'secret' | 'pseudonym') =>
  `xapi_connections:${tenantId}:${which}`;

interface Claimed {
  id: string;
  claim: string;
  attempts: number;
  event_id: string;
  event_type: string;
  statements: Statement[] | string | null;
  event_time: Date | string | null;
  event_payload: Record<string, unknown> | string | null;
}

interface Connection {
  endpoint: string;
  username: string;
  secret: string;
  actor_format: 'account' | 'mbox';
  pseudonym_key: string;
}

interface Outcome {
  id: string;
  claim: string;
  status: 'SENT' | 'PENDING' | 'FAILED';
  next: string | null;
  rs: number | null;
  err: string | null;
  /** `err` by code, sentence by sentence (shared/rules/delivery-words.ts). */
  parts: DeliveryError['parts'] | null;
  statements: Statement[] | null;
}

/** The address statements are POSTed to: the endpoint with `statements` after its last slash. */
export const statementsUrl = (endpoint: string) =>
  `${endpoint.endsWith('/') ? endpoint : `${endpoint}/`}statements`;

/** A POST of statements to an LRS: the status, the first 2 KB of the answer, or why there was none. */
export interface LrsAnswer {
  status: number | null;
  body: string;
  retryAfter: number | null;
  error: string | null;
  /** The error's code and what it names (decision 048), beside its English. */
  errorSaid: ReturnType<typeof lrsSaid<'xapi.result.refused' | 'xapi.result.noAnswer'>> | null;
  ms: number;
}

export class XapiSender {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly log: Log,
    private readonly options: XapiSenderOptions,
  ) {}

  get outbound(): Pick<OutboundOptions, 'allowLoopbackHttp' | 'resolve'> {
    return { allowLoopbackHttp: this.options.allowLoopbackHttp, resolve: this.options.resolve };
  }

  get publicUrl() {
    return this.options.publicUrl.replace(/\/+$/, '');
  }

  /** POSTs statements to an LRS; never throws. */
  async post(
    conn: { endpoint: string; username: string; password: string },
    statements: Statement[],
  ): Promise<LrsAnswer> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const res = await guardedFetch(statementsUrl(conn.endpoint), {
        ...this.outbound,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-experience-api-version': XAPI_VERSION,
          authorization: `Basic ${Buffer.from(`${conn.username}:${conn.password}`).toString('base64')}`,
          'user-agent': 'Waymark-xAPI/1.0',
        },
        body: JSON.stringify(statements),
        timeoutMs: TIMEOUT_MS,
        keepBytes: 2048,
      });
      return {
        status: res.status,
        body: res.body.toString('utf8').replace(/\0/g, ''),
        retryAfter: retryAfterSeconds(res.headers['retry-after']),
        error: null,
        errorSaid: null,
        ms: ms(),
      };
    } catch (err) {
      const said =
        err instanceof OutboundRefused
          ? lrsSaid('xapi.result.refused', { reason: err.message })
          : lrsSaid('xapi.result.noAnswer', { reason: (err as Error).message.slice(0, 500) });
      return { status: null, body: '', retryAfter: null, error: said.message, errorSaid: said, ms: ms() };
    }
  }

  /** The job: sends the tenant's due entries, batch after batch, for up to BUDGET_MS. */
  async sendTenant(tenantId: string): Promise<{ sent: number; failed: number }> {
    const until = Date.now() + BUDGET_MS;
    let sent = 0;
    let failed = 0;
    while (Date.now() < until) {
      const claimed = await this.claim(tenantId);
      if (!claimed) break;
      const outcomes = await this.sendBatch(tenantId, claimed.connection, claimed.rows);
      await this.record(tenantId, outcomes);
      sent += outcomes.filter((o) => o.status === 'SENT').length;
      failed += outcomes.filter((o) => o.status !== 'SENT').length;
      if (!outcomes.some((o) => o.status === 'SENT')) break;
    }
    return { sent, failed };
  }

  /** Claims a batch of the tenant's due entries, with the connection and each entry's event. */
  async claim(tenantId: string): Promise<{ connection: Connection; rows: Claimed[] } | null> {
    const [connection] = rowsOf<Connection>(
      await this.db.execute(sql`
        select endpoint, username, secret, actor_format, pseudonym_key from xapi_connections
        where tenant_id = ${tenantId} and enabled`),
    );
    if (!connection) return null;
    const rows = rowsOf<Claimed & { seq: number }>(
      await this.db.execute(sql`
        with picked as (
          select s.id from xapi_statements s
          where s.tenant_id = ${tenantId} and s.status in ('PENDING', 'SENDING') and s.next_attempt_at <= now()
          order by s.seq limit ${BATCH}
          for update of s skip locked
        ),
        claimed as (
          update xapi_statements s
          set status = 'SENDING', attempts = s.attempts + 1, claim = gen_random_uuid(), last_attempt_at = now(),
            next_attempt_at = now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})
          from picked where s.id = picked.id
          returning s.id, s.seq, s.claim, s.attempts, s.event_id, s.event_type, s.statements
        )
        select c.*, e.occurred_at as event_time, e.payload as event_payload
        from claimed c left join events e on e.id = c.event_id and e.tenant_id = ${tenantId}
        order by c.seq`),
    );
    return rows.length ? { connection, rows } : null;
  }

  private statementsOf(row: Claimed, options: StatementOptions): Statement[] | null {
    if (row.statements !== null) return parsedJson(row.statements) as Statement[];
    if (row.event_payload === null || row.event_time === null) return null;
    return statementsOf(
      {
        id: row.event_id,
        type: row.event_type,
        occurredAt: new Date(row.event_time),
        payload: parsedJson(row.event_payload) as Record<string, unknown>,
      },
      options,
    );
  }

  private async sendBatch(tenantId: string, c: Connection, rows: Claimed[]): Promise<Outcome[]> {
    const options: StatementOptions = {
      publicUrl: this.publicUrl,
      actorFormat: c.actor_format,
      pseudonymKey: this.secrets.openText(c.pseudonym_key, xapiSecretContext(tenantId, 'pseudonym')),
    };
    const conn = {
      endpoint: c.endpoint,
      username: c.username,
      password: this.secrets.openText(c.secret, xapiSecretContext(tenantId, 'secret')),
    };
    const outcomes: Outcome[] = [];
    const ready: { row: Claimed; statements: Statement[] }[] = [];
    for (const row of rows) {
      const statements = this.statementsOf(row, options);
      const base = { id: row.id, claim: row.claim, rs: null, next: null };
      if (statements === null) {
        const gone = deliveryError(deliverySaid('deliveries.error.eventGone', {}));
        outcomes.push({ ...base, status: 'FAILED', err: gone.message, parts: gone.parts, statements: null });
      } else if (statements.length === 0)
        outcomes.push({ ...base, status: 'SENT', err: null, parts: null, statements });
      else ready.push({ row, statements });
    }
    if (ready.length === 0) return outcomes;
    await this.keep(ready);
    const answer = await this.post(
      conn,
      ready.flatMap((r) => r.statements),
    );
    if (ready.length > 1 && (answer.status === 400 || answer.status === 409)) {
      // refused as a whole: each on its own, so that one entry does not hold back the others — a few at a
      // time, under a lease renewed to cover them all (else another process would claim them meanwhile)
      await this.renewLease(ready.map((r) => r.row));
      const limit = pLimit(ALONE_CONCURRENCY);
      const alone = await Promise.all(
        ready.map((r) =>
          limit(async () => this.outcomeOf(r.row, r.statements, await this.post(conn, r.statements), true)),
        ),
      );
      return [...outcomes, ...alone];
    }
    for (const r of ready) outcomes.push(this.outcomeOf(r.row, r.statements, answer, ready.length === 1));
    return outcomes;
  }

  /**
   * Keeps the statements built for entries sent for the first time, before they leave: an attempt cut off
   * (the process killed before it recorded the answer) is sent again as the very same statements, whatever
   * changed meanwhile (the actor format chosen, the address).
   */
  private async keep(ready: { row: Claimed; statements: Statement[] }[]): Promise<void> {
    const fresh = ready
      .filter((r) => r.row.statements === null)
      .map((r) => ({ id: r.row.id, claim: r.row.claim, statements: r.statements }));
    if (fresh.length === 0) return;
    await this.db.execute(sql`
      update xapi_statements s set statements = v.statements
      from jsonb_to_recordset(${JSON.stringify(fresh)}::jsonb) as v(id uuid, claim uuid, statements jsonb)
      where s.id = v.id and s.claim = v.claim and s.statements is null`);
  }

  /** Extends the claim on entries to cover sending each of them alone, a few at a time. */
  private async renewLease(rows: Claimed[]): Promise<void> {
    const seconds = Math.ceil(rows.length / ALONE_CONCURRENCY) * (TIMEOUT_MS / 1000) + CLAIM_LEASE_SECONDS;
    await this.db.execute(sql`
      update xapi_statements s set next_attempt_at = now() + make_interval(secs => ${seconds})
      from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, claim: r.claim })))}::jsonb)
        as v(id uuid, claim uuid)
      where s.id = v.id and s.claim = v.claim`);
  }

  private outcomeOf(row: Claimed, statements: Statement[], a: LrsAnswer, alone: boolean): Outcome {
    const base = { id: row.id, claim: row.claim, rs: a.status, statements };
    const said = (e: DeliveryError) => ({ err: e.message, parts: e.parts });
    if (a.status === 200 || a.status === 204)
      return { ...base, status: 'SENT', next: null, err: null, parts: null };
    if (alone && a.status === 409)
      return {
        ...base,
        status: 'SENT',
        next: null,
        ...said(deliveryError(deliverySaid('deliveries.error.lrsHolds', {}))),
      };
    const why = a.errorSaid
      ? { code: a.errorSaid.code, params: a.errorSaid.params }
      : a.body
        ? deliverySaid('deliveries.error.lrsAnsweredBody', {
            status: a.status ?? 0,
            body: a.body.slice(0, 500),
          })
        : deliverySaid('deliveries.error.lrsAnswered', { status: a.status ?? 0 });
    if (alone && a.status === 400)
      return {
        ...base,
        status: 'FAILED',
        next: null,
        ...said(deliveryError(why, deliverySaid('deliveries.error.notResent', {}))),
      };
    const delay = nextDelaySeconds(row.attempts, a.retryAfter);
    return {
      ...base,
      status: delay === null ? 'FAILED' : 'PENDING',
      next: delay === null ? null : new Date(Date.now() + delay * 1000).toISOString(),
      ...said(
        delay === null
          ? deliveryError(why, deliverySaid('deliveries.error.givenUp', { attempts: MAX_ATTEMPTS }))
          : deliveryError(why),
      ),
    };
  }

  /** Records the outcomes (only the claim that sent an entry records it) and the connection's state. */
  private async record(tenantId: string, outcomes: Outcome[]): Promise<void> {
    await this.db.execute(sql`
      update xapi_statements s
      set status = v.status, next_attempt_at = v.next, claim = null, response_status = v.rs, last_error = v.err,
        last_error_parts = v.parts, statements = coalesce(s.statements, v.statements),
        sent_at = case when v.status = 'SENT' then now() else s.sent_at end
      from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb)
        as v(id uuid, claim uuid, status text, next timestamptz, rs int, err text, parts jsonb, statements jsonb)
      where s.id = v.id and s.claim = v.claim`);
    const anySent = outcomes.some((o) => o.status === 'SENT');
    await this.db.execute(
      anySent
        ? sql`update xapi_connections set failing_since = null, last_sent_at = now() where tenant_id = ${tenantId}`
        : sql`update xapi_connections set failing_since = coalesce(failing_since, now()) where tenant_id = ${tenantId}`,
    );
    if (!anySent) this.log.warn({ tenantId }, 'the LRS did not accept statements');
  }
}

/** The tenants with an enabled LRS and entries due now: what the wake-up sends a job for. */
export async function tenantsDue(db: Db): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select c.tenant_id as id from xapi_connections c
      where c.enabled and exists (select 1 from xapi_statements s
        where s.tenant_id = c.tenant_id and s.status in ('PENDING', 'SENDING') and s.next_attempt_at <= now())`),
  );
  return rows.map((r) => r.id);
}

/** Deletes finished entries (SENT, FAILED) older than `days`; returns how many went. */
export async function pruneStatements(db: Db, days: number): Promise<number> {
  const [row] = rowsOf<{ n: string | number }>(
    await db.execute(sql`
      with gone as (
        delete from xapi_statements
        where created_at < now() - make_interval(days => ${days}) and status in ('SENT', 'FAILED')
        returning 1
      ) select count(*) as n from gone`),
  );
  return Number(row?.n ?? 0);
}
