/**
 * The partitioned tables' keys as server/db/partitions.ts makes them are the ones Drizzle's schema
 * (server/activity/tables.ts) declares, so the migrations' snapshots and the database say the same.
 */
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { erasures, heartbeats, spans } from '../activity/tables';
import { BACK_DAYS, PARTITIONED, unitStart } from './partitions';

const declared: Record<string, PgTable> = {
  activity_heartbeats: heartbeats,
  activity_spans: spans,
  activity_erasures: erasures,
};

describe('the partitioned tables', () => {
  for (const t of PARTITIONED) {
    it(`${t.name}: the key and indexes are the schema's, and the key holds the partition key`, () => {
      const config = getTableConfig(declared[t.name]!);
      expect(config.name).toBe(t.name);
      expect(config.primaryKeys).toEqual([]);
      expect(
        config.uniqueConstraints.map((k) => ({ name: k.getName(), columns: k.columns.map((c) => c.name) })),
      ).toEqual([{ name: t.key.name, columns: [...t.key.columns] }]);
      expect(t.key.columns.every((c) => config.columns.find((x) => x.name === c)?.notNull)).toBe(true);
      expect(
        config.indexes.map((i) => ({
          name: i.config.name,
          columns: i.config.columns.map((c) => (c as { name: string }).name),
        })),
      ).toEqual(t.indexes.map((i) => ({ name: i.name, columns: [...i.columns] })));
      expect(t.key.columns).toContain(t.column);
      expect(config.columns.map((c) => c.name)).toContain(t.column);
    });
  }

  it('keeps a late heartbeat reachable: 30 days and its window back', () => {
    expect(BACK_DAYS).toBe(31);
  });

  it('finds the unit a time falls in, in UTC', () => {
    const t = Date.UTC(2026, 0, 31, 23, 59, 59);
    expect(unitStart('day', t)).toBe(Date.UTC(2026, 0, 31));
    expect(unitStart('month', t)).toBe(Date.UTC(2026, 0, 1));
    expect(unitStart('month', Date.UTC(2028, 1, 29, 12))).toBe(Date.UTC(2028, 1, 1));
  });
});
