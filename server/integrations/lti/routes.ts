/**
 * LTI 1.3 Advantage (issue 27; decision 044): the tenant's calls (shared/contract/lti.ts) and the protocol's
 * own endpoints under /lti, which speak forms, redirects and small pages rather than JSON:
 *
 * - GET  /lti/jwks      Waymark's tool key set (the current key and retired ones still published)
 * - GET|POST /lti/login the OIDC third-party login initiation
 * - POST /lti/launch    the platform's id_token (form_post)
 * - GET  /lti/register  Dynamic Registration (a tenant's one-time address with the platform's parameters)
 */
import { createHmac, randomUUID } from 'node:crypto';
import { ltiLaunchRouter, ltiTenantRouter } from '@shared/contract/lti';
import { localMessage } from '@shared/i18n/message';
import type { Translator } from '@shared/i18n/translator';
import { LTI_LAUNCH_HEADER } from '@shared/schemas/lti';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MailService } from '../../adapters/mail';
import type { TokenService } from '../../auth/tokens';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { created, ok, serve } from '../../http/routes';
import { translatorFor } from '../../lib/i18n';
import type { QuestionCounts } from '../../questions/load';
import type { SeatPlans } from '../../tenant/accounting';
import type { SecretBox } from '../core/sealed';
import { courseView } from './course';
import { deepLinkingResponse, pickerOptions } from './deep-linking';
import { framedPortal, frameOrigins, originOf } from './frame';
import { ToolKeys } from './keys';
import { pageLocale, unverifiedLocale } from './language';
import { acceptLaunch, initiateLogin, LAUNCH_SESSION_TTL_MS, type LaunchDeps, sha256 } from './launch';
import { contextsOf, syncMembers } from './members';
import { launchPage, refusalPage, registeredPage, registrationFailedPage, storagePage } from './pages';
import { LaunchRefused, Platforms, type Registration } from './platform';
import {
  assertDeployments,
  createInvite,
  createRegistration,
  dynamicRegistration,
  RegistrationFailed,
  registrationFor,
  registrationsOf,
  removeRegistration,
  TOOL_SCOPES,
  toolConfig,
  toRegistrations,
  updateRegistration,
} from './registrations';
import { deliveriesOf, retryDelivery } from './scores';
import { startSession } from './session';
import { ltiLaunches, ltiRegistrations, ltiStates } from './tables';

export interface LtiDeps {
  db: Db;
  config: Config;
  secrets: SecretBox;
  tokens: TokenService;
  seatPlans: SeatPlans;
  questionCounts: QuestionCounts;
  mail: MailService;
  /** Tests' clock. */
  now?: () => Date;
}

/** The seat notice is sent at most once a day per platform. */
const SEAT_NOTICE_EVERY_MS = 86_400_000;

const from = (request: FastifyRequest) => ({
  ip: request.ip ?? null,
  userAgent: (request.headers['user-agent'] ?? '').slice(0, 500) || null,
});

export function ltiServices(deps: Pick<LtiDeps, 'db' | 'config' | 'secrets' | 'now'>) {
  const keys = new ToolKeys(deps.db, deps.secrets);
  const platforms = new Platforms({
    db: deps.db,
    secrets: deps.secrets,
    keys,
    devLoopback: deps.config.lti.devLoopback,
    now: deps.now,
  });
  return { keys, platforms };
}

/** Tells the mentor, at most once a day per platform, that a launched learner found no seat. */
function seatNotifier(deps: LtiDeps, clock: () => Date) {
  return async (registration: Registration, learnerEmail: string) => {
    const now = clock();
    // one notice a day per platform: the statement that moves seat_notice_at decides who sends it
    const claimed = await deps.db
      .update(ltiRegistrations)
      .set({ seatNoticeAt: now })
      .where(
        and(
          eq(ltiRegistrations.id, registration.id),
          or(
            isNull(ltiRegistrations.seatNoticeAt),
            lt(ltiRegistrations.seatNoticeAt, new Date(now.getTime() - SEAT_NOTICE_EVERY_MS)),
          ),
        ),
      )
      .returning({ id: ltiRegistrations.id });
    if (!claimed.length) return;
    const [mentor] = await deps.db
      .select({ email: users.email, language: users.language })
      .from(users)
      .where(eq(users.id, registration.tenantId));
    if (!mentor) return;
    await deps.mail.send({
      to: mentor.email,
      kind: 'lti-seats',
      ...seatsMail(translatorFor(mentor.language), {
        email: learnerEmail,
        platform: registration.label,
        portal: deps.config.publicUrl,
      }),
    });
  };
}

/** The mentor's notice that a launched learner found no free seat, in `translator`'s language. */
export function seatsMail(
  { t }: Pick<Translator, 't'>,
  values: { email: string; platform: string; portal: string },
) {
  return { subject: t('mail.ltiSeats.subject'), text: t('mail.ltiSeats.text', values) };
}

/** The translator of a page that answers no launch yet: the browser's language (language.ts). */
const requestPageTranslator = (request: FastifyRequest) =>
  translatorFor(pageLocale({ acceptLanguage: request.headers['accept-language'] }));

