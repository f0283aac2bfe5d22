/** `waymark cohorts list` and `waymark cohorts show <cohort>`: the mentor's cohorts, and one's members. */
import { cohortList, cohortShow } from '@shared/contract/cohorts';
import { formatDateTime } from '@shared/rules/format-date';
import type { Cohort } from '@shared/schemas/tenant';
import type { Context } from '../../core/context';
import { findCohort } from './find';

export type CohortsListOptions = Record<string, never>;
export interface CohortsShowOptions {
  cohort: string;
}

const managedBy = (c: Cohort) => (c.scimManaged ? 'your directory (SCIM)' : 'you');
const roadmapsOf = (c: Cohort) => c.roadmaps.map((r) => r.name).join(', ');

export async function listCohorts(ctx: Context): Promise<void> {
  const { client } = ctx.signedIn();
  const { data } = await client.call(cohortList, { signal: ctx.signal });
  const { output } = ctx;
  if (output.json) {
    for (const c of data) output.emit(c);
    return;
  }
  if (output.mode === 'plain') {
    for (const c of data)
      output.line(
        [c._id, c.name, c.memberCount, c.scimManaged ? 'scim' : 'portal', roadmapsOf(c)].join('\t'),
      );
    return;
  }
  const [{ Once, runInk }, { TableView }] = await Promise.all([
    import('../../ui/render'),
    import('../../ui/TableView'),
  ]);
  await runInk(
    <Once>
      <TableView
        rows={data}
        empty="No cohorts yet. Make one with `waymark cohorts create <name>`."
        columns={[
          { header: 'Name', value: (c) => c.name },
          { header: 'Members', value: (c) => String(c.memberCount) },
          { header: 'Roadmaps', value: (c) => roadmapsOf(c) || '—' },
          { header: 'Managed by', value: managedBy },
          { header: 'Id', value: (c) => c._id, dim: true },
        ]}
      />
    </Once>,
    ctx.io,
  );
}

export async function showCohort(ctx: Context, options: CohortsShowOptions): Promise<void> {
  const { client } = ctx.signedIn();
  const found = await findCohort(client, options.cohort, ctx.signal);
  const { data } = await client.call(cohortShow, { params: { id: found._id }, signal: ctx.signal });
  const { members, ...cohort } = data;
  const { output } = ctx;
  if (output.json) {
    output.emit({ event: 'cohort', ...cohort });
    for (const m of members) output.emit({ event: 'member', ...m });
    return;
  }
  if (output.mode === 'plain') {
    for (const m of members)
      output.line([m._id, m.email, m.name ?? '', m.isDisabled ? 'removed' : 'active', m.addedAt].join('\t'));
    return;
  }
  output.line(
    `${cohort.name}: ${members.length} ${members.length === 1 ? 'member' : 'members'}, managed by ${managedBy(cohort)}`,
  );
  if (cohort.roadmaps.length) output.line(`Roadmaps every member gets: ${roadmapsOf(cohort)}`);
  const [{ Once, runInk }, { TableView }] = await Promise.all([
    import('../../ui/render'),
    import('../../ui/TableView'),
  ]);
  await runInk(
    <Once>
      <TableView
        rows={members}
        dimRow={(m) => m.isDisabled}
        empty="No members yet. Add learners with `waymark cohorts add <cohort> <email…>`."
        columns={[
          { header: 'Name', value: (m) => m.name ?? '—' },
          { header: 'E-mail', value: (m) => m.email },
          { header: 'Seat', value: (m) => (m.isDisabled ? 'removed' : 'active') },
          { header: 'Joined', value: (m) => formatDateTime(m.addedAt) },
          { header: 'Id', value: (m) => m._id, dim: true },
        ]}
      />
    </Once>,
    ctx.io,
  );
}
