/**
 * `waymark assessments share <id> --users … --start … --duration …`: gives each learner a custom test of
 * the assessment, open from the start time for the duration (PUT /tenant/assessment/{id}/assign-users).
 * The rules of mentor §5 are checked here first (at least 10 questions, start not before now and on a
 * 15-minute step, a duration of at least 1 hour, learners who are yours); the server has the last word.
 */
import { getAssessment } from '@shared/contract/authoring';
import { formatDateTime } from '@shared/rules/format-date';
import { Id } from '@shared/schemas/common';
import {
  AlreadySharedError,
  checkShareable,
  type FieldProblem,
  parseShareTiming,
  resolveLearners,
  shareAssessment,
  shareableQuestionCount,
} from '../../core/assessments';
import type { Context } from '../../core/context';
import { CliError, ExitCode, usageError } from '../../core/errors';
import { intOption } from '../../core/files';
import { classifyPeople, type PersonProblem, readPeopleOption } from '../../core/people';

export interface AssessmentsShareOptions {
  id: string;
  users?: string;
  start?: string;
  duration?: string;
  concurrency?: string;
  dryRun?: boolean;
  force?: boolean;
}

type Problem = FieldProblem | (PersonProblem & { field?: undefined });

function fail(ctx: Context, problems: readonly Problem[], summary: string, hint?: string): never {
  const say = (p: Problem) =>
    'where' in p
      ? `--users ${p.where}: ${p.raw ? `${p.raw}: ` : ''}${p.message}`
      : `${p.field}: ${p.message}`;
  const first = problems[0];
  if (ctx.output.json) {
    for (const p of problems) ctx.output.emit({ event: 'invalid', ...p });
  } else if (problems.length > 1) for (const p of problems) ctx.output.note(say(p));
  throw new CliError(
    problems.length === 1 && first ? say(first) : summary,
    ExitCode.badInput,
    hint ? { hint } : {},
  );
}

/**
 * Everything about a share that can be checked without the server — its timing and its learners —,
 * the problems reported together (and nothing shared); repeated learners are left out, with a note.
 */
function checkedLocally(ctx: Context, options: AssessmentsShareOptions) {
  const timing = parseShareTiming(options.start, options.duration, Date.now());
  const read = readPeopleOption(options.users!, 'entry');
  const { people, duplicates, problems: peopleProblems } = classifyPeople(read.entries, { ids: true });
  const local: Problem[] = [...(timing.ok ? [] : timing.problems), ...read.problems, ...peopleProblems];
  if (!people.length && !local.some((p) => 'where' in p)) {
    local.push({ field: '--users', message: 'Please provide valid input (no learners given)' });
  }
  if (local.length || !timing.ok) {
    fail(ctx, local, `${local.length} problems with the share; nothing was shared.`);
  }
  if (duplicates.length) {
    ctx.output.note(
      `Left out ${duplicates.length} repeated learner${duplicates.length === 1 ? '' : 's'} (${duplicates
        .slice(0, 3)
        .map((d) => `${d.where} repeats ${d.of}`)
        .join(', ')}${duplicates.length > 3 ? ', …' : ''}).`,
    );
  }
  return { timing, people };
}

export async function shareAssessmentCommand(ctx: Context, options: AssessmentsShareOptions): Promise<void> {
  if (!Id.safeParse(options.id).success) {
    throw new CliError(`"${options.id}" is not an assessment id.`, ExitCode.badInput, {
      hint: 'Run `waymark assessments list` to see their ids.',
    });
  }
  if (!options.users?.trim())
    throw usageError('--users: give a file, or a comma-separated list of e-mail addresses or ids.');
  const concurrency = intOption(options.concurrency, '--concurrency', 1, 16, 4);

  const { timing, people } = checkedLocally(ctx, options);
  const { client } = ctx.signedIn();
  const { output } = ctx;
  const run = async () => {
    const { data: assessment } = await client.call(getAssessment, {
      params: { assessmentId: options.id },
      signal: ctx.signal,
    });
    const tooFew = checkShareable(assessment);
    if (tooFew) fail(ctx, [tooFew], tooFew.message);
    const { learners, problems } = await resolveLearners(client, people, { concurrency, signal: ctx.signal });
    if (problems.length) {
      fail(
        ctx,
        problems,
        `${problems.length} of the ${people.length} learners cannot be given this assessment; nothing was shared.`,
        'Add them first with `waymark seats add`, or leave them out.',
      );
    }
    const plan = {
      assessmentId: assessment._id,
      name: assessment.name,
      questions: shareableQuestionCount(assessment),
      startTime: new Date(timing.timing.startTime).toISOString(),
      endTime: new Date(timing.timing.startTime + timing.timing.duration * 3600_000).toISOString(),
      duration: timing.timing.duration,
      learners: learners.map((l) => ({ _id: l._id, ...(l.email ? { email: l.email } : {}) })),
    };
    if (options.dryRun) return { plan, result: null };
    try {
      const result = await shareAssessment(
        client,
        assessment._id,
        learners.map((l) => l._id),
        timing.timing,
        ctx.signal,
        Boolean(options.force),
      );
      return { plan, result };
    } catch (err) {
      if (!(err instanceof AlreadySharedError)) throw err;
      const had = err.learners;
      fail(
        ctx,
        had.map((l) => ({
          field: '--users',
          message: `${l.email || l._id} already has a test of this assessment (shared ${formatDateTime(l.sharedAt)})`,
        })),
        `${had.length} of the ${learners.length} learners already have a test of “${assessment.name}”; ${
          err.created ? `${err.created} were given one before the refusal, the rest` : 'nothing'
        } was shared.`,
        'Leave them out, or add --force to give each of them another test and e-mail.',
      );
    }
  };

  const describeOpen = (plan: Awaited<ReturnType<typeof run>>['plan']) =>
    `opens ${formatDateTime(plan.startTime)} for ${plan.duration} hour${plan.duration === 1 ? '' : 's'} (until ${formatDateTime(plan.endTime)})`;

  if (output.mode !== 'interactive') {
    const { plan, result } = await run();
    if (output.json) {
      output.emit(
        result
          ? { event: 'shared', ...plan, created: result.created, linkIds: result.linkIds }
          : { event: 'share', status: 'wouldShare', ...plan, dryRun: true },
      );
    } else {
      for (const l of plan.learners) output.line(`${result ? 'shared' : 'would share'}\t${l.email ?? l._id}`);
      output.line(
        result
          ? `Shared “${plan.name}” with ${result.created} learner${result.created === 1 ? '' : 's'}: it ${describeOpen(plan)}.`
          : `Would share “${plan.name}” with ${plan.learners.length} learner${plan.learners.length === 1 ? '' : 's'}: it ${describeOpen(plan)}. Nothing was written (--dry-run).`,
      );
    }
    return;
  }
  const { runInk } = await import('../../ui/render');
  const { Done, TaskApp } = await import('../../ui/TaskApp');
  await runInk(
    <TaskApp
      label={options.dryRun ? 'Checking the share…' : 'Sharing the assessment…'}
      onCancel={ctx.cancel}
      run={async () => {
        const { plan, result } = await run();
        const n = result ? result.created : plan.learners.length;
        return (
          <Done>
            {result ? 'Shared' : 'Would share'} “{plan.name}” ({plan.questions} questions) with {n} learner
            {n === 1 ? '' : 's'}: it {describeOpen(plan)}.{result ? '' : ' Nothing was written (--dry-run).'}
          </Done>
        );
      }}
    />,
    ctx.io,
  );
}

/** For the help: the next quarter hour at least an hour from now. */
