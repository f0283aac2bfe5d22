/**
 * `waymark audit [--action <a>] [--actor-kind <k>] [--actor <id>] [--from <day>] [--to <day>]`: the
 * tenant's activity log (issue 28 item 4), newest first — GET /tenant/audit-log, `--limit` entries (50) or
 * every one with `--all`, read page after page — as a table at a terminal, tab-separated lines
 * (--no-json) or one entry a line (--json); `--csv` (or `-o file.csv`) writes the server's CSV of the whole
 * filter (GET /tenant/export/audit-log) as the portal's Download CSV does.
 */
import { ApiError } from '@shared/client/client';
import { auditLog, exportAuditLog } from '@shared/contract/integrations';
import { formatDateTime } from '@shared/rules/format-date';
import { ACTOR_KINDS, type AuditEntry, AuditQuery } from '@shared/schemas/integrations';
import type { Context } from '../core/context';
import { usageError } from '../core/errors';
import { saveDownload } from '../core/save';
import { dayOption } from './reports';

export interface AuditOptions {
  action?: string;
  actorKind?: string;
  actor?: string;
  from?: string;
  to?: string;
  limit?: string;
  all?: boolean;
  csv?: boolean;
  output?: string;
}

/** The options as the call's filter: days (UTC) as times, the last day included. */
export function auditFilter(options: AuditOptions) {
  if (options.actorKind && !(ACTOR_KINDS as readonly string[]).includes(options.actorKind))
    throw usageError(
      `--actor-kind: "${options.actorKind}" is not a kind of actor`,
      `Choose one of: ${ACTOR_KINDS.join(', ')}.`,
    );
  const from = options.from ? new Date(dayOption(options.from, '--from') * 1000).toISOString() : undefined;
  const to = options.to ? new Date((dayOption(options.to, '--to') + 86_400) * 1000).toISOString() : undefined;
  if (from && to && to <= from) throw usageError(`--to (${options.to}) is before --from (${options.from})`);
  const parsed = AuditQuery.safeParse({
    action: options.action?.trim() || undefined,
    actorKind: options.actorKind || undefined,
    actorId: options.actor?.trim() || undefined,
    from,
    to,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const option = { action: '--action', actorId: '--actor' }[String(issue.path[0])] ?? '--from';
    throw usageError(`${option}: ${issue.message}`);
  }
  return parsed.data;
}

const plain = (v: unknown) => (v === null || v === undefined ? '' : String(v).replace(/[\t\r\n]+/g, ' '));

export async function auditCommand(ctx: Context, options: AuditOptions): Promise<void> {
  const filter = auditFilter(options);
  const limit = Number(options.limit ?? 50);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100_000)
    throw usageError('--limit: must be a whole number of entries, at least 1');
  const { client } = ctx.signedIn();
  const { output } = ctx;

  if (options.csv || options.output?.toLowerCase().endsWith('.csv')) {
    const res = await (client.download as (c: typeof exportAuditLog, a: object) => Promise<Response>)(
      exportAuditLog,
      {
        query: { ...filter, format: 'csv' },
        signal: ctx.signal,
      },
    );
    return saveDownload(ctx, res, options.output);
  }

  const entries: AuditEntry[] = [];
  let cursor: string | undefined;
  let more = false;
  do {
    const want = options.all ? 100 : Math.min(100, limit - entries.length);
    const page = await client
      .call(auditLog, {
        query: { ...filter, limit: want, ...(cursor ? { cursor } : {}) },
        signal: ctx.signal,
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 400 && err.field === 'action')
          throw usageError(`--action: ${err.message.replace(/^\w+: /, '')}`);
        throw err;
      });
    for (const e of page.data.entries) {
      if (output.json) output.emit(e);
      else if (output.mode === 'plain')
        output.line(
          [e.occurredAt, e.action, e.actor.kind, e.actor.label, e.target.kind, e.target.id, e.summary, e.ip]
            .map(plain)
            .join('\t'),
        );
      else entries.push(e);
    }
    cursor = page.data.nextCursor ?? undefined;
    const read = entries.length + (output.mode === 'interactive' ? 0 : page.data.entries.length);
    more = Boolean(cursor) && !options.all && read >= limit;
    if (!options.all && read >= limit) break;
  } while (cursor);
  if (output.mode !== 'interactive') return;
  const [{ Once, runInk }, { TableView }] = await Promise.all([
    import('../ui/render'),
    import('../ui/TableView'),
  ]);
  const { createElement: h } = await import('react');
  await runInk(
    h(
      Once,
      null,
      h(TableView<AuditEntry>, {
        rows: entries,
        empty: 'No activity found.',
        columns: [
          { header: 'Time', value: (e) => formatDateTime(e.occurredAt) },
          { header: 'Who', value: (e) => e.actor.label },
          { header: 'Action', value: (e) => e.action },
          { header: 'What happened', value: (e) => e.summary },
          { header: 'From', value: (e) => e.ip ?? '', dim: true },
        ],
        footer: `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}${more ? ' · newest first; --all for every one, --csv for a spreadsheet' : ''}`,
      }),
    ),
    ctx.io,
  );
}
