/**
 * The caller's check folded into an engine statement (a hot call's, server/http/routes.ts `hot`): the
 * account and the session of the caller's token are checked by the statement that reads or writes the link,
 * so the hot calls of a test make one round trip, not two. A statement that carries one of these takes the
 * placeholders `caller` and `fam` (sessionParams); with no caller (no token: the link id is the capability)
 * it checks nothing more.
 */
import { type SQL, sql } from 'drizzle-orm';
import { sessionHolds } from '../../auth/current-user';
import { isTakerSql } from './rules-sql';

/** The caller a statement checks: the account and the session (token family) its token names. */
export interface SessionOf {
  id: string;
  /** null (an API key's caller, which has no session) holds no session: such a caller gets no row. */
  familyId: string | null;
}

/** The values of the placeholders `caller` and `fam`. */
export const sessionParams = (caller: SessionOf | null) => ({
  caller: caller?.id ?? null,
  fam: caller?.familyId ?? null,
});

const callerParam = () => sql`${sql.placeholder('caller')}::uuid`;
const holds = () => sessionHolds(callerParam(), sql`${sql.placeholder('fam')}::uuid`);

/** No caller, or one whose session holds (authenticate's check). */
export const callerHolds = () => sql`(${callerParam()} is null or ${holds()})`;

/**
 * assertTaker and authenticate together: no caller, or the link's learner (or anyone, for a link of no
 * learner) whose session holds.
 */
export const takerHolds = (userId: SQL) =>
  sql`(${callerParam()} is null or (${isTakerSql(userId, callerParam())} and ${holds()}))`;
