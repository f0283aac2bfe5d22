import { english, loaders } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../i18n/translator';
import {
  type ListedAttempt,
  retakeLabel,
  retakeMessage,
  retakeNotice,
  retakeOpensAt,
  retakeOpensAtOf,
  retakeOpensFor,
  testKeyOf,
} from './retakes';

const H = 3600_000;

describe('retakes', () => {
  it('keys a resource test the same whichever way it was asked for', () => {
    expect(testKeyOf({ type: 'RESOURCE', resourceId: 'r1' })).toBe('RESOURCE:r1');
    expect(testKeyOf({ type: 'RESOURCE-FROM-WHATSAPP', resourceId: 'r1' })).toBe('RESOURCE:r1');
    expect(testKeyOf({ type: 'SECTION', sectionId: 's1' })).toBe('SECTION:s1');
    expect(testKeyOf({ type: 'ROADMAP', roadmapId: 'm1' })).toBe('ROADMAP:m1');
    expect(testKeyOf({ type: 'SUBJECT', subjectId: 'x' })).toBe('SUBJECT:x');
    expect(testKeyOf({ type: 'CUSTOM-TEST', tenantAssessmentId: 'a' })).toBe('CUSTOM-TEST:a');
    expect(testKeyOf({ type: 'SECTION' })).toBeNull();
  });

  it('holds back only a failed test a learner asks a link for, for the cool-down', () => {
    const completedAt = new Date('2026-11-24T10:00:00Z');
    const failed = { type: 'RESOURCE' as const, status: 'NO_ENOUGH_MARKS', completedAt };
    expect(retakeOpensAt(failed, 24 * H)?.toISOString()).toBe('2026-11-25T10:00:00.000Z');
    expect(retakeOpensAt(failed, 0)).toBeNull();
    expect(retakeOpensAt({ ...failed, status: 'GENERATE_CERTIFICATE' }, 24 * H)).toBeNull();
    expect(retakeOpensAt({ ...failed, type: 'CUSTOM-TEST' }, 24 * H)).toBeNull();
    expect(retakeOpensAt({ ...failed, type: 'INITIAL-ASSESSMENT' }, 24 * H)).toBeNull();
  });

  it('says when, in UTC from the server and in the reader’s time and language from the portal', async () => {
    const at = new Date('2026-11-25T10:30:00Z');
    const en = createTranslator('en', english);
    const es = createTranslator('es', (await loaders.es()).default, english);
    const m = retakeMessage(at);
    expect(en.t(m.key, m.values)).toMatch(/^You can retake this test from 2026-11-25 10:30 UTC\./);
    expect(retakeNotice(at, en, 'UTC')).toMatch(/^You can retake this test from 25th Nov 2026 10:30 am\./);
    expect(retakeNotice(at, en, 'Asia/Kolkata')).toMatch(/from 25th Nov 2026 04:00 pm\./);
    expect(retakeLabel(at, en, 'UTC')).toBe('Retake from 25th Nov 2026 10:30 am');
    expect(retakeLabel(at, es, 'UTC')).toBe(
      `Repetir a partir del ${new Intl.DateTimeFormat('es', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }).format(at)}`,
    );
  });

  it('reads the time from the API’s refusal only', () => {
    expect(
      retakeOpensAtOf({ body: { errorCode: 'RETAKE_COOLDOWN', opensAt: '2026-11-25T10:30:00.000Z' } }),
    ).toBe('2026-11-25T10:30:00.000Z');
    expect(retakeOpensAtOf({ body: { errorCode: 'LINK_EXPIRED' } })).toBeNull();
    expect(retakeOpensAtOf(new Error('x'))).toBeNull();
    expect(retakeOpensAtOf(null)).toBeNull();
  });

  it('finds the latest retake still to come among the links of the same test', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    const base: ListedAttempt = {
      type: 'RESOURCE',
      status: 'NO_ENOUGH_MARKS',
      resourceId: 'r1',
      sectionId: 's1',
      assignedRoadmapId: 'a1',
      subject: { _id: 'x' },
      retakeAt: null,
    };
    const links: ListedAttempt[] = [
      { ...base, retakeAt: '2026-11-24T11:00:00Z' },
      { ...base, type: 'RESOURCE-FROM-WHATSAPP', retakeAt: '2026-11-25T09:00:00Z' },
      { ...base, type: 'SECTION', retakeAt: '2026-11-25T11:00:00Z' },
    ];
    expect(retakeOpensFor(links, { type: 'RESOURCE', resourceId: 'r1' }, now)).toBe('2026-11-25T09:00:00Z');
    expect(retakeOpensFor(links, { type: 'RESOURCE', resourceId: 'r2' }, now)).toBeNull();
    expect(retakeOpensFor(links, { type: 'SECTION', sectionId: 's1' }, now)).toBe('2026-11-25T11:00:00Z');
    expect(retakeOpensFor(links, { type: 'ROADMAP', assignedRoadmapId: 'a1' }, now)).toBeNull();
    expect(
      retakeOpensFor(links, { type: 'SECTION', sectionId: 's1' }, Date.parse('2026-11-26T00:00:00Z')),
    ).toBeNull();
  });
});
