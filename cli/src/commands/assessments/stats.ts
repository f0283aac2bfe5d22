/**
 * `waymark assessments stats <id>`: an assessment's statistics (GET /tenant/assessment/{id}/stats), or — for
 * the platform's staff — one of the platform's tests by its key (`SUBJECT:{subjectId}`, GET
 * /admin/test/{key}/stats): the figures of the test, then its questions, flagged first. --json prints the whole
 * answer as one JSON value, --csv the question table as the server's export writes it.
 */
import { assessmentStats, platformTestStats } from '@shared/contract/analysis';
import type { Context } from '../../core/context';
import { printStatsTable, summaryLines, writeStatsCsv } from '../../core/stats';

export interface AssessmentsStatsOptions {
  id: string;
  csv?: boolean;
  output?: string;
}

export async function assessmentStatsCommand(ctx: Context, options: AssessmentsStatsOptions): Promise<void> {
  const { client } = ctx.signedIn();
  const platform = options.id.includes(':');
  const { data } = platform
    ? await client.call(platformTestStats, { params: { testKey: options.id }, signal: ctx.signal })
    : await client.call(assessmentStats, { params: { assessmentId: options.id }, signal: ctx.signal });
  const { output } = ctx;
  if (await writeStatsCsv(ctx, data.questions, options)) return;
  if (output.json) {
    output.emit(data);
    return;
  }
  const flagged = data.questions.filter((q) => q.figures.flags.length > 0).length;
  await printStatsTable(ctx, data.questions, {
    summary: [`${data.assessment.name}`, ...summaryLines(data.summary)],
    positions: !platform,
    footer: `${data.questions.length} question${data.questions.length === 1 ? '' : 's'}, ${flagged} flagged · --json for every figure (options, rules), --csv for a spreadsheet`,
  });
}
