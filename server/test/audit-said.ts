/**
 * The activity log's entries as the portal says them again (issue 31): each entry a test made is said from
 * its action and details (shared/rules/audit-words.ts) in the very English the server wrote, so the details
 * carry all the sentence names, and a Spanish or Arabic reader reads the same.
 */

import { asStored, auditSaid } from '@shared/rules/audit-words';
import type { AuditAction } from '@shared/schemas/integrations';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../db/client';
import { auditEvents } from '../integrations/core/tables';
import { english } from '../lib/i18n';

/** Every entry of the tenant's log is said again as written; `actions`: those the test must have made. */
export async function expectLogSaid(
  db: Db,
  tenantId: string,
  actions: readonly AuditAction[],
): Promise<void> {
  const rows = await db.select().from(auditEvents).where(eq(auditEvents.tenantId, tenantId));
  const { t } = english();
  for (const row of rows) {
    const said = auditSaid(row, asStored(t));
    expect(said, `${row.action}: ${row.summary} ${JSON.stringify(row.details)}`).not.toBeNull();
    expect(t(said![0], said![1]), row.action).toBe(row.summary);
  }
  for (const action of actions)
    expect(
      rows.map((r) => r.action),
      action,
    ).toContain(action);
}
