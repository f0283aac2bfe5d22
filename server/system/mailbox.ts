/**
 * The local mailbox (decision 007): what this machine's server sent (the outbox) and the identity
 * emulator's mails, dated when first listed; who may see it, and the timer that dates the emulator's mails.
 */
import { desc, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { IdentityAdapter, IdentityOobCode } from '../adapters/identity';
import type { MailService } from '../adapters/mail';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { identityMail, outbox } from '../db/schema';
import { isLocalRequest } from '../http/loopback';

/** How often the identity emulator's mails are listed while the local mailbox is on. */
export const IDENTITY_MAIL_POLL_MS = 5000;

const IDENTITY_SUBJECTS: Record<string, string> = {
  VERIFY_EMAIL: 'Verify your e-mail address',
  EMAIL_SIGNIN: 'Your sign-in link',
  PASSWORD_RESET: 'Reset your password',
};

/**
 * When each identity mail (the Auth emulator's links, which carry no time) was first listed: recorded in
 * the database the first time any server process lists it, so every process and every reload agrees.
 */
async function firstListed(db: Db, links: readonly IdentityOobCode[]): Promise<Map<string, Date>> {
  const listed = links.filter((l) => l.oobCode);
  const seen = new Map<string, Date>();
  for (let i = 0; i < listed.length; i += 1000) {
    const chunk = listed.slice(i, i + 1000);
    await db
      .insert(identityMail)
      .values(chunk.map((l) => ({ oobCode: l.oobCode, email: l.email, requestType: l.requestType })))
      .onConflictDoNothing();
    const rows = await db
      .select({ oobCode: identityMail.oobCode, firstSeenAt: identityMail.firstSeenAt })
      .from(identityMail)
      .where(
        inArray(
          identityMail.oobCode,
          chunk.map((l) => l.oobCode),
        ),
      );
    for (const r of rows) seen.set(r.oobCode, r.firstSeenAt);
  }
  return seen;
}

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

/**
 * Whether a portal page may be shown to this request: the local mailbox's page only to a request that may
 * see the mailbox (the 404 policy answers the rest, server/http/not-found.ts).
 */
export const pageShown =
  (config: Config, mail: MailService) =>
  (request: FastifyRequest, path: string): boolean =>
    !/^\/mailbox\/?$/.test(path) || mailboxFor(config, mail, request) === 'open';

/**
 * The emulator's mails carry no time: while the local mailbox is on, a process timer (server/jobs/jobs.ts)
 * lists them every IDENTITY_MAIL_POLL_MS so each is dated within that of its arrival, whether or not anybody
 * has the mailbox open (the dates are in the database, so every process agrees). Lists again only when the
 * emulator has more of them.
 */
export function identityMailDater(db: Db, identity: IdentityAdapter): () => Promise<void> {
  let listed = -1;
  return async () => {
    const links = await identity.pendingLinks();
    if (links.length === listed) return;
    await firstListed(db, links);
    listed = links.length;
  };
}

/** Whether the local mailbox is on in this process, with the identity emulator's mails to date. */
export const datesIdentityMail = (config: Config, mail: MailService, identity: IdentityAdapter) =>
  config.devMailbox && mail.transport.name === 'mailbox' && identity.emulated;

/**
 * The mailbox's mails, newest first (to one address, with `to`): the outbox's last 200 and the identity
 * emulator's, each dated when first listed.
 */
export async function mailboxEntries(db: Db, identity: IdentityAdapter, to: string | undefined) {
  const address = to?.toLowerCase();
  const rows = await db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(200);
  const links = await identity.pendingLinks();
  const arrived = await firstListed(db, links);
  const entries = [
    ...links.map((l, i) => ({
      _id: `identity-${l.oobCode || i}`,
      to: l.email,
      subject: IDENTITY_SUBJECTS[l.requestType] ?? l.requestType,
      text: `Open this link: ${l.oobLink}`,
      html: null,
      createdAt: (arrived.get(l.oobCode) ?? new Date()).toISOString(),
      source: 'identity' as const,
      link: l.oobLink,
      order: i,
    })),
    ...rows.map((r) => ({
      _id: r.id,
      to: r.to,
      subject: r.subject,
      text: r.text,
      html: r.html,
      createdAt: r.createdAt.toISOString(),
      source: 'outbox' as const,
      link: null,
      order: 0,
    })),
  ]
    .filter((e) => !address || e.to.toLowerCase() === address)
    // newest first; identity mails first listed together keep the emulator's order (oldest first)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.order - a.order)
    .map(({ order: _order, ...e }) => e);
  return entries;
}
