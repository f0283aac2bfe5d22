/**
 * SCIM Users (RFC 7643 §4.1, RFC 7644 §3): the people a tenant's directory provisions, each a learner with a
 * seat while active. Creating one finds or makes the learner's account (`provisionLearner`, the one way
 * every integration makes learners) and gives a seat with the tenant's own seat rules (`addLearner`, as the
 * portal's Add User and `waymark seats add` do); `active: false` and DELETE free the seat with
 * `removeLearner` (at once, or disabled until the billing cycle ends) and keep the account, its history and
 * awards; `active: true` again gives the seat back. Everything one request changes commits together, with
 * its activity-log entries naming the SCIM token — or nothing does. A create takes the tenant's seat lock
 * only inside the seat rule, for its count, last (decision 050): the lock is FOR NO KEY UPDATE, which the
 * key-share locks of the rows written before it (the identity, the SCIM row, the seat) do not conflict
 * with, so creates of one directory run side by side without deadlocking. Changes and deletes take it first.
 */
import { randomUUID } from 'node:crypto';
import type { Translator } from '@shared/i18n/translator';
import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx, type Tx } from '../../db/helpers';
import { users } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { translatorFor, uiLocaleOf } from '../../lib/i18n';
import { lockTenant } from '../../tenant/accounting';
import { noticeNoSeat } from '../../tenant/notices';
import { addLearner, removeLearner } from '../../tenant/seats';
import { cohortMembers, cohorts } from '../../tenant/tables';
import { provisionLearner } from '../core/provisioning';
import { etagOf, SCIM_ISSUER, type ScimContext } from './context';
import { applyPatch, type Doc, type DocShape, normalise, type PatchOperation } from './document';
import { invalidValue, ScimError, scimNotFound, uniqueness } from './errors';
import { filterSql, type Searchable } from './filter';
import { ENTERPRISE_ATTRIBUTES, ENTERPRISE_URN, USER_ATTRIBUTES, USER_URN } from './schemas';
import { scimUsers } from './tables';

export const USER_SHAPE: DocShape = {
  urn: USER_URN,
  attrs: USER_ATTRIBUTES,
  extension: { urn: ENTERPRISE_URN, attrs: ENTERPRISE_ATTRIBUTES },
};

type Row = typeof scimUsers.$inferSelect;

/** The attributes kept in columns; the rest of the document is `attributes`. */
const COLUMNS = ['userName', 'externalId', 'displayName', 'active'] as const;

export function docOf(row: Row): Doc {
  const doc: Doc = { userName: row.userName, active: row.active, ...row.attributes };
  if (row.externalId !== null) doc.externalId = row.externalId;
  if (row.displayName !== null) doc.displayName = row.displayName;
  return doc;
}

