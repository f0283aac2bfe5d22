/**
 * Sharing an assessment (mentor §5), without any UI: the start time and duration checked with the contract's
 * own schema and the editor's rules before the call, learners named by e-mail resolved to their user ids,
 * and the call itself (PUT /tenant/assessment/{id}/assign-users), in batches of the most it takes at once.
 */
import { ApiError, type Client } from '@shared/client/client';
import { runPool } from '@shared/client/pool';
import { assignAssessmentUsers } from '@shared/contract/authoring';
import type { Question } from '@shared/schemas/assessment';
import { editorMessages, MIN_QUESTIONS_TO_SHARE, ShareAssessmentInput } from '@shared/schemas/authoring';
import type { Person, PersonProblem } from './people';
import { findSeatHolder } from './seats';

/** The most learners one assign-users call takes (ShareAssessmentInput.userIds). */
export const SHARE_BATCH = 500;
const STEP_MS = 15 * 60_000;
/** Stands in for the learners while the timing alone is checked with the share's schema. */
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

export interface ShareTiming {
  startTime: number;
  duration: number;
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** Parses --start (an ISO 8601 time) and --duration (whole hours); every problem names its option. */
export function parseShareTiming(
  start: string | undefined,
  duration: string | undefined,
  now: number,
): { ok: true; timing: ShareTiming } | { ok: false; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  let startTime = Number.NaN;
  if (!start?.trim()) problems.push({ field: '--start', message: editorMessages.invalidShare });
  else {
    const text = start.trim();
    // ISO 8601 only (Date.parse would take much else); without a zone it is this computer's local time
    startTime = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/i.test(text)
      ? Date.parse(text)
      : Number.NaN;
    if (!Number.isFinite(startTime)) {
      problems.push({
        field: '--start',
        message: `"${text}" is not an ISO 8601 time such as 2026-03-02T09:30:00Z`,
      });
    }
  }
  let hours = Number.NaN;
  if (!duration?.trim()) problems.push({ field: '--duration', message: editorMessages.invalidShare });
  else {
    hours = Number(duration.trim());
    if (!Number.isFinite(hours)) problems.push({ field: '--duration', message: 'must be a number of hours' });
  }
  if (problems.length) return { ok: false, problems };

  // the contract's own rules (15-minute steps, whole hours, at least 1), each option checked with a valid
  // value for the other so that both are reported; then "not before now"
  const validStart = Math.ceil(now / STEP_MS) * STEP_MS;
  const check = (field: string, values: { startTime: number; duration: number }) => {
    const checked = ShareAssessmentInput.safeParse({ userIds: [PLACEHOLDER_ID], createdAt: now, ...values });
    const issue = checked.success ? undefined : checked.error.issues[0];
    if (!issue) return;
    const message =
      field === '--duration' && !Number.isInteger(hours) ? 'must be a whole number of hours' : issue.message;
    problems.push({ field, message });
  };
  check('--start', { startTime, duration: 1 });
  check('--duration', { startTime: validStart, duration: hours });
  // in the past is said even beside another problem of --start: fixing only the step would not do
  if (Number.isFinite(startTime) && startTime < now) {
    problems.push({
      field: '--start',
      message: `The start time cannot be in the past (it is ${new Date(now).toISOString()} now)`,
    });
  }
  if (problems.some((p) => p.field === '--start' && /15-minute/.test(p.message))) {
    // the example is a valid time: the next step after the one given, or after now if that is later
    const next = Math.ceil(Math.max(startTime, now) / STEP_MS) * STEP_MS;
    const p = problems.find((q) => q.field === '--start')!;
    p.message = `${p.message}: for example ${new Date(next).toISOString()}`;
  }
  if (problems.length) return { ok: false, problems };
  return { ok: true, timing: { startTime, duration: hours } };
}

/** Published questions count toward sharing (a never-saved draft does not). */
export const shareableQuestionCount = (a: { questions: readonly Pick<Question, 'status'>[] }) =>
  a.questions.filter((q) => q.status === 'PUBLISH').length;

export function checkShareable(a: { questions: readonly Pick<Question, 'status'>[] }): FieldProblem | null {
  const n = shareableQuestionCount(a);
  return n >= MIN_QUESTIONS_TO_SHARE
    ? null
    : { field: 'questions', message: `${editorMessages.minQuestionsToShare} It has ${n}.` };
}

export interface Learner {
  _id: string;
  email: string;
  name: string | null;
}

/**
 * Finds each person (by e-mail address or learner id) among the tenant's learners. One who is not, or whose
 * seat was removed (disabled until the end of the billing cycle), is a problem naming its line.
 */
export async function resolveLearners(
  client: Client,
  people: readonly Person[],
  options: { concurrency: number; signal?: AbortSignal },
): Promise<{ learners: (Learner & { where: string })[]; problems: PersonProblem[] }> {
  const learners: (Learner & { where: string })[] = [];
  const problems: PersonProblem[] = [];
  const found = await runPool(people, (person) => findSeatHolder(client, person, options.signal), {
    concurrency: options.concurrency,
    signal: options.signal,
    isFatal: () => true,
  });
  if (found.fatal) throw found.fatal;
  people.forEach((person, i) => {
    const outcome = found.outcomes[i];
    const learner = outcome?.ok ? outcome.value : null;
    if (!learner)
      problems.push({ where: person.where, raw: person.raw, message: 'is not one of your learners' });
    else if (learner.isDisabled)
      problems.push({
        where: person.where,
        raw: person.raw,
        message: 'was removed from your learners (the seat is disabled)',
      });
    else
      learners.push({
        _id: learner.learnerId,
        email: learner.email,
        name: learner.name,
        where: person.where,
      });
  });
  return { learners, problems };
}

/** Learners who already have a test of the assessment (the server's 409 ALREADY_SHARED). */
export class AlreadySharedError extends Error {
  constructor(
    readonly learners: readonly { _id: string; email: string; sharedAt: string }[],
    /** Links made by earlier batches of this share before the refusal. */
    readonly created: number,
  ) {
    super(
      `${learners.length === 1 ? '1 learner already has' : `${learners.length} learners already have`} a test of this assessment`,
    );
    this.name = 'AlreadySharedError';
  }
}

/**
 * Shares in batches of SHARE_BATCH; returns the links created. Without `force` the server refuses a batch
 * holding a learner who already has a test of the assessment: thrown as AlreadySharedError.
 */
export async function shareAssessment(
  client: Client,
  assessmentId: string,
  userIds: readonly string[],
  timing: ShareTiming,
  signal?: AbortSignal,
  force = false,
): Promise<{ created: number; linkIds: string[] }> {
  let created = 0;
  const linkIds: string[] = [];
  for (let i = 0; i < userIds.length; i += SHARE_BATCH) {
    try {
      const { data } = await client.call(assignAssessmentUsers, {
        params: { id: assessmentId },
        body: {
          userIds: userIds.slice(i, i + SHARE_BATCH),
          createdAt: Date.now(),
          startTime: timing.startTime,
          duration: timing.duration,
          ...(force ? { force: true } : {}),
        },
        signal,
      });
      created += data.created;
      linkIds.push(...data.linkIds);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.errorCode === 'ALREADY_SHARED')
        throw new AlreadySharedError(err.body.alreadyShared ?? [], created);
      throw err;
    }
  }
  return { created, linkIds };
}
