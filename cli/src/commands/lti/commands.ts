/**
 * `waymark lti list|courses|sync|scores|retry`: GET /tenant/lti/registrations, …/contexts,
 * POST /tenant/lti/contexts/{id}/sync, GET /tenant/lti/deliveries, POST /tenant/lti/deliveries/{id}/retry.
 */
import {
  ltiContextList,
  ltiDeliveryList,
  ltiRegistrationList,
  retryLtiDelivery,
  syncLtiMembers,
} from '@shared/contract/lti';
import type { LtiDelivery } from '@shared/schemas/lti';
import type { z } from 'zod';
import type { Context } from '../../core/context';
import { usageError } from '../../core/errors';

export type LtiListOptions = Record<string, never>;
export interface LtiCoursesOptions {
  platform: string;
}
export interface LtiScoresOptions {
  status?: string;
  limit?: string;
}
const SCORE_STATUSES = ['PENDING', 'FAILED', 'DELIVERED', 'ALL'] as const;
export interface LtiRetryOptions {
  post: string;
}
export interface LtiSyncOptions {
  course: string;
  dryRun?: boolean;
}

export async function listPlatforms(ctx: Context): Promise<void> {
  const { client } = ctx.signedIn();
  const { data } = await client.call(ltiRegistrationList, { signal: ctx.signal });
  const { output } = ctx;
  if (output.json) {
    for (const r of data) output.emit(r);
    return;
  }
  if (!data.length)
    output.line('No LMS platforms yet. Add one on the Integrations → LMS page of the portal.');
  for (const r of data)
    output.line([r._id, r.label, r.issuer, r.clientId, r.deploymentIds.join(','), r.status].join('\t'));
}

export async function listCourses(ctx: Context, options: LtiCoursesOptions): Promise<void> {
  const { client } = ctx.signedIn();
  const { data } = await client.call(ltiContextList, {
    params: { id: options.platform },
    signal: ctx.signal,
  });
  const { output } = ctx;
  if (output.json) {
    for (const c of data) output.emit(c);
    return;
  }
  if (!data.length) output.line('No course has launched Waymark from this platform yet.');
  for (const c of data)
    output.line(
      [c._id, c.title ?? c.contextId, c.canSyncMembers ? 'members can be synced' : 'no member list'].join(
        '\t',
      ),
    );
}

export async function syncCourse(ctx: Context, options: LtiSyncOptions): Promise<void> {
  const { client } = ctx.signedIn();
  const { data } = await client.call(syncLtiMembers, {
    params: { id: options.course },
    body: { dryRun: Boolean(options.dryRun) },
    signal: ctx.signal,
  });
  const { output } = ctx;
  if (output.json) {
    for (const m of data.members) output.emit(m);
    output.emit({ dryRun: data.dryRun, counts: data.counts, skipped: data.skipped });
    return;
  }
  for (const m of data.members)
    output.line([m.outcome, m.name ?? m.subject, m.email ?? '', m.reason ?? ''].join('\t'));
  const { added, present, notAdded } = data.counts;
  output.line(
    `${data.dryRun ? 'Dry run: would add' : 'Added'} ${added}, already present ${present}, not added ${notAdded}; ${data.skipped} members who are not active learners left alone.`,
  );
}

/** One score post as a line: status, attempts, learner, score, when, and the platform's last answer. */
const postLine = (d: z.infer<typeof LtiDelivery>) =>
  [
    d._id,
    d.status,
    `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`,
    d.learner.email,
    d.scoreGiven === null ? '' : `${d.scoreGiven}/${d.scoreMaximum}`,
    d.deliveredAt ?? (d.nextAttemptAt ? `next ${d.nextAttemptAt}` : ''),
    d.lastError ?? '',
  ].join('\t');

export async function listScores(ctx: Context, options: LtiScoresOptions): Promise<void> {
  const status = (options.status ?? 'all').toUpperCase();
  if (!(SCORE_STATUSES as readonly string[]).includes(status))
    throw usageError(`--status: must be one of ${SCORE_STATUSES.join(', ').toLowerCase()}`);
  const limit = Number(options.limit ?? 50);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw usageError('--limit: must be a number from 1 to 200');
  const { client } = ctx.signedIn();
  const { data } = await client.call(ltiDeliveryList, {
    query: { status: status as (typeof SCORE_STATUSES)[number], limit },
    signal: ctx.signal,
  });
  const { output } = ctx;
  if (output.json) {
    for (const d of data) output.emit(d);
    return;
  }
  if (!data.length) output.line('No score posts.');
  for (const d of data) output.line(postLine(d));
}

export async function retryScore(ctx: Context, options: LtiRetryOptions): Promise<void> {
  const { client } = ctx.signedIn();
  const { data } = await client.call(retryLtiDelivery, { params: { id: options.post }, signal: ctx.signal });
  if (ctx.output.json) ctx.output.emit(data);
  else ctx.output.line(postLine(data));
}
