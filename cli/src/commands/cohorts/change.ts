/**
 * `waymark cohorts create|add|remove|delete`: changes to the mentor's cohorts through the cohort calls
 * (POST /tenant/cohorts, …/members, …/members/remove, DELETE …). Learners are named by e-mail or id and all
 * found before anything changes: a typo stops the command with nothing done. A cohort the directory
 * manages over SCIM is refused by the server (409 COHORT_MANAGED_BY_SCIM), its message said as it is.
 */
import { runPool } from '@shared/client/pool';
import {
  addCohortMembers,
  cohortShow,
  createCohort as createCohortCall,
  deleteCohort as deleteCohortCall,
  removeCohortMembers,
} from '@shared/contract/cohorts';
import { CohortNameInput } from '@shared/schemas/tenant';
import type { Context } from '../../core/context';
import { CancelledError, usageError } from '../../core/errors';
import { classifyPeople, type Person, peopleFromArguments } from '../../core/people';
import { confirm } from '../../core/prompt';
import { findSeatHolder } from '../../core/seats';
import { failWithProblems } from '../bulk';
import { findCohort } from './find';

export interface CohortsCreateOptions {
  name: string;
}
export interface CohortsChangeOptions {
  cohort: string;
  learner: string[];
}
export interface CohortsDeleteOptions {
  cohort: string;
  yes?: boolean;
}

/** The server takes at most this many learners a call (CohortMembersInput). */
const MEMBERS_PER_CALL = 500;

export async function createCohort(ctx: Context, options: CohortsCreateOptions): Promise<void> {
  const parsed = CohortNameInput.safeParse({ name: options.name });
  if (!parsed.success) throw usageError(`<name>: ${parsed.error.issues[0]!.message}`);
  const { client } = ctx.signedIn();
  const { data } = await client.call(createCohortCall, { body: parsed.data, signal: ctx.signal });
  if (ctx.output.json) ctx.output.emit({ event: 'created', ...data });
  else ctx.output.line(`Made cohort “${data.name}” (${data._id}).`);
}

interface Learner {
  id: string;
  email: string;
}

/** Each person among `known` (the cohort's members, to remove) or the tenant's seats (to add). */
async function resolve(
  ctx: Context,
  people: Person[],
  known: Learner[] | null,
): Promise<{ found: Learner[]; missing: Person[] }> {
  const { client } = ctx.signedIn();
  if (known) {
    const pick = (p: Person) =>
      known.find((k) => (p.kind === 'email' ? k.email.toLowerCase() === p.email : k.id === p.id));
    return {
      found: people.map(pick).filter((k): k is Learner => Boolean(k)),
      missing: people.filter((p) => !pick(p)),
    };
  }
  const holders = await runPool(people, (p) => findSeatHolder(client, p, ctx.signal), {
    concurrency: 4,
    signal: ctx.signal,
    isFatal: () => true,
  });
  if (holders.fatal) throw holders.fatal;
  const found: Learner[] = [];
  const missing: Person[] = [];
  people.forEach((p, i) => {
    const h = holders.outcomes[i];
    if (h?.ok && h.value) found.push({ id: h.value.learnerId, email: h.value.email });
    else missing.push(p);
  });
  return { found, missing };
}

export async function changeMembers(
  ctx: Context,
  verb: 'add' | 'remove',
  options: CohortsChangeOptions,
): Promise<void> {
  const { people, problems } = classifyPeople(peopleFromArguments(options.learner), { ids: true });
  if (problems.length) failWithProblems(ctx, problems, { summary: 'Nothing was changed.' });
  const { client } = ctx.signedIn();
  const cohort = await findCohort(client, options.cohort, ctx.signal);
  const members =
    verb === 'remove'
      ? (await client.call(cohortShow, { params: { id: cohort._id }, signal: ctx.signal })).data.members.map(
          (m) => ({ id: m._id, email: m.email }),
        )
      : null;
  const { found, missing } = await resolve(ctx, people, members);
  if (missing.length) {
    const message = verb === 'add' ? 'holds none of your seats' : `is not in “${cohort.name}”`;
    failWithProblems(
      ctx,
      missing.map((p) => ({ where: p.where, raw: p.raw, message })),
      {
        summary: 'Nothing was changed.',
        hint: verb === 'add' ? 'Give them a seat first: `waymark seats add <email>`.' : undefined,
      },
    );
  }
  const changed = new Set<string>();
  const call = verb === 'add' ? addCohortMembers : removeCohortMembers;
  for (let i = 0; i < found.length; i += MEMBERS_PER_CALL) {
    const learnerIds = found.slice(i, i + MEMBERS_PER_CALL).map((l) => l.id);
    const { data } = await client.call(call, {
      params: { id: cohort._id },
      body: { learnerIds },
      signal: ctx.signal,
    });
    for (const id of 'added' in data ? data.added : data.removed) changed.add(id);
  }
  const { output } = ctx;
  const done = verb === 'add' ? 'added' : 'removed';
  for (const l of found) {
    const status = changed.has(l.id) ? done : verb === 'add' ? 'alreadyMember' : 'notMember';
    if (output.json)
      output.emit({ event: 'member', status, cohortId: cohort._id, learnerId: l.id, email: l.email });
  }
  if (output.json) return;
  const unchanged = found.length - changed.size;
  output.line(
    `${verb === 'add' ? 'Added' : 'Removed'} ${changed.size} ${changed.size === 1 ? 'learner' : 'learners'} ${verb === 'add' ? 'to' : 'from'} “${cohort.name}”${unchanged ? ` (${unchanged} ${verb === 'add' ? 'already in it' : 'not in it'})` : ''}.`,
  );
}

export async function deleteCohort(ctx: Context, options: CohortsDeleteOptions): Promise<void> {
  const { client } = ctx.signedIn();
  const cohort = await findCohort(client, options.cohort, ctx.signal);
  const { output } = ctx;
  if (!options.yes) {
    if (!ctx.io.stdin.isTTY)
      throw usageError('Deleting a cohort needs confirmation.', 'Run it again with --yes.');
    output.note(`“${cohort.name}” has ${cohort.memberCount} members; they keep their seats and roadmaps.`);
    if (!(await confirm('Delete it?', { stdin: ctx.io.stdin, stderr: ctx.io.stderr })))
      throw new CancelledError('Nothing was deleted.');
  }
  await client.call(deleteCohortCall, { params: { id: cohort._id }, signal: ctx.signal });
  if (output.json) output.emit({ event: 'deleted', _id: cohort._id, name: cohort.name });
  else output.line(`Deleted cohort “${cohort.name}”.`);
}
