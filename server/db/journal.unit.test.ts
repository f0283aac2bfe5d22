/**
 * The migrations' journal in the order drizzle's migrator needs: it applies a migration only when its `when`
 * is later than the last one the database has applied, so a migration merged with an earlier `when` than
 * one before it — or one dated in the future, which every later migration would fall behind — is silently
 * skipped on a database that is already up to date. Each entry's file must exist too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const folder = fileURLToPath(new URL('./migrations', import.meta.url));
const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as {
  entries: { idx: number; when: number; tag: string }[];
};

describe('the migrations journal', () => {
  it('dates every migration after the one before it, and none in the future', () => {
    const out = journal.entries.filter(
      (e, i) => e.when > Date.now() || (i > 0 && e.when <= journal.entries[i - 1]!.when),
    );
    expect(out.map((e) => e.tag)).toEqual([]);
  });

  it('names a file for each migration, and each number once', () => {
    const missing = journal.entries.filter((e) => !existsSync(join(folder, `${e.tag}.sql`)));
    expect(missing.map((e) => e.tag)).toEqual([]);
    const numbers = journal.entries.map((e) => e.tag.slice(0, 4));
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
  });
});
