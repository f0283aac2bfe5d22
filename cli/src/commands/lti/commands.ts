/** `waymark lti list|courses|sync`: GET /tenant/lti/registrations, …/contexts, POST /tenant/lti/contexts/{id}/sync. */
import { ltiContextList, ltiRegistrationList, syncLtiMembers } from '@shared/contract/lti';
import type { Context } from '../../core/context';

export type LtiListOptions = Record<string, never>;
export interface LtiCoursesOptions {
  platform: string;
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
