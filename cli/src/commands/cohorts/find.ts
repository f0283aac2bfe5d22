/** A cohort named on the command line: by its id, or its name in any case, among the mentor's cohorts. */
import type { Client } from '@shared/client/client';
import { cohortList } from '@shared/contract/cohorts';
import type { Cohort } from '@shared/schemas/tenant';
import { CliError, ExitCode } from '../../core/errors';

export async function findCohort(client: Client, text: string, signal?: AbortSignal): Promise<Cohort> {
  const wanted = text.trim();
  const cohorts = (await client.call(cohortList, { signal })).data;
  const found =
    cohorts.find((c) => c._id === wanted.toLowerCase()) ??
    cohorts.find((c) => c.name.toLowerCase() === wanted.toLowerCase());
  if (!found) {
    throw new CliError(`${wanted} is not one of your cohorts.`, ExitCode.notFound, {
      hint: '`waymark cohorts list` shows them, with their ids.',
    });
  }
  return found;
}
