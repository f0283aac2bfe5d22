/** Whether this process can serve: the database answers. */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';

/** 503 when the database does not answer. */
export async function assertDatabase(db: Db) {
  try {
    await db.execute(sql`select 1`);
  } catch {
    throw new HttpError(503, 'The database is not reachable.');
  }
}
