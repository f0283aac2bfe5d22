/**
 * Outside identities (decision 039): one person reached through an LMS, a directory and SSO is one learner —
 * an identity links to one user per tenant and issuer, and keeps its link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openHarness, type Person } from '../../test/harness';
import { linkIdentity, userForIdentity } from './identities';

let h: Harness;
let tenant: Person;
let other: Person;
let asha: Person;
let ravi: Person;

beforeAll(async () => {
  h = await openHarness();
  tenant = await h.tenant('Identity Tenant');
  other = await h.tenant('Other Tenant');
  asha = await h.learner('Asha');
  ravi = await h.learner('Ravi');
}, 60_000);
afterAll(() => h?.close());

describe('external identities', () => {
  it('links an identity to a user once per tenant and issuer, and finds the user by it', async () => {
    const lms = { tenantId: tenant.id, issuer: 'https://moodle.example.edu', subject: '1234' };
    expect(await userForIdentity(h.db, lms)).toBeNull();
    expect(await linkIdentity(h.db, lms, asha.id, 'lti')).toEqual({ userId: asha.id, created: true });
    expect(await linkIdentity(h.db, lms, asha.id, 'lti')).toEqual({ userId: asha.id, created: false });
    expect(await userForIdentity(h.db, lms)).toBe(asha.id);
    // the same person from a directory and from SSO: one learner
    const scim = { tenantId: tenant.id, issuer: 'scim:entra', subject: 'a-77' };
    await linkIdentity(h.db, scim, asha.id, 'scim');
    expect(await userForIdentity(h.db, scim)).toBe(asha.id);
  });

  it('keeps a link: the same identity offered for another user answers with its own user', async () => {
    const lms = { tenantId: tenant.id, issuer: 'https://canvas.example.edu', subject: 'u-1' };
    await linkIdentity(h.db, lms, asha.id, 'lti');
    expect(await linkIdentity(h.db, lms, ravi.id, 'lti')).toEqual({ userId: asha.id, created: false });
  });

  it('is per tenant: the same subject at another tenant is another identity', async () => {
    const at = (tenantId: string) => ({
      tenantId,
      issuer: 'https://moodle.example.edu',
      subject: 'shared-9',
    });
    await linkIdentity(h.db, at(tenant.id), asha.id, 'lti');
    await linkIdentity(h.db, at(other.id), ravi.id, 'lti');
    expect(await userForIdentity(h.db, at(tenant.id))).toBe(asha.id);
    expect(await userForIdentity(h.db, at(other.id))).toBe(ravi.id);
  });
});
