/**
 * Who may frame Waymark (decision 045). Every page of Waymark refuses framing (`frame-ancestors 'self'` /
 * `'none'`, X-Frame-Options), except where an LTI launch leads — the protocol's small pages (pages.ts) and
 * the portal served for one launch at /lti/app/{launch id} — and those only by the launching registration's
 * platform: the origins of its registered addresses (issuer, login, token, key set) and the origins its
 * verified id_tokens showed as the place the tool is framed in (`launch_presentation.return_url`,
 * `tool_platform.url`: hosted Canvas frames tools on the school's own host, which none of its registered
 * addresses names). Never `*`.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { helmetHeaders, securityPolicy } from '../../http/security-headers';
import { portalIndex } from '../../http/static';
import { LAUNCH_PRESENTATION } from './language';
import { ltiRegistrations } from './tables';

const TOOL_PLATFORM = 'https://purl.imsglobal.org/spec/lti/claim/tool_platform';
/** At most this many origins learned from launches are kept per registration. */
const MAX_LEARNED = 20;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An address's origin when it is https (or http on this machine), else null. */
export function originOf(url: unknown): string | null {
  if (typeof url !== 'string' || !url) return null;
  try {
    const u = new URL(url);
    if (u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname))) return u.origin;
  } catch {
    // not an address
  }
  return null;
}

interface Framer {
  issuer: string;
  authLoginUrl: string;
  tokenUrl: string;
  jwksUrl: string;
  details: Record<string, unknown>;
}

const learnedOf = (r: Pick<Framer, 'details'>) =>
  Array.isArray(r.details?.frameOrigins) ? (r.details.frameOrigins as unknown[]) : [];

/** The origins that may frame a registration's launches. */
export function frameOrigins(r: Framer): string[] {
  const all = [r.issuer, r.authLoginUrl, r.tokenUrl, r.jwksUrl, ...learnedOf(r)].map(originOf);
  return [...new Set(all.filter((o): o is string => o !== null))];
}

/** The CSP directive's value: the origins, or nobody. */
export const frameAncestors = (origins: readonly string[]) => (origins.length ? origins.join(' ') : "'none'");

/**
 * Remembers where a verified launch says the platform frames the tool (its signed claims), so the next
 * login's storage step and the launched pages may be framed there; answers the registration's origins with
 * them. The union is taken in the statement, so two launches at once lose neither origin.
 */
export async function learnFrameOrigins(
  db: Db,
  registration: Framer & { id: string },
  claims: Record<string, unknown>,
): Promise<string[]> {
  const claim = (name: string) => {
    const v = claims[name];
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  };
  const known = new Set(frameOrigins(registration));
  const fresh = [originOf(claim(LAUNCH_PRESENTATION).return_url), originOf(claim(TOOL_PLATFORM).url)].filter(
    (o): o is string => o !== null && !known.has(o),
  );
  if (!fresh.length || learnedOf(registration).length >= MAX_LEARNED) return [...known];
  const details = ltiRegistrations.details;
  await db
    .update(ltiRegistrations)
    .set({
      details: sql`jsonb_set(${details}, '{frameOrigins}', (select coalesce(jsonb_agg(distinct o), '[]'::jsonb) from (select jsonb_array_elements_text(coalesce(${details}->'frameOrigins', '[]'::jsonb)) as o union select jsonb_array_elements_text(${JSON.stringify(fresh)}::jsonb)) s))`,
    })
    .where(eq(ltiRegistrations.id, registration.id));
  return [...known, ...new Set(fresh)];
}

const NOT_BUILT =
  '<!doctype html><html lang="en"><title>Waymark</title><main><h1>Waymark</h1><p>The portal is not built.</p></main></html>';

/** Sets a page's framing to these origins (replacing the refusal every other page carries). */
export function allowFraming(reply: FastifyReply, csp: string, origins: readonly string[]) {
  const directive = `frame-ancestors ${frameAncestors(origins)}`;
  const policy = /frame-ancestors [^;]*/.test(csp)
    ? csp.replace(/frame-ancestors [^;]*/, directive)
    : `${csp};${directive}`;
  reply.header('content-security-policy', policy).removeHeader('x-frame-options');
  reply.raw.removeHeader('x-frame-options');
  return reply;
}

/**
 * The portal's page for one launch (/lti/app/{launch id}): the portal itself (its router shows the launched
 * page: the learner's test, the instructor's course), framed only by the launch's platform, for as long as
 * the launch lasts. The page reads its one-time code from the address's fragment (never sent here).
 */
export function framedPortal(
  app: FastifyInstance,
  deps: {
    config: Config;
    /** The launch's registration, and whether the launch still lasts; null when there is no such launch. */
    launchFramer: (launchId: string) => Promise<{ framer: Framer; live: boolean } | null>;
    /** The refusal of a launch that is over (framed by its platform) or unknown (by nobody). */
    expired: (request: FastifyRequest, reply: FastifyReply, ancestors: string[]) => unknown;
  },
) {
  const documentCsp =
    helmetHeaders(securityPolicy(deps.config)).find(([name]) => name === 'content-security-policy')?.[1] ??
    "default-src 'self'";
  const indexHtml = portalIndex(deps.config);
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const { launchId } = request.params as { launchId: string };
    if (!/^[0-9a-f-]{36}$/i.test(launchId)) return reply.callNotFound();
    const found = await deps.launchFramer(launchId);
    if (!found?.live) return deps.expired(request, reply, found ? frameOrigins(found.framer) : []);
    const { framer } = found;
    const html = indexHtml() ?? NOT_BUILT;
    return allowFraming(reply, documentCsp, frameOrigins(framer))
      .code(200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send(html);
  };
  app.get('/lti/app/:launchId', handler);
  app.get('/lti/app/:launchId/*', handler);
}
