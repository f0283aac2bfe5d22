/**
 * `waymark questions stats`: the question bank's figures (GET /tenant/question/stats: the questions you wrote or
 * use, over your assessments' attempts), or with --platform the platform's own bank for its staff. NDJSON
 * with --json (one question a line), the export's CSV with --csv.
 */
import { platformQuestionStats, questionBankStats } from '@shared/contract/analysis';
import type { Context } from '../../core/context';
import { flaggedFirst, printStatsTable, writeStatsCsv } from '../../core/stats';

export interface QuestionsStatsOptions {
  platform?: boolean;
  csv?: boolean;
  output?: string;
}

export async function questionStatsCommand(ctx: Context, options: QuestionsStatsOptions): Promise<void> {
  const { client } = ctx.signedIn();
  const { data } = options.platform
    ? await client.call(platformQuestionStats, { signal: ctx.signal })
    : await client.call(questionBankStats, { signal: ctx.signal });
  const { output } = ctx;
  if (await writeStatsCsv(ctx, data.questions, options)) return;
  if (output.json) {
    for (const q of flaggedFirst(data.questions)) output.emit(q);
    return;
  }
  const flagged = data.questions.filter((q) => q.figures.flags.length > 0).length;
  await printStatsTable(ctx, data.questions, {
    positions: false,
    footer: `${data.questions.length} question${data.questions.length === 1 ? '' : 's'}, ${flagged} flagged, over ${data.attempts} attempt${data.attempts === 1 ? '' : 's'} · --json for every figure, --csv for a spreadsheet`,
  });
}