/** The SCIM representation of a user, with the cohorts they belong to. */
export function toScimUser(row: Row, groups: { id: string; name: string }[], base: string) {
  const doc = docOf(row);
  const ext = doc[ENTERPRISE_URN];
  return {
    schemas: ext ? [USER_URN, ENTERPRISE_URN] : [USER_URN],
    id: row.id,
    ...doc,
    groups: groups.map((g) => ({
      value: g.id,
      $ref: `${base}/Groups/${g.id}`,
      display: g.name,
      type: 'direct',
    })),
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${base}/Users/${row.id}`,
      version: etagOf(row.version),
    },
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The address of the learner's account: the primary e-mail, else the first, else a userName that is one. */
export function accountEmail(doc: Doc): string {
  const emails = Array.isArray(doc.emails) ? (doc.emails as Doc[]) : [];
  const chosen = emails.find((e) => e.primary === true) ?? emails[0];
  const value = typeof chosen?.value === 'string' ? chosen.value : (doc.userName as string);
  const email = value.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254)
    throw invalidValue(
      'A user needs an e-mail address: emails[primary eq true].value, or a userName that is one',
    );
  return email;
}

/** The learner's name as the directory gives it. */
function nameOf(doc: Doc): string | null {
  const name = (doc.name ?? {}) as Doc;
  const parts = [name.givenName, name.familyName].filter((p) => typeof p === 'string' && p.trim());
  const full =
    (typeof doc.displayName === 'string' && doc.displayName.trim()) ||
    (typeof name.formatted === 'string' && name.formatted.trim()) ||
    parts.join(' ');
  return full ? String(full).slice(0, 200) : null;
}

/** The columns and the rest of a document, checked: a userName is required. */
function split(doc: Doc) {
  const userName = typeof doc.userName === 'string' ? doc.userName.trim() : '';
  if (!userName) throw invalidValue('userName is required');
  if (userName.length > 254) throw invalidValue('userName is longer than 254 characters');
  const attributes: Doc = {};
  for (const [k, v] of Object.entries(doc))
    if (!(COLUMNS as readonly string[]).includes(k)) attributes[k] = v;
  return {
    userName,
    externalId: typeof doc.externalId === 'string' ? doc.externalId : null,
    displayName: typeof doc.displayName === 'string' ? doc.displayName : null,
    active: doc.active !== false,
    attributes,
  };
}

/** A unique violation (userName taken) as SCIM's 409, anything else thrown on. */
async function unique<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const code =
      (err as { code?: string; cause?: { code?: string } }).code ??
      (err as { cause?: { code?: string } }).cause?.code;
    if (code === '23505') throw uniqueness('A user with this userName already exists');
    throw err;
  }
}

/** No seat free: SCIM's answer, and (at most hourly) a mail to the mentor. */
async function noSeat(ctx: ScimContext, who: string, outcome: string): Promise<never> {
  await noticeNoSeat(ctx.db, ctx.mail, {
    tenantId: ctx.tenantId,
    kind: 'scim',
    who,
    publicUrl: ctx.publicUrl,
    now: ctx.plans.now(),
  }).catch(() => false);
  throw new ScimError(
    403,
    `No seat is free for ${who} (${outcome}): buy seats in Waymark (Users, Pay Now), then send the user again.`,
  );
}

/** Gives the learner a seat; an active seat already held is fine. Throws ScimError 403 when none is free. */
async function seat(ctx: ScimContext, tx: Tx, email: string): Promise<{ outcome: string }> {
  try {
    const r = await addLearner(tx, ctx.plans, ctx.tenantId, email, ctx.plans.now(), ctx.actor);
    return { outcome: r.data.outcome };
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 409) return { outcome: 'ALREADY_ASSIGNED' };
    throw err;
  }
}

/** Frees the learner's seat (none held is fine). */
async function unseat(ctx: ScimContext, tx: Tx, learnerId: string) {
  try {
    await removeLearner(tx, ctx.plans, ctx.tenantId, learnerId, ctx.plans.now(), ctx.actor);
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 404) return;
    throw err;
  }
}

class NoSeat extends Error {
  constructor(readonly outcome: string) {
    super(outcome);
  }
}

async function groupsOf(db: Db, tenantId: string, userIds: string[]) {
  const byUser = new Map<string, { id: string; name: string }[]>();
  if (!userIds.length) return byUser;
  const rows = await db
    .select({ learnerId: cohortMembers.learnerId, id: cohorts.id, name: cohorts.name })
    .from(cohortMembers)
    .innerJoin(cohorts, eq(cohorts.id, cohortMembers.cohortId))
    .where(and(eq(cohorts.tenantId, tenantId), inArray(cohortMembers.learnerId, userIds)))
    .orderBy(asc(cohorts.name));
  for (const r of rows) {
    const list = byUser.get(r.learnerId) ?? [];
    list.push({ id: r.id, name: r.name });
    byUser.set(r.learnerId, list);
  }
  return byUser;
}

export async function present(ctx: ScimContext, row: Row) {
  const groups = await groupsOf(ctx.db, ctx.tenantId, [row.userId]);
  return toScimUser(row, groups.get(row.userId) ?? [], ctx.base);
}

/** A user of this tenant's directory, or 404 (another tenant's is as good as missing). */
export async function findUser(db: Db, tenantId: string, id: string, lock = false): Promise<Row> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw scimNotFound('User', id);
  const q = db
    .select()
    .from(scimUsers)
    .where(and(eq(scimUsers.tenantId, tenantId), eq(scimUsers.id, id)))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw scimNotFound('User', id);
  return row;
}

/** POST /Users: the learner found or made, a seat when active, the welcome mail for a new account. */
export async function createUser(ctx: ScimContext, body: unknown): Promise<Row> {
  const doc = normalise(USER_SHAPE, body);
  const cols = split(doc);
  const email = accountEmail(doc);
  const id = randomUUID();
  let made = false;
  try {
    const row = await unique(() =>
      inTx(ctx.db, async (tx) => {
        // no tenant lock up front: the seat rule takes it for its count, last (decision 050), so a directory's
        // creates do the rest side by side; the unique indexes keep userName and the person once per tenant
        const taken = await tx
          .select({ id: scimUsers.id })
          .from(scimUsers)
          .where(
            and(
              eq(scimUsers.tenantId, ctx.tenantId),
              sql`lower(${scimUsers.userName}) = ${cols.userName.toLowerCase()}`,
            ),
          )
          .limit(1);
        if (taken.length) throw uniqueness('A user with this userName already exists');
        const learner = await provisionLearner(tx, {
          tenantId: ctx.tenantId,
          issuer: SCIM_ISSUER,
          subject: cols.externalId ?? `id:${id}`,
          source: 'scim',
          email,
          // the organisation's directory vouches for its people's addresses, as a mentor adding them does
          emailVerified: true,
          name: nameOf(doc),
        });
        if (learner.email !== email && learner.how === 'created')
          throw invalidValue(
            `${email} belongs to an account that cannot be a learner (a mentor's, or one being deleted)`,
          );
        const [already] = await tx
          .select({ id: scimUsers.id })
          .from(scimUsers)
          .where(and(eq(scimUsers.tenantId, ctx.tenantId), eq(scimUsers.userId, learner.userId)))
          .limit(1);
        if (already) throw uniqueness(`This person is already provisioned as User ${already.id}`);
        made = learner.how === 'created';
        const [inserted] = await tx
          .insert(scimUsers)
          .values({ id, tenantId: ctx.tenantId, userId: learner.userId, ...cols, madeAccount: made })
          .returning();
        if (cols.active) {
          const { outcome } = await seat(ctx, tx, learner.email);
          if (outcome !== 'ADDED' && outcome !== 'ALREADY_ASSIGNED') throw new NoSeat(outcome);
        }
        return inserted!;
      }),
    );
    if (made && row.active) await welcome(ctx, email, nameOf(doc), doc);
    return row;
  } catch (err) {
    if (err instanceof NoSeat) return noSeat(ctx, email, err.outcome);
    throw err;
  }
}

