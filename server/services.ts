/**
 * Every service of the app, built in one place before any route is registered, in the order they depend on
 * each other. A route registration receives what it needs from here as arguments; nothing is filled in later
 * or on first use. Where a lower domain declares an interface a higher one implements (decision 018), the
 * implementation is chosen here: tenant's `SeatPlans` is billing, the catalogue's `RoadmapTests` and the
 * question bank's `QuestionCounts` are the assessments'. Tests replace any service through `buildApp`'s
 * `services` (server/app.ts); the services built from it then use the replacement.
 */
import type { FastifyBaseLogger } from 'fastify';
import { createIdentityAdapter, type IdentityAdapter } from './adapters/identity';
import { MailService, type MailTransport, mailboxTransport, smtpTransport } from './adapters/mail';
import { createPayments, type PaymentsAdapter } from './adapters/payments';
import { createStorage, type StorageAdapter } from './adapters/storage';
import { questionCounts } from './assessments/question-use';
import { roadmapTests } from './assessments/roadmap-tests';
import { TokenService } from './auth/tokens';
import { Billing } from './billing/service';
import type { RoadmapTests } from './catalogue/learning';
import type { Config } from './config';
import { IssuerKeys } from './credentials/keys';
import { CredentialService, type CredentialServiceOptions } from './credentials/service';
import type { Database, Db } from './db/client';
import type { Replica } from './db/replica';
import { SecretBox } from './integrations/core/sealed';
import { JobQueue } from './jobs/queue';
import type { QuestionCounts } from './questions/load';
import { ProcessRegistry } from './system/processes';
import type { SeatPlans } from './tenant/accounting';

export interface Services {
  config: Config;
  database: Database;
  /** `database.db`: what the domains query. */
  db: Db;
  /**
   * Where a read that may be a little behind goes (reports, exports, the public catalogue; decision 035):
   * the read replica while it is in use, else the primary. Anything that must read its own writes uses `db`.
   */
  reads: () => Db;
  /** The read replica (DATABASE_REPLICA_URL) and its lag, or null. */
  replica: Replica | null;
  log: FastifyBaseLogger;
  /** Firebase Authentication (or its emulator): ID tokens, the emulator's accounts and mails. */
  identity: IdentityAdapter;
  tokens: TokenService;
  /** The job queue (pg-boss); its schedules and workers start when the app is ready (server/jobs/jobs.ts). */
  jobs: JobQueue;
  /** How mail leaves: SMTP, or the local mailbox (the outbox table only). */
  mailTransport: MailTransport;
  mail: MailService;
  /** Files (award and question images, import files): local under DATA_DIR, or an S3 bucket. */
  storage: StorageAdapter;
  /** The payment provider: the sandbox checkout, or Stripe. */
  payments: PaymentsAdapter;
  billing: Billing;
  /** Seat accounting's view of a tenant's plan (tenant's interface): billing. */
  seatPlans: SeatPlans;
  /** Awards as Open Badges credentials: the issuer's keys, issuing, status lists, verification. */
  credentials: CredentialService;
  /**
   * Seals the secrets integrations keep for others (webhook and LRS secrets, LTI private keys) under
   * INTEGRATIONS_SECRET_KEY (AES-256-GCM; decision 039).
   */
  secrets: SecretBox;
  /** A learner's test links on their roadmap (the catalogue's interface): the assessments'. */
  roadmapTests: RoadmapTests;
  /** How often the bank's questions were drawn, and their feedback (the bank's interface): the assessments'. */
  questionCounts: QuestionCounts;
  /**
   * This process in the registry of processes on one PostgreSQL (server/main.ts asks for it: `serverProcess`);
   * null on PGlite, in tests and tools.
   */
  processes: ProcessRegistry | null;
}

/** Services a test (or a tool) gives instead of the ones the settings would build. */
export type ServiceOverrides = Partial<
  Omit<Services, 'config' | 'database' | 'db' | 'reads' | 'replica' | 'log'>
> & {
  /** How the credential service reads other issuers' documents and tells the time. */
  credentialOptions?: CredentialServiceOptions;
};

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** Builds every service from the settings, each replaced by its override when one is given. */
export async function createServices(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
  overrides: ServiceOverrides = {},
  opts: { serverProcess?: boolean } = {},
): Promise<Services> {
  const db = database.db;
  // the replica says in the logs when it is skipped and when it is read again (server/db/replica.ts)
  database.replica?.setLog(log);
  const identity =
    overrides.identity ??
    createIdentityAdapter({
      projectId: config.firebase.projectId,
      emulatorHost: config.firebase.emulatorHost,
    });
  const tokens = overrides.tokens ?? new TokenService(db, config);
  const jobs = overrides.jobs ?? new JobQueue(database, { work: config.jobs.work, log });
  const mailTransport =
    overrides.mailTransport ??
    (config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : mailboxTransport);
  const mail =
    overrides.mail ??
    new MailService(db, mailTransport, log, jobs, config.mailRetry, mailDomain(config.mailFrom));
  const storage = overrides.storage ?? createStorage(config.storage, config.publicUrl);
  const payments =
    overrides.payments ??
    createPayments({
      stripe: config.payments.stripe,
      sandboxWebhookSecret: config.payments.sandboxWebhookSecret,
      publicUrl: config.publicUrl,
    });
  const billing = overrides.billing ?? new Billing(db, payments, { publicUrl: config.publicUrl, log });
  const credentials =
    overrides.credentials ??
    new CredentialService(db, config, await IssuerKeys.load(config, db), log, overrides.credentialOptions);
  // last, as before any other process could see this one: refuses (ProcessConflictError) beside a process
  // whose files or secret live elsewhere (decision 009)
  const processes =
    overrides.processes !== undefined
      ? overrides.processes
      : opts.serverProcess
        ? await ProcessRegistry.join(database, config, log)
        : null;
  return {
    config,
    database,
    db,
    reads: () => database.reads(),
    replica: database.replica,
    log,
    identity,
    tokens,
    jobs,
    mailTransport,
    mail,
    storage,
    payments,
    billing,
    seatPlans: overrides.seatPlans ?? billing,
    credentials,
    secrets:
      overrides.secrets ??
      new SecretBox(config.integrations.sealingKey, config.integrations.previousSealingKeys),
    roadmapTests: overrides.roadmapTests ?? roadmapTests,
    questionCounts: overrides.questionCounts ?? questionCounts,
    processes,
  };
}

/** The domain of MAIL_FROM's address, for Message-ID headers. */
function mailDomain(from: string): string {
  return /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'waymark.local';
}
