/**
 * The activity log's calls (shared/contract/integrations.ts): a page of the tenant's log, and all of it as a
 * file (CSV or NDJSON, as every table to take away: server/tenant/exports.ts's serialiser).
 */
import { auditRouter } from '@shared/contract/integrations';
import { CSV_CONTENT_TYPE, downloadName } from '@shared/rules/csv';
import type { AuditEntry } from '@shared/schemas/integrations';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { fileResponse } from '../../http/download';
import { badRequest } from '../../http/errors';
import { ok, serve } from '../../http/routes';
import { serialise } from '../../tenant/exports';
import { auditPage, auditRows } from '../core/audit';

/** The file's columns, in order. */
export const AUDIT_COLUMNS = [
  'Time',
  'Action',
  'Actor kind',
  'Actor',
  'Actor id',
  'Target kind',
  'Target id',
  'Summary',
  'IP address',
  'User agent',
  'Details',
] as const;

const toRow = (e: AuditEntry) => ({
  Time: e.occurredAt,
  Action: e.action,
  'Actor kind': e.actor.kind,
  Actor: e.actor.label,
  'Actor id': e.actor.id,
  'Target kind': e.target.kind,
  'Target id': e.target.id,
  Summary: e.summary,
  'IP address': e.ip,
  'User agent': e.userAgent,
  Details: JSON.stringify(e.details),
});

async function* rowsOf(entries: AsyncIterable<AuditEntry>) {
  for await (const e of entries) yield toRow(e);
}

/** NDJSON: each entry as the API gives it, one a line. */
async function* lines(entries: AsyncIterable<AuditEntry>) {
  let chunk = '';
  for await (const e of entries) {
    chunk += `${JSON.stringify(e)}\n`;
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

export function auditRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  serve(app, auditRouter, {
    async auditLog({ query, caller }) {
      const { cursor, limit, ...filter } = query;
      const page = await auditPage(db, caller.id, filter, { cursor, limit });
      if (!page) throw badRequest('cursor: is not a cursor of this log', 'cursor');
      return ok({ data: page });
    },

    async exportAuditLog({ query, caller, reply }) {
      const { format, ...filter } = query;
      return fileResponse(reply, {
        filename: downloadName('activity-log', format === 'csv' ? 'csv' : 'json').replace(
          /\.json$/,
          '.ndjson',
        ),
        contentType: format === 'csv' ? CSV_CONTENT_TYPE : 'application/x-ndjson; charset=utf-8',
        chunks:
          format === 'csv'
            ? serialise({ columns: AUDIT_COLUMNS, rows: rowsOf(auditRows(db, caller.id, filter)) }, 'csv')
            : lines(auditRows(db, caller.id, filter)),
      });
    },
  });
}