/** The mail a person provisioned for the first time receives: a seat, and how to sign in — in their language. */
async function welcome(ctx: ScimContext, email: string, name: string | null, doc: Doc) {
  const [tenant] = await ctx.db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, ctx.tenantId));
  const [person] = await ctx.db
    .select({ language: users.language })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  // the directory's preferred language for the person (RFC 7643 §4.1.1), else the account's
  const asked = typeof doc.preferredLanguage === 'string' ? doc.preferredLanguage : null;
  const translator = translatorFor(asked ? uiLocaleOf(asked) : person?.language);
  await ctx.mail.send({
    to: email,
    kind: 'scim-welcome',
    ...welcomeMail(translator, {
      org: tenant?.name ?? tenant?.email ?? null,
      name,
      email,
      publicUrl: ctx.publicUrl,
    }),
  });
}

/** The welcome's subject and text in `translator`'s language. */
export function welcomeMail(
  { t }: Pick<Translator, 't'>,
  to: { org: string | null; name: string | null; email: string; publicUrl: string },
) {
  const org = to.org ?? t('mail.yourOrganisation');
  return {
    subject: t('mail.scimWelcome.subject', { org }),
    text: t('mail.scimWelcome.text', {
      org,
      hasName: to.name ? 'yes' : 'no',
      name: to.name ?? '',
      login: `${to.publicUrl}/login`,
      email: to.email,
    }),
  };
}

/**
 * Saves a changed document: the columns, the account's name when the directory made the account, and the
 * seat when `active` changed — in one transaction holding the user's row.
 */
async function save(
  ctx: ScimContext,
  id: string,
  change: (current: Row) => Doc,
  ifMatch?: string,
): Promise<Row> {
  let who = '';
  try {
    return await unique(() =>
      inTx(ctx.db, async (tx) => {
        await lockTenant(tx, ctx.tenantId);
        const current = await findUser(tx, ctx.tenantId, id, true);
        if (ifMatch && ifMatch !== '*' && ifMatch !== etagOf(current.version))
          throw new ScimError(
            412,
            `The user has changed (version ${etagOf(current.version)}): read it again`,
          );
        const doc = change(current);
        const cols = split(doc);
        const [account] = await tx.select().from(users).where(eq(users.id, current.userId));
        who = account?.email ?? cols.userName;
        if (cols.active && !current.active) {
          const { outcome } = await seat(ctx, tx, account!.email);
          if (outcome !== 'ADDED' && outcome !== 'ALREADY_ASSIGNED') throw new NoSeat(outcome);
        } else if (!cols.active && current.active) {
          await unseat(ctx, tx, current.userId);
        }
        const name = nameOf(doc);
        if (current.madeAccount && name && account && name !== account.name) {
          await tx.update(users).set({ name }).where(eq(users.id, account.id));
        }
        const [row] = await tx
          .update(scimUsers)
          .set({ ...cols, version: sql`${scimUsers.version} + 1`, updatedAt: sql`now()` })
          .where(eq(scimUsers.id, current.id))
          .returning();
        return row!;
      }),
    );
  } catch (err) {
    if (err instanceof NoSeat) return noSeat(ctx, who, err.outcome);
    throw err;
  }
}

