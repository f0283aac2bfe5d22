/**
 * The cursor of a list read newest first by a row's `seq` (webhook deliveries, LRS statements): the last
 * row's seq, base64url — opaque to a caller, checked when read back.
 */
export const seqCursor = (seq: number) => Buffer.from(String(seq)).toString('base64url');

/** The seq a cursor names; null when it is not one. */
export function readSeqCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString();
  return /^\d{1,18}$/.test(text) ? Number(text) : null;
}

/** A page of rows read `limit + 1` at a time: the `limit` shown, and the cursor of the next page (null: none). */
export function seqPage<R extends { seq: number }>(
  rows: R[],
  limit: number,
): { shown: R[]; nextCursor: string | null } {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { shown, nextCursor: more && shown.length ? seqCursor(shown.at(-1)!.seq) : null };
}
