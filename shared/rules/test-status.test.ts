import { describe, expect, it } from 'vitest';
import {
  awardCounts,
  awardKindOf,
  awardPath,
  canViewAnswers,
  customTestWindow,
  type LinkForDisplay,
  scoreDisplay,
  statusCell,
  viewAnswersPath,
} from './test-status';

const link = (over: Partial<LinkForDisplay>): LinkForDisplay => ({
  linkId: 'abcDEF123456',
  type: 'RESOURCE',
  status: 'TAKE_TEST',
  isCompleted: false,
  percentage: null,
  score: null,
  ...over,
});

describe('status labels', () => {
  it('names each status as the tables show it', () => {
    expect(statusCell(link({ status: 'TAKE_TEST' })).label).toBe('Take Test');
    expect(statusCell(link({ status: 'EXPIRED' })).label).toBe('Expired');
    expect(statusCell(link({ status: 'NO_ENOUGH_MARKS' })).label).toBe('No Enough Marks');
    expect(statusCell(link({ status: 'GENERATE_CERTIFICATE' })).label).toBe('Not Generated Yet');
  });
  it("shows '-' for a generated-but-awardless resource-from-whatsapp test", () => {
    expect(statusCell(link({ type: 'RESOURCE-FROM-WHATSAPP', status: 'GENERATE_CERTIFICATE' })).label).toBe(
      '-',
    );
    expect(statusCell(link({ type: 'RESOURCE-FROM-WHATSAPP', status: 'VIEW_CERTIFICATE' }))).toEqual({
      kind: 'label',
      label: '-',
    });
  });
  it('links VIEW_CERTIFICATE to the feather, badge or certificate by type', () => {
    expect(statusCell(link({ type: 'RESOURCE', status: 'VIEW_CERTIFICATE' }))).toEqual({
      kind: 'award',
      award: 'feather',
      label: 'View Feather',
      href: '/feather/abcDEF123456',
    });
    expect(statusCell(link({ type: 'SECTION', status: 'VIEW_CERTIFICATE' }))).toMatchObject({
      href: '/badge/abcDEF123456',
    });
    expect(statusCell(link({ type: 'ROADMAP', status: 'VIEW_CERTIFICATE' }))).toMatchObject({
      href: '/certificate/abcDEF123456',
    });
    expect(statusCell(link({ type: 'SUBJECT', status: 'VIEW_CERTIFICATE' }))).toMatchObject({
      href: '/certificate/abcDEF123456',
    });
  });
  it('gives TAKE_TEST a link to the test page', () => {
    expect(statusCell(link({}))).toEqual({
      kind: 'take-test',
      label: 'Take Test',
      href: '/test/abcDEF123456',
      disabled: false,
    });
  });
  it('knows the award of each type', () => {
    expect(awardKindOf('RESOURCE')).toBe('feather');
    expect(awardKindOf('SECTION')).toBe('badge');
    expect(awardKindOf('ROADMAP')).toBe('certificate');
    expect(awardKindOf('SUBJECT')).toBe('certificate');
    expect(awardKindOf('RESOURCE-FROM-WHATSAPP')).toBeNull();
    // a mentor's assessment passed earns a certificate (decision 037)
    expect(awardKindOf('CUSTOM-TEST')).toBe('certificate');
    expect(awardKindOf('INITIAL-ASSESSMENT')).toBeNull();
    expect(awardPath('CUSTOM-TEST', 'x')).toBe('/certificate/x');
    expect(awardPath('INITIAL-ASSESSMENT', 'x')).toBeNull();
  });
});

describe('the custom test window', () => {
  const start = Date.UTC(2026, 2, 3, 16, 5);
  it('is open (0) from the start to start plus the duration in hours', () => {
    expect(customTestWindow(start, 2, start).code).toBe(0);
    expect(customTestWindow(start, 2, start + 2 * 3600_000).code).toBe(0);
    expect(customTestWindow(start, 2, start + 3600_000)).toEqual({
      code: 0,
      label: 'Take Test',
      disabled: false,
    });
  });
  it('says when it will start (1) before the start', () => {
    expect(customTestWindow(new Date(start).toISOString(), 2, start - 1, 'UTC')).toEqual({
      code: 1,
      label: 'Assessment will Start at 3rd Mar 2026 04:05 pm',
      disabled: true,
    });
  });
  it('has expired (-1) after the window', () => {
    expect(customTestWindow(start, 2, start + 2 * 3600_000 + 1)).toEqual({
      code: -1,
      label: 'Link has expired',
      disabled: true,
    });
  });
  it('drives the status cell of a custom test', () => {
    const cell = statusCell(
      link({ type: 'CUSTOM-TEST', startTime: new Date(start).toISOString(), duration: 1 }),
      start - 60_000,
      'UTC',
    );
    expect(cell).toMatchObject({ kind: 'take-test', disabled: true, windowCode: 1 });
  });
});

describe('the score column', () => {
  it('shows nothing until completed', () => {
    expect(scoreDisplay({ isCompleted: false, percentage: 80, score: 8 })).toBeNull();
  });
  it('rounds the percentage up', () => {
    expect(scoreDisplay({ isCompleted: true, percentage: 66.67, score: 20 })).toBe('67%');
    expect(scoreDisplay({ isCompleted: true, percentage: 70, score: 35 })).toBe('70%');
    expect(scoreDisplay({ isCompleted: true, percentage: 0.1 + 0.2 + 69.7, score: 35 })).toBe('70%');
    expect(scoreDisplay({ isCompleted: true, percentage: 0, score: 0 })).toBe('0%');
  });
  it('falls back to the raw score', () => {
    expect(scoreDisplay({ isCompleted: true, percentage: null, score: 35 })).toBe('35');
    expect(scoreDisplay({ isCompleted: true, percentage: null, score: null })).toBeNull();
  });
});

describe('View Answers', () => {
  it('is offered only for the three evaluated statuses', () => {
    expect(canViewAnswers('VIEW_CERTIFICATE')).toBe(true);
    expect(canViewAnswers('NO_ENOUGH_MARKS')).toBe(true);
    expect(canViewAnswers('GENERATE_CERTIFICATE')).toBe(true);
    expect(canViewAnswers('TAKE_TEST')).toBe(false);
    expect(canViewAnswers('EXPIRED')).toBe(false);
  });
  it('goes to the learner view or the tenant view', () => {
    expect(viewAnswersPath('L1nk_id-0001')).toBe('/assesments/L1nk_id-0001/view');
    expect(viewAnswersPath('L1nk_id-0001', { userId: 'u1' })).toBe('/portal/users/u1/testlink/L1nk_id-0001');
  });
});

describe('progress-page counts', () => {
  it('counts earned awards (generated or not) by type', () => {
    expect(
      awardCounts([
        { type: 'ROADMAP', status: 'VIEW_CERTIFICATE' },
        { type: 'ROADMAP', status: 'NO_ENOUGH_MARKS' },
        { type: 'SECTION', status: 'GENERATE_CERTIFICATE' },
        { type: 'SECTION', status: 'VIEW_CERTIFICATE' },
        { type: 'RESOURCE', status: 'VIEW_CERTIFICATE' },
        { type: 'RESOURCE', status: 'TAKE_TEST' },
        { type: 'RESOURCE', status: 'EXPIRED' },
        { type: 'RESOURCE-FROM-WHATSAPP', status: 'GENERATE_CERTIFICATE' },
      ]),
    ).toEqual({ certificates: 1, badges: 2, feathers: 1 });
    expect(awardCounts([])).toEqual({ certificates: 0, badges: 0, feathers: 0 });
  });
});