/** PUT /Users/{id}: the whole resource replaced (`active` left out keeps its value; `id` never changes). */
export function replaceUser(ctx: ScimContext, id: string, body: unknown, ifMatch?: string) {
  const next = normalise(USER_SHAPE, body);
  return save(ctx, id, (current) => ({ ...next, active: next.active ?? current.active }), ifMatch);
}

/** PATCH /Users/{id}: the operations applied in order, all or nothing. */
export function patchUser(ctx: ScimContext, id: string, ops: PatchOperation[], ifMatch?: string) {
  return save(ctx, id, (current) => applyPatch(USER_SHAPE, docOf(current), ops), ifMatch);
}

/** DELETE /Users/{id}: the seat freed, the user gone from the directory and its cohorts; the learner stays. */
export async function deleteUser(ctx: ScimContext, id: string, ifMatch?: string): Promise<void> {
  await inTx(ctx.db, async (tx) => {
    await lockTenant(tx, ctx.tenantId);
    const current = await findUser(tx, ctx.tenantId, id, true);
    if (ifMatch && ifMatch !== '*' && ifMatch !== etagOf(current.version))
      throw new ScimError(412, `The user has changed (version ${etagOf(current.version)}): read it again`);
    if (current.active) await unseat(ctx, tx, current.userId);
    await tx.execute(sql`
      delete from cohort_members m using cohorts c
      where m.cohort_id = c.id and c.tenant_id = ${ctx.tenantId} and m.learner_id = ${current.userId}`);
    await tx.delete(scimUsers).where(eq(scimUsers.id, current.id));
  });
}

/** What a filter on Users can name. */
export const USER_FILTERS: Record<string, Searchable> = {
  id: { kind: 'uuid', column: sql`${scimUsers.id}` },
  userName: { kind: 'text', column: sql`${scimUsers.userName}` },
  externalId: { kind: 'text', column: sql`${scimUsers.externalId}`, caseExact: true },
  displayName: { kind: 'text', column: sql`${scimUsers.displayName}` },
  active: { kind: 'boolean', column: sql`${scimUsers.active}` },
  'name.givenName': { kind: 'text', column: sql`(${scimUsers.attributes} -> 'name' ->> 'givenName')` },
  'name.familyName': { kind: 'text', column: sql`(${scimUsers.attributes} -> 'name' ->> 'familyName')` },
  'emails.value': {
    kind: 'some',
    from: (match) =>
      sql`exists (select 1 from jsonb_array_elements(coalesce(${scimUsers.attributes} -> 'emails', '[]'::jsonb)) as e(v) where ${match(sql`e.v`)})`,
  },
  'meta.created': { kind: 'time', column: sql`${scimUsers.createdAt}` },
  'meta.lastModified': { kind: 'time', column: sql`${scimUsers.updatedAt}` },
};

/** GET /Users: a page of the tenant's users matching the filter, in the order they were provisioned. */
export async function listUsers(
  ctx: ScimContext,
  q: { filter?: string; startIndex: number; count: number },
): Promise<{ total: number; rows: Row[] }> {
  const where: SQL = and(
    eq(scimUsers.tenantId, ctx.tenantId),
    q.filter ? filterSql(USER_FILTERS, q.filter) : undefined,
  )!;
  const [[total], rows] = await Promise.all([
    ctx.db.select({ n: count() }).from(scimUsers).where(where),
    q.count === 0
      ? Promise.resolve([] as Row[])
      : ctx.db
          .select()
          .from(scimUsers)
          .where(where)
          .orderBy(asc(scimUsers.createdAt), asc(scimUsers.id))
          .limit(q.count)
          .offset(q.startIndex - 1),
  ]);
  return { total: Number(total?.n ?? 0), rows };
}

export async function presentMany(ctx: ScimContext, rows: Row[]) {
  const groups = await groupsOf(
    ctx.db,
    ctx.tenantId,
    rows.map((r) => r.userId),
  );
  return rows.map((r) => toScimUser(r, groups.get(r.userId) ?? [], ctx.base));
}
