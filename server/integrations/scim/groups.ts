/**
 * SCIM Groups (RFC 7643 §4.2) are the tenant's cohorts (server/tenant/cohorts.ts): a directory's group is a
 * cohort of the same name, its members the users the directory provisioned. Every change goes through the
 * cohort service — the activity log, the roadmaps a cohort gives its new members — with the SCIM token as
 * the actor. A cohort's members added in the portal who were never provisioned are not SCIM Users: the
 * directory neither sees them nor removes them.
 */
import { COHORT_NAME_MAX } from '@shared/schemas/tenant';
import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inTx, type Tx } from '../../db/helpers';
import { users } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { lockTenant } from '../../tenant/accounting';
import {
  addMembers,
  type CohortRow,
  createCohort,
  deleteCohort,
  removeMembers,
  requireCohort,
  updateCohort,
} from '../../tenant/cohorts';
import { cohortMembers, cohorts } from '../../tenant/tables';
import { etagOf, type ScimContext } from './context';
import { applyPatch, type Doc, type DocShape, normalise, type PatchOperation } from './document';
import { invalidValue, ScimError, scimNotFound, uniqueness } from './errors';
import { filterSql, type Searchable } from './filter';
import { GROUP_ATTRIBUTES, GROUP_URN } from './schemas';
import { scimUsers } from './tables';

export const GROUP_SHAPE: DocShape = { urn: GROUP_URN, attrs: GROUP_ATTRIBUTES };

interface Member {
  /** The SCIM User's id. */
  value: string;
  learnerId: string;
  display: string;
  email: string;
}

/** The provisioned members of cohorts (SCIM Users), by cohort. */
async function membersOf(db: Db, tenantId: string, cohortIds: string[]) {
  const by = new Map<string, Member[]>();
  if (!cohortIds.length) return by;
  const rows = await db
    .select({
      cohortId: cohortMembers.cohortId,
      value: scimUsers.id,
      learnerId: scimUsers.userId,
      userName: scimUsers.userName,
      displayName: scimUsers.displayName,
      email: users.email,
    })
    .from(cohortMembers)
    .innerJoin(
      scimUsers,
      and(eq(scimUsers.userId, cohortMembers.learnerId), eq(scimUsers.tenantId, tenantId)),
    )
    .innerJoin(users, eq(users.id, scimUsers.userId))
    .where(inArray(cohortMembers.cohortId, cohortIds))
    .orderBy(asc(cohortMembers.addedAt), asc(scimUsers.id));
  for (const r of rows) {
    const list = by.get(r.cohortId) ?? [];
    list.push({
      value: r.value,
      learnerId: r.learnerId,
      display: r.displayName ?? r.userName,
      email: r.email,
    });
    by.set(r.cohortId, list);
  }
  return by;
}

