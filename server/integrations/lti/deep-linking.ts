/**
 * Deep Linking 2.0 (decision 044): an instructor's deep-linking launch gets a launch token (X-LTI-Launch);
 * the picker lists what the tenant may assign (targets.ts: roadmaps, their tests, subject tests, its own
 * assessments), and the answer is a signed LtiDeepLinkingResponse of
 * `ltiResourceLink` items — each opening its assessment (`custom.waymark_target`, which a later launch of the
 * link opens) and carrying a `lineItem` so the platform makes the gradebook column. A launch answers once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { HttpError } from '../../http/errors';
import type { ToolKeys } from './keys';
import { LTI } from './platform';
import { ltiLaunches, ltiRegistrations } from './tables';
import { pickables } from './targets';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The deep-linking launch of a launch token, still open; else 401 in words. */
async function deepLinkingLaunch(db: Db, token: string, now: Date) {
  const [row] = await db
    .select({ launch: ltiLaunches, registration: ltiRegistrations })
    .from(ltiLaunches)
    .innerJoin(ltiRegistrations, eq(ltiRegistrations.id, ltiLaunches.registrationId))
    .where(and(eq(ltiLaunches.sessionHash, sha256(token)), gt(ltiLaunches.expiresAt, now)))
    .limit(1);
  if (row?.launch.messageType !== 'LtiDeepLinkingRequest' || row.launch.role !== 'INSTRUCTOR') {
    throw new HttpError(404, 'This picker has expired: add the activity again from your course.', {
      errorCode: 'LTI_LAUNCH_INVALID',
    });
  }
  return row;
}

export async function pickerOptions(db: Db, token: string, now: Date) {
  const { launch } = await deepLinkingLaunch(db, token, now);
  const settings = (launch.deepLinking ?? {}) as { accept_multiple?: unknown };
  return {
    acceptMultiple: settings.accept_multiple !== false,
    items: await pickables(db, launch.tenantId),
  };
}

/** The signed response for what was picked (LTI DL 2.0 §4.2), and where the browser posts it. */
export async function deepLinkingResponse(
  db: Db,
  keys: ToolKeys,
  launchUrl: string,
  token: string,
  items: { target: string; title: string }[],
  now: Date,
) {
  const { launch, registration } = await deepLinkingLaunch(db, token, now);
  const settings = (launch.deepLinking ?? {}) as {
    deep_link_return_url?: unknown;
    data?: unknown;
    accept_multiple?: unknown;
  };
  const returnUrl = typeof settings.deep_link_return_url === 'string' ? settings.deep_link_return_url : null;
  if (!returnUrl)
    throw new HttpError(400, 'The LMS did not say where to send the choice.', {
      errorCode: 'LTI_NO_RETURN_URL',
    });
  if (settings.accept_multiple === false && items.length > 1) {
    throw new HttpError(400, 'This LMS takes one activity at a time: choose one.', { field: 'items' });
  }
  const offered = new Set((await pickerOptions(db, token, now)).items.map((i) => i.target));
  const unknown = items.find((i) => !offered.has(i.target));
  if (unknown)
    throw new HttpError(400, `“${unknown.title}” is not something the picker offers.`, { field: 'items' });
  // a launch answers once: the statement that ends the launch token decides
  const ended = await db
    .update(ltiLaunches)
    .set({ expiresAt: now })
    .where(and(eq(ltiLaunches.id, launch.id), gt(ltiLaunches.expiresAt, now), isNull(ltiLaunches.userId)))
    .returning({ id: ltiLaunches.id });
  if (!ended.length) throw new HttpError(409, 'This choice was sent already.', { errorCode: 'LTI_ANSWERED' });
  const jwt = await keys.sign(
    {
      iss: registration.clientId,
      aud: registration.issuer,
      azp: registration.clientId,
      nonce: randomBytes(16).toString('base64url'),
      [LTI.messageType]: 'LtiDeepLinkingResponse',
      [LTI.version]: '1.3.0',
      [LTI.deploymentId]: launch.deploymentId,
      ...(settings.data !== undefined ? { [LTI.deepLinkingData]: settings.data } : {}),
      [LTI.contentItems]: items.map((i) => ({
        type: 'ltiResourceLink',
        title: i.title,
        url: launchUrl,
        custom: { waymark_target: i.target },
        lineItem: { label: i.title, scoreMaximum: 100, resourceId: i.target, tag: 'waymark' },
      })),
    },
    now,
  );
  return { returnUrl, jwt };
}
