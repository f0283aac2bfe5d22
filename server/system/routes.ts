import { config as configCall, health, mailbox } from '@shared/contract/system';
import { desc, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IdentityAdapter } from '../adapters/identity';
import type { MailService } from '../adapters/mail';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';
import { forbidden, HttpError, notFound } from '../http/errors';
import { isLocalRequest } from '../http/loopback';
import { ok, serve } from '../http/routes';

/**
 * Whether this request may see the local mailbox: 'off' outside the embedded development setup (a demo-*
 * project, not production, no SMTP), 'remote' when the request was not made on this machine.
 */
export function mailboxFor(
  config: Config,
  mail: MailService,
  request: FastifyRequest,
): 'open' | 'off' | 'remote' {
  if (!config.devMailbox || mail.transport.name !== 'mailbox') return 'off';
  return isLocalRequest(request) ? 'open' : 'remote';
}

export function systemRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; identity: IdentityAdapter; mail: MailService },
) {
  const { db, config, identity, mail } = deps;
  serve(
    app,
    { health, config: configCall, mailbox },
    {
      async health() {
        try {
          await db.execute(sql`select 1`);
        } catch {
          throw new HttpError(503, 'The database is not reachable.');
        }
        return ok({ status: 'ok', uptime: Math.round(process.uptime()) });
      },
      async config({ request }) {
        return ok({
          data: {
            publicUrl: config.publicUrl,
            firebase: {
              apiKey: config.firebase.apiKey,
              authDomain: config.firebase.authDomain,
              projectId: config.firebase.projectId,
              emulatorHost: config.firebase.emulatorHost,
            },
            extension: config.extension,
            mailbox: mailboxFor(config, mail, request) === 'open',
          },
        });
      },
      async mailbox({ query, request }) {
        const state = mailboxFor(config, mail, request);
        if (state === 'off') throw notFound(`No such call: GET ${request.url.split('?')[0]}`);
        if (state === 'remote')
          throw forbidden('The local mailbox answers only requests made on this machine.');
        const rows = await db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(200);
        const links = await identity.pendingLinks();
        const to = query.to?.toLowerCase();
        const entries = [
          ...links
            .map((l, i) => ({
              _id: `identity-${i}`,
              to: l.email,
              subject:
                l.requestType === 'VERIFY_EMAIL'
                  ? 'Verify your e-mail address'
                  : l.requestType === 'EMAIL_SIGNIN'
                    ? 'Your sign-in link'
                    : l.requestType === 'PASSWORD_RESET'
                      ? 'Reset your password'
                      : l.requestType,
              text: `Open this link: ${l.oobLink}`,
              html: null,
              createdAt: new Date().toISOString(),
              source: 'identity' as const,
              link: l.oobLink,
            }))
            .reverse(),
          ...rows.map((r) => ({
            _id: r.id,
            to: r.to,
            subject: r.subject,
            text: r.text,
            html: r.html,
            createdAt: r.createdAt.toISOString(),
            source: 'outbox' as const,
            link: null,
          })),
        ].filter((e) => !to || e.to.toLowerCase() === to);
        return ok({ data: entries });
      },
    },
  );
}
