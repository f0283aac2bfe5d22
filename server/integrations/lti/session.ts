/**
 * The launch's session (decision 044): the launch page — or, for a launch the portal shows, the portal's
 * page for it (/lti/app/{id}, decision 045) — exchanges the launch's one-time code, once, for what it
 * opens: a learner's Waymark session, limited to what a learner of the tenant may do, and the launch token
 * of the launch's own calls (the picker, the instructor's course view).
 */
import type { LtiSession as LtiSessionSchema } from '@shared/schemas/lti';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { LAUNCH_SESSION_TTL_MS, type LaunchDeps, random, sha256 } from './launch';
import { ltiLaunches } from './tables';

type LtiSession = z.infer<typeof LtiSessionSchema>;

/** The launch page's exchange: the code once (and the state from platform storage when it was put there). */
export async function startSession(
  deps: Pick<LaunchDeps, 'db'> & {
    issueSession: (
      user: { id: string; role: 'USER' },
      tenantId: string,
    ) => Promise<{ token: string; refreshToken: string }>;
  },
  input: { code: string; state?: string },
  now: Date,
): Promise<LtiSession> {
  const [launch] = await deps.db
    .update(ltiLaunches)
    .set({ codeUsedAt: now })
    .where(
      and(
        eq(ltiLaunches.codeHash, sha256(input.code)),
        isNull(ltiLaunches.codeUsedAt),
        gt(ltiLaunches.expiresAt, now),
      ),
    )
    .returning();
  if (!launch)
    throw new HttpError(
      404,
      'This launch has expired or was used already: open the activity again from your course.',
      { errorCode: 'LTI_CODE_INVALID' },
    );
  if (launch.stateHash && (!input.state || sha256(input.state) !== launch.stateHash)) {
    throw new HttpError(
      400,
      'This launch was not started in this browser: open the activity again from your course.',
      {
        field: 'state',
        errorCode: 'LTI_STATE_MISMATCH',
      },
    );
  }
  const launchToken = random(32);
  await deps.db
    .update(ltiLaunches)
    .set({ sessionHash: sha256(launchToken), expiresAt: new Date(now.getTime() + LAUNCH_SESSION_TTL_MS) })
    .where(eq(ltiLaunches.id, launch.id));
  const [tenant] = await deps.db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, launch.tenantId))
    .limit(1);
  let session: LtiSession['session'] = null;
  if (launch.role === 'LEARNER' && launch.userId) {
    const [learner] = await deps.db
      .select({ name: users.name })
      .from(users)
      .where(eq(users.id, launch.userId))
      .limit(1);
    const tokens = await deps.issueSession({ id: launch.userId, role: 'USER' }, launch.tenantId);
    session = {
      token: tokens.token,
      refreshToken: tokens.refreshToken,
      user: { _id: launch.userId, name: learner?.name ?? null },
    };
  }
  return {
    role: launch.role,
    tenantName: tenant?.name ?? tenant?.email ?? 'Waymark',
    contextTitle: launch.contextTitle,
    opens:
      launch.messageType === 'LtiDeepLinkingRequest'
        ? { page: 'deep-linking' }
        : launch.role === 'INSTRUCTOR'
          ? { page: 'course' }
          : ((launch.opens as LtiSession['opens'] | null) ?? { page: 'home' }),
    launchToken,
    session,
  };
}
