/**
 * RETAKE_COOLDOWN_HOURS (decision 010): the wait after a failed test is a setting; 0 lets a failed test be
 * retaken at once. (Its own file: a harness of its own, with the setting.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignTo, type Bank, calls, seedBank } from '../test/fixtures/assessments';
import { type Harness, openHarness } from '../test/harness';

describe('the cool-down setting', () => {
  let h: Harness;
  let bank: Bank;
  beforeAll(async () => {
    h = await openHarness(undefined, { env: { RETAKE_COOLDOWN_HOURS: '0' } });
    bank = await seedBank(h.db);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('RETAKE_COOLDOWN_HOURS=0 lets a failed test be retaken at once', async () => {
    const api = calls(h.app);
    const me = await h.learner();
    const ar = await assignTo(h.db, me.id, bank);
    const body = { type: 'SECTION', assignedRoadmapId: ar, sectionId: bank.sectionIds[0] };
    const a = await api.createOk(me, body);
    await api.take(a, bank, 'wrong', me);
    const b = await api.create(me, body);
    expect(b.statusCode).toBe(200);
    expect(b.json().data.testLinkId).not.toBe(a);
  });
});