/**
 * Who may frame the refusal of a login or launch: the registration it names (the login's issuer and client
 * id, or the launch's state), when known; nobody otherwise.
 */
async function refusalAncestors(db: Db, request: FastifyRequest): Promise<string[]> {
  const params = { ...(request.query as object), ...((request.body as object) ?? {}) } as Record<
    string,
    string | undefined
  >;
  let registration: Registration | null = null;
  if (params.state) {
    const [row] = await db
      .select({ registration: ltiRegistrations })
      .from(ltiStates)
      .innerJoin(ltiRegistrations, eq(ltiRegistrations.id, ltiStates.registrationId))
      .where(eq(ltiStates.stateHash, sha256(params.state)))
      .limit(1);
    registration = row?.registration ?? null;
  } else if (params.iss) {
    registration = await registrationFor(db, params.iss, params.client_id || undefined);
  }
  return registration ? frameOrigins(registration) : [];
}

/** The protocol's own endpoints under /lti: forms, redirects and small pages rather than JSON. */
function protocolRoutes(app: FastifyInstance, deps: LtiDeps, clock: () => Date) {
  const { db, config } = deps;
  const { keys, platforms } = ltiServices(deps);
  const launchDeps: LaunchDeps = {
    db,
    platforms,
    plans: deps.seatPlans,
    questionCounts: deps.questionCounts,
    stateKey: createHmac('sha256', config.jwtSecret).update('waymark lti state').digest(),
    publicUrl: config.publicUrl,
    notifySeats: seatNotifier(deps, clock),
  };

  async function refuse(request: FastifyRequest, reply: FastifyReply, err: unknown, known?: string[]) {
    const reference = randomUUID().slice(0, 8);
    const ancestors = known ?? (await refusalAncestors(db, request).catch(() => []));
    // the launching person's language: the verified launch's, else what its id_token and browser ask for
    const body = (request.body ?? {}) as Record<string, unknown>;
    const t = translatorFor(
      (err instanceof LaunchRefused && err.locale) ||
        pageLocale({
          claimed: unverifiedLocale(body.id_token),
          acceptLanguage: request.headers['accept-language'],
        }),
    );
    if (err instanceof LaunchRefused) {
      request.log.info({ reference, kind: err.kind, reason: err.message }, 'LTI launch refused');
      return refusalPage(reply, t, ancestors, err, reference);
    }
    request.log.error({ reference, err }, 'LTI launch failed');
    const failed = new LaunchRefused('invalid', localMessage('errors.lti.launch.failed'));
    return refusalPage(reply, t, ancestors, failed, reference, 500);
  }

  app.get('/lti/jwks', async (_request, reply) => {
    const set = await keys.jwks(clock());
    return reply
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .type('application/json')
      .send(set);
  });

  // the protocol's POSTs are forms (application/x-www-form-urlencoded): parsed in a scope of their own
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const login = async (request: FastifyRequest, reply: FastifyReply) => {
      const params = { ...(request.query as object), ...((request.body as object) ?? {}) } as Record<
        string,
        string
      >;
      try {
        const answer = await initiateLogin(launchDeps, params, clock());
        if (answer.kind === 'redirect') {
          return reply.code(302).header('cache-control', 'no-store').header('location', answer.url).send();
        }
        const { ancestors, kind: _, ...storage } = answer;
        return storagePage(reply, requestPageTranslator(request), ancestors, storage);
      } catch (err) {
        return refuse(request, reply, err);
      }
    };
    scope.get('/lti/login', login);
    scope.post('/lti/login', login);
    scope.post('/lti/launch', async (request, reply) => {
      try {
        const body = (request.body ?? {}) as Record<string, string>;
        const asked = request.headers['accept-language'];
        const { ancestors, locale, ...launched } = await acceptLaunch(
          launchDeps,
          body,
          clock(),
          from(request),
          asked,
        );
        return launchPage(reply, translatorFor(locale), ancestors, launched);
      } catch (err) {
        return refuse(request, reply, err);
      }
    });
  });

  framedPortal(app, {
    config,
    launchFramer: (launchId) => launchFramer(db, launchId, clock()),
    expired: (request, reply, ancestors) =>
      refuse(
        request,
        reply,
        new LaunchRefused('expired', localMessage('errors.lti.launch.expired')),
        ancestors,
      ),
  });

  registrationRoute(app, deps, platforms, clock);
  launchCalls(app, deps, keys, clock);
  return platforms;
}

