/**
 * Cohorts (issue 28 item 2; decision 043) through the tenant's calls: made, renamed, members added (only
 * the tenant's seats) and removed, a roadmap assigned to the whole cohort — each member now, each new member
 * when they join, under the one-learner rules (two ongoing at most) — deleted with members keeping their
 * seats and roadmaps; every change in the activity log; another tenant sees none of it.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { assignedRoadmaps } from '../catalogue/tables';
import { auditEvents } from '../integrations/core/tables';
import { type SignedIn, setupServer } from '../test/helper';

const server = setupServer({ seed: true });
let tenant: SignedIn;
let a: SignedIn;
let b: SignedIn;
let roadmapId: string;

beforeAll(async () => {
  tenant = await server.signedIn('TENANT', { profile: true, name: 'Cohort Mentor' });
  [a, b] = [
    await server.signedIn('USER', { profile: true }),
    await server.signedIn('USER', { profile: true }),
  ];
  for (const who of [a, b])
    expect(
      (await server.post('/api/tenant/users/add-user-v2', { email: who.account.email }, tenant.auth)).status,
    ).toBe(200);
  const list = await server.get('/api/roadmap/list/no-auth');
  roadmapId = (list.body.data as { _id: string; prerequisites?: unknown[] }[])[0]!._id;
}, 60_000);

const assignedTo = (learner: SignedIn) =>
  server.db.select().from(assignedRoadmaps).where(eq(assignedRoadmaps.userId, learner.user._id));

describe('cohorts', () => {
  it('makes a cohort, gives its roadmap to members now and later, and logs each change', async () => {
    const made = await server.post('/api/tenant/cohorts', { name: 'Sales EMEA' }, tenant.auth);
    expect(made.status, made.text).toBe(201);
    const id = made.body.data._id as string;
    expect((await server.post('/api/tenant/cohorts', { name: 'sales emea' }, tenant.auth)).status).toBe(409);
    const added = await server.post(
      `/api/tenant/cohorts/${id}/members`,
      { learnerIds: [a.user._id] },
      tenant.auth,
    );
    expect(added.body.data.added).toEqual([a.user._id]);
    const assigned = await server.post(
      `/api/tenant/cohorts/${id}/roadmaps`,
      { roadmapId, prerequisites: 'WAIVE' },
      tenant.auth,
    );
    expect(assigned.status, assigned.text).toBe(200);
    expect(assigned.body.data.results).toEqual([
      expect.objectContaining({ learnerId: a.user._id, outcome: 'ASSIGNED' }),
    ]);
    // the Users page: each row's cohorts, and the cohort's members only
    const filtered = await server.get(`/api/tenant/users/list?limit=15&cohortId=${id}`, tenant.auth);
    expect(filtered.status, filtered.text).toBe(200);
    expect(filtered.body.data.totalUserCount).toBe(1);
    expect(filtered.body.data.tenantUserList).toEqual([
      expect.objectContaining({
        learnerId: expect.objectContaining({ _id: a.user._id }),
        cohorts: [{ _id: id, name: 'Sales EMEA' }],
      }),
    ]);
    const file = await server.get(`/api/tenant/export/users?format=csv&cohortId=${id}`, tenant.auth);
    expect(file.status, file.text).toBe(200);
    expect(file.text).toContain(a.account.email);
    expect(file.text).not.toContain(b.account.email);
    const all = await server.get('/api/tenant/users/list?limit=15', tenant.auth);
    const rowOf = (who: SignedIn) =>
      all.body.data.tenantUserList.find(
        (r: { learnerId: { _id: string } }) => r.learnerId._id === who.user._id,
      );
    expect(rowOf(b).cohorts).toEqual([]);
    const shown = await server.get(`/api/tenant/cohorts/${id}`, tenant.auth);
    expect(shown.body.data).toMatchObject({ name: 'Sales EMEA', scimManaged: false, memberCount: 1 });
    expect(shown.body.data.members).toEqual([
      expect.objectContaining({ _id: a.user._id, email: a.account.email, isDisabled: false }),
    ]);
    // a later member gets it when joining
    await server.post(`/api/tenant/cohorts/${id}/members`, { learnerIds: [b.user._id] }, tenant.auth);
    const list = await server.get('/api/tenant/cohorts', tenant.auth);
    expect(list.body.data).toEqual([
      expect.objectContaining({ _id: id, name: 'Sales EMEA', memberCount: 2 }),
    ]);
    expect(list.body.data[0].roadmaps.map((r: { _id: string }) => r._id)).toEqual([roadmapId]);
    const [tenantAudit] = [
      await server.db.select().from(auditEvents).where(eq(auditEvents.tenantId, tenant.user._id)),
    ];
    const actions = tenantAudit.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['cohort.created', 'cohort.member_added', 'cohort.roadmap_assigned']),
    );
    // the cohort's name beside the English, for the portal to say the entry in the reader's language
    expect(tenantAudit.find((e) => e.action === 'cohort.roadmap_assigned')!.details).toMatchObject({
      cohort: 'Sales EMEA',
    });
    // both members have it: a now, b when joining
    expect((await assignedTo(a)).map((r) => r.roadmapId)).toContain(roadmapId);
    expect((await assignedTo(b)).map((r) => r.roadmapId)).toContain(roadmapId);
    // only the tenant's seats may join
    const stranger = await server.signedIn('USER', { profile: true });
    const refused = await server.post(
      `/api/tenant/cohorts/${id}/members`,
      { learnerIds: [stranger.user._id] },
      tenant.auth,
    );
    expect(refused.status).toBe(404);
    expect(refused.body.field).toBe('learnerIds');
    // another tenant sees nothing of it
    const other = await server.signedIn('TENANT', { profile: true });
    expect((await server.get('/api/tenant/cohorts', other.auth)).body.data).toEqual([]);
    expect((await server.get(`/api/tenant/cohorts/${id}`, other.auth)).status).toBe(404);
    expect((await server.get(`/api/tenant/users/list?cohortId=${id}`, other.auth)).status).toBe(404);
    expect((await server.request('DELETE', `/api/tenant/cohorts/${id}`, undefined, other.auth)).status).toBe(
      404,
    );
    // removed and deleted: seats and roadmaps stay
    const removed = await server.post(
      `/api/tenant/cohorts/${id}/members/remove`,
      { learnerIds: [a.user._id] },
      tenant.auth,
    );
    expect(removed.body.data.removed).toEqual([a.user._id]);
    const renamed = await server.put(`/api/tenant/cohorts/${id}`, { name: 'Sales Europe' }, tenant.auth);
    expect(renamed.body.data).toMatchObject({ name: 'Sales Europe', memberCount: 1 });
    expect((await server.request('DELETE', `/api/tenant/cohorts/${id}`, undefined, tenant.auth)).status).toBe(
      200,
    );
    expect((await server.get('/api/tenant/cohorts', tenant.auth)).body.data).toEqual([]);
    expect(await assignedTo(a)).not.toHaveLength(0);
  });
});
