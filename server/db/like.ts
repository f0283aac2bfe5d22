/**
 * Text searched for literally in a LIKE or ILIKE pattern: `%`, `_` and the escape character itself (the
 * backslash, PostgreSQL's default) lose their meaning, so a search for "100%" finds "100%" only.
 */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