/** GET /lti/register: Dynamic Registration, from a tenant's one-time address with the platform's parameters. */
function registrationRoute(app: FastifyInstance, deps: LtiDeps, platforms: Platforms, clock: () => Date) {
  const { db, config } = deps;
  app.get('/lti/register', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const reference = randomUUID().slice(0, 8);
    const t = requestPageTranslator(request);
    // the platform whose registration window this is (the page holds nothing a framing site could use)
    const claimed = originOf(q.openid_configuration);
    try {
      if (!q.invite || !q.openid_configuration) {
        throw new RegistrationFailed('errors.lti.register.openFromLms');
      }
      const input = {
        invite: q.invite,
        openidConfiguration: q.openid_configuration,
        registrationToken: q.registration_token,
      };
      const row = await dynamicRegistration(db, platforms, config.publicUrl, input, clock(), from(request));
      return registeredPage(reply, t, frameOrigins(row), row);
    } catch (err) {
      const ancestors = claimed ? [claimed] : [];
      if (err instanceof RegistrationFailed) {
        request.log.info({ reference, reason: err.message }, 'LTI dynamic registration refused');
        return registrationFailedPage(reply, t, ancestors, t.t(err.said.key, err.said.values), reference);
      }
      request.log.error({ reference, err }, 'LTI dynamic registration failed');
      const message = t.t('errors.lti.launch.registrationFailed');
      return registrationFailedPage(reply, t, ancestors, message, reference, 500);
    }
  });
}

/** The calls of the page a launch opened: its session, the picker, the instructor's course view. */
function launchCalls(app: FastifyInstance, deps: LtiDeps, keys: ToolKeys, clock: () => Date) {
  const { db, config } = deps;
  serve(app, ltiLaunchRouter, {
    async ltiStartSession({ body }) {
      const issueSession = (user: { id: string; role: 'USER' }, tenantId: string) =>
        deps.tokens.issue(user, 'WEB_APP', undefined, tenantId);
      return ok({ data: await startSession({ db, issueSession }, body, clock()) });
    },

    async ltiDeepLinkingOptions({ headers }) {
      return ok({ data: await pickerOptions(db, headers[LTI_LAUNCH_HEADER], clock()) });
    },

    async ltiCourseView({ headers }) {
      return ok({ data: await courseView(db, headers[LTI_LAUNCH_HEADER], clock()) });
    },

    async ltiDeepLinkingRespond({ headers, body }) {
      const launchUrl = toolConfig(config.publicUrl).launchUrl;
      return ok({
        data: await deepLinkingResponse(db, keys, launchUrl, headers[LTI_LAUNCH_HEADER], body.items, clock()),
      });
    },
  });
}

/** A launch's registration, and whether its page may still be shown (its launch token's life); null: none. */
async function launchFramer(db: Db, launchId: string, now: Date) {
  const [row] = await db
    .select({ registration: ltiRegistrations, createdAt: ltiLaunches.createdAt })
    .from(ltiLaunches)
    .innerJoin(ltiRegistrations, eq(ltiRegistrations.id, ltiLaunches.registrationId))
    .where(eq(ltiLaunches.id, launchId))
    .limit(1);
  if (!row) return null;
  return { framer: row.registration, live: row.createdAt.getTime() + LAUNCH_SESSION_TTL_MS >= now.getTime() };
}

export function ltiRoutes(app: FastifyInstance, deps: LtiDeps) {
  const { db, config } = deps;
  const clock = () => (deps.now ? deps.now() : new Date());
  const platforms = protocolRoutes(app, deps, clock);

  serve(app, ltiTenantRouter, {
    async ltiToolConfig() {
      return ok({ data: toolConfig(config.publicUrl) });
    },

    async ltiRegistrationList({ caller }) {
      return ok({ data: await toRegistrations(db, await registrationsOf(db, caller.id)) });
    },

    async createLtiRegistration({ body, caller }) {
      assertDeployments(body.deploymentIds);
      const row = await createRegistration(db, caller.id, caller.actor, {
        ...body,
        via: 'MANUAL',
        scopes: [...TOOL_SCOPES],
      });
      const [data] = await toRegistrations(db, [row]);
      return created({ data: data! });
    },

    async updateLtiRegistration({ params, body, caller }) {
      assertDeployments(body.deploymentIds);
      const row = await updateRegistration(db, caller.id, caller.actor, params.id, body);
      const [data] = await toRegistrations(db, [row]);
      return ok({ data: data! });
    },

    async removeLtiRegistration({ params, caller }) {
      await removeRegistration(db, caller.id, caller.actor, params.id);
      return ok({ data: { removed: true } });
    },

    async createLtiRegistrationInvite({ body, caller }) {
      const invite = await createInvite(db, caller.id, body.label, config.publicUrl, clock());
      return created({
        data: { url: invite.url, expiresAt: invite.expiresAt.toISOString() },
        message: 'Paste this address into your LMS’s tool registration: it works once, for 7 days.',
      });
    },

    async ltiContextList({ params, caller }) {
      return ok({ data: await contextsOf(db, caller.id, params.id) });
    },

    async syncLtiMembers({ params, body, caller }) {
      const data = await syncMembers(
        { db, platforms, plans: deps.seatPlans },
        caller.id,
        params.id,
        body.dryRun,
        caller.actor,
        clock(),
      );
      return ok({ data });
    },

    async ltiDeliveryList({ query, caller }) {
      return ok({ data: await deliveriesOf(db, caller.id, query) });
    },

    async retryLtiDelivery({ params, caller }) {
      return ok({ data: await retryDelivery(db, caller.id, params.id, caller.actor, clock()) });
    },
  });
}