export function toScimGroup(row: CohortRow, members: Member[], base: string) {
  return {
    schemas: [GROUP_URN],
    id: row.id,
    displayName: row.name,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    members: members.map((m) => ({
      value: m.value,
      $ref: `${base}/Users/${m.value}`,
      display: m.display,
      type: 'User',
    })),
    meta: {
      resourceType: 'Group',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${base}/Groups/${row.id}`,
      version: etagOf(row.version),
    },
  };
}

export async function presentGroups(ctx: ScimContext, rows: CohortRow[]) {
  const members = await membersOf(
    ctx.db,
    ctx.tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toScimGroup(r, members.get(r.id) ?? [], ctx.base));
}

/** A cohort of this tenant as a SCIM Group, or 404 in SCIM's shape. */
export async function findGroup(db: Db, tenantId: string, id: string, lock = false): Promise<CohortRow> {
  try {
    return await requireCohort(db, tenantId, id, lock);
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 404) throw scimNotFound('Group', id);
    throw err;
  }
}

/** The cohort service's errors in SCIM's words: a name taken is 409 uniqueness. */
async function scimErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 409)
      throw uniqueness('A group with this displayName already exists');
    throw err;
  }
}

function columns(doc: Doc) {
  const name = typeof doc.displayName === 'string' ? doc.displayName.trim() : '';
  if (!name) throw invalidValue('displayName is required');
  if (name.length > COHORT_NAME_MAX)
    throw invalidValue(`displayName is longer than ${COHORT_NAME_MAX} characters`);
  return { name, externalId: typeof doc.externalId === 'string' ? doc.externalId : null };
}

/** The members a document names: SCIM Users of this tenant (400 invalidValue naming one that is not). */
async function resolveMembers(
  tx: Db,
  tenantId: string,
  doc: Doc,
): Promise<Map<string, { id: string; email: string }>> {
  const list = Array.isArray(doc.members) ? (doc.members as Doc[]) : [];
  const values = [...new Set(list.map((m) => String(m.value ?? '')))];
  const out = new Map<string, { id: string; email: string }>();
  if (!values.length) return out;
  const bad = values.find((v) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v));
  if (bad !== undefined) throw invalidValue(`members: User ${bad} not found`);
  const rows = await tx
    .select({ value: scimUsers.id, id: scimUsers.userId, email: users.email })
    .from(scimUsers)
    .innerJoin(users, eq(users.id, scimUsers.userId))
    .where(and(eq(scimUsers.tenantId, tenantId), inArray(scimUsers.id, values)));
  for (const r of rows) out.set(r.value.toLowerCase(), { id: r.id, email: r.email });
  const missing = values.find((v) => !out.has(v.toLowerCase()));
  if (missing !== undefined) throw invalidValue(`members: User ${missing} not found`);
  return out;
}

/** Brings the cohort's provisioned members to those `doc` names (others, added in the portal, stay). */
async function syncMembers(ctx: ScimContext, tx: Tx, cohort: CohortRow, current: Member[], doc: Doc) {
  const wanted = await resolveMembers(tx, ctx.tenantId, doc);
  const had = new Set(current.map((m) => m.learnerId));
  const want = new Set([...wanted.values()].map((l) => l.id));
  const gone = current.filter((m) => !want.has(m.learnerId)).map((m) => m.learnerId);
  const added = [...wanted.values()].filter((l) => !had.has(l.id));
  if (gone.length) await removeMembers(tx, cohort, gone, ctx.actor);
  if (added.length) await addMembers(tx, cohort, added, ctx.actor);
}

/** POST /Groups: a cohort, with its members. */
export async function createGroup(ctx: ScimContext, body: unknown): Promise<CohortRow> {
  const doc = normalise(GROUP_SHAPE, body);
  const cols = columns(doc);
  return scimErrors(() =>
    inTx(ctx.db, async (tx) => {
      await lockTenant(tx, ctx.tenantId);
      const made = await createCohort(tx, ctx.tenantId, { ...cols, scimManaged: true }, ctx.actor);
      await syncMembers(ctx, tx, made, [], doc);
      return findGroup(tx, ctx.tenantId, made.id);
    }),
  );
}

function docOfGroup(row: CohortRow, members: Member[]): Doc {
  const doc: Doc = { displayName: row.name };
  if (row.externalId !== null) doc.externalId = row.externalId;
  if (members.length)
    doc.members = members.map((m) => ({ value: m.value, display: m.display, type: 'User' }));
  return doc;
}

async function saveGroup(ctx: ScimContext, id: string, change: (current: Doc) => Doc, ifMatch?: string) {
  return scimErrors(() =>
    inTx(ctx.db, async (tx) => {
      // one directory's writes one at a time, as Users' are: members' roadmaps lock each learner's account
      await lockTenant(tx, ctx.tenantId);
      const current = await findGroup(tx, ctx.tenantId, id, true);
      if (ifMatch && ifMatch !== '*' && ifMatch !== etagOf(current.version))
        throw new ScimError(412, `The group has changed (version ${etagOf(current.version)}): read it again`);
      const members = (await membersOf(tx, ctx.tenantId, [current.id])).get(current.id) ?? [];
      const doc = change(docOfGroup(current, members));
      const cols = columns(doc);
      // a directory that changes a cohort made in the portal takes it over (decision 050)
      if (cols.name !== current.name || cols.externalId !== current.externalId || !current.scimManaged)
        await updateCohort(tx, current, { ...cols, scimManaged: true }, ctx.actor);
      await syncMembers(ctx, tx, current, members, doc);
      return findGroup(tx, ctx.tenantId, id);
    }),
  );
}

/** PUT /Groups/{id}: name and members replaced. */
export function replaceGroup(ctx: ScimContext, id: string, body: unknown, ifMatch?: string) {
  const next = normalise(GROUP_SHAPE, body);
  return saveGroup(ctx, id, () => next, ifMatch);
}

/** PATCH /Groups/{id}: Okta's and Entra ID's member adds and removes, renames. */
export function patchGroup(ctx: ScimContext, id: string, ops: PatchOperation[], ifMatch?: string) {
  return saveGroup(ctx, id, (current) => applyPatch(GROUP_SHAPE, current, ops), ifMatch);
}

/** DELETE /Groups/{id}: the cohort goes; its members keep their seats and roadmaps. */
export async function deleteGroup(ctx: ScimContext, id: string, ifMatch?: string) {
  const current = await findGroup(ctx.db, ctx.tenantId, id);
  if (ifMatch && ifMatch !== '*' && ifMatch !== etagOf(current.version))
    throw new ScimError(412, `The group has changed (version ${etagOf(current.version)}): read it again`);
  await deleteCohort(ctx.db, ctx.tenantId, id, ctx.actor);
}

export const GROUP_FILTERS: Record<string, Searchable> = {
  id: { kind: 'uuid', column: sql`${cohorts.id}` },
  displayName: { kind: 'text', column: sql`${cohorts.name}` },
  externalId: { kind: 'text', column: sql`${cohorts.externalId}`, caseExact: true },
  'members.value': {
    kind: 'some',
    from: (match) =>
      sql`exists (select 1 from ${cohortMembers} cm join ${scimUsers} su on su.user_id = cm.learner_id and su.tenant_id = ${cohorts.tenantId}
        where cm.cohort_id = ${cohorts.id} and ${match(sql`jsonb_build_object('value', su.id::text)`)})`,
  },
  'meta.created': { kind: 'time', column: sql`${cohorts.createdAt}` },
  'meta.lastModified': { kind: 'time', column: sql`${cohorts.updatedAt}` },
};

/** GET /Groups: a page of the tenant's cohorts matching the filter, oldest first. */
export async function listGroups(
  ctx: ScimContext,
  q: { filter?: string; startIndex: number; count: number },
): Promise<{ total: number; rows: CohortRow[] }> {
  const where: SQL = and(
    eq(cohorts.tenantId, ctx.tenantId),
    q.filter ? filterSql(GROUP_FILTERS, q.filter) : undefined,
  )!;
  const [[total], rows] = await Promise.all([
    ctx.db.select({ n: count() }).from(cohorts).where(where),
    q.count === 0
      ? Promise.resolve([] as CohortRow[])
      : ctx.db
          .select()
          .from(cohorts)
          .where(where)
          .orderBy(asc(cohorts.createdAt), asc(cohorts.id))
          .limit(q.count)
          .offset(q.startIndex - 1),
  ]);
  return { total: Number(total?.n ?? 0), rows };
}
