/**
 * The end-to-end tests' shortcut that expires an unused test link: only under NODE_ENV=test, only for
 * the link's learner, only before the test starts; the link then expires by the usual rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignTo, type Bank, calls, seedBank } from '../test/fixtures/assessments';
import { BACKENDS, type Harness, openHarness, type Person } from '../test/harness';
import { TestServer } from '../test/helper';
import { TEST_SUPPORT_PREFIX } from './test-support';

for (const backend of BACKENDS) {
  describe(`the test-only link expiry on ${backend}`, () => {
    let h: Harness;
    let bank: Bank;
    let api: ReturnType<typeof calls>;
    let asha: Person;
    let ravi: Person;
    let roadmap: string;

    const newLink = () =>
      api.createOk(asha, {
        type: 'RESOURCE',
        assignedRoadmapId: roadmap,
        sectionId: bank.sectionIds[0],
        resourceId: bank.resourceIds[0],
      });
    const expire = (linkId: string, who?: Person) =>
      api.inject({
        method: 'PUT',
        url: `${TEST_SUPPORT_PREFIX}/testlink/${linkId}/expire`,
        headers: who?.headers,
      });

    beforeAll(async () => {
      h = await openHarness(backend);
      api = calls(h.app);
      bank = await seedBank(h.db);
      asha = await h.learner('Asha Learner');
      ravi = await h.learner('Ravi Learner');
      roadmap = await assignTo(h.db, asha.id, bank);
    }, 120_000);

    afterAll(async () => {
      await h?.close();
    });

    it("makes the learner's unused link expire by the usual rules", async () => {
      const linkId = await newLink();
      expect((await api.load(linkId)).statusCode).toBe(200);
      expect((await expire(linkId)).statusCode).toBe(401);
      expect((await expire(linkId, ravi)).statusCode).toBe(403);
      expect((await expire(linkId, asha)).statusCode).toBe(200);
      const load = await api.load(linkId);
      expect(load.statusCode).toBe(410);
      expect(load.json()).toMatchObject({ errorCode: 'LINK_EXPIRED' });
      expect((await api.start(linkId)).json()).toMatchObject({ errorCode: 'LINK_EXPIRED' });
      const list = (await api.list(asha)).json().data as { linkId: string; status: string }[];
      expect(list.find((l) => l.linkId === linkId)?.status).toBe('EXPIRED');
    });

    it('leaves a started test alone, and answers 404 for an unknown link', async () => {
      const linkId = await newLink();
      await api.start(linkId);
      expect((await expire(linkId, asha)).statusCode).toBe(409);
      expect((await api.load(linkId)).statusCode).toBe(200);
      expect((await expire('NoSuchLink_0123456789', asha)).statusCode).toBe(404);
    });
  });
}

describe('outside NODE_ENV=test', () => {
  it('has no test-support route', async () => {
    const server = await new TestServer({ env: { NODE_ENV: 'development' } }).start();
    try {
      const res = await server.request('PUT', `${TEST_SUPPORT_PREFIX}/testlink/NoSuchLink_0123456789/expire`);
      expect(res.status).toBe(404);
      expect(server.config.env).toBe('development');
    } finally {
      await server.close();
    }
  }, 60_000);
});
