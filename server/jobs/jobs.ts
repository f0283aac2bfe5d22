/**
 * Every job Waymark runs, and where they start. Each is a pg-boss queue (decision 008): the periodic ones
 * are sent by a cron schedule (one job per tick across every process), mail delivery by the request that
 * writes the message. A job runs in one process at a time, is retried with exponential backoff when it
 * fails, and waits in the database across restarts. No domain module keeps a timer of its own.
 *
 * `startJobs` runs in every process when the app is ready: it creates the queues (so any process can send
 * to them); with JOB_WORKERS (the default) it also registers the schedules and runs the workers.
 *
 * Besides the queued jobs, a few timers belong to each process itself — its heartbeat in the process
 * registry, the local mailbox's dating of identity mails, the check of its read replica's lag — and are no
 * work for a queue (every process must do them). They are declared here too (`processTimers`) and started
 * with the jobs (`startTimers`).
 */

import { DELIVERY_RETENTION_DAYS } from '@shared/schemas/webhooks';
import type { Queue } from 'pg-boss';
import { closeLearningDays } from '../activity/days-closed';
import type { IdentityAdapter } from '../adapters/identity';
import { MAIL_QUEUE, type MailService } from '../adapters/mail';
import { foldJob } from '../analysis/fold';
import { linkHooks } from '../assessments/completion';
import { sweepLinks } from '../assessments/engine/link-life';
import type { Billing } from '../billing/service';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import { maintainPartitions } from '../db/partitions';
import { REPLICA_CHECK_MS } from '../db/replica';
import { sweepRateLimits } from '../http/rate-limit-store';
import { pruneAudit } from '../integrations/core/audit';
import type { SecretBox } from '../integrations/core/sealed';
import { ltiUpkeep, ToolKeys } from '../integrations/lti/keys';
import { Platforms } from '../integrations/lti/platform';
import { postScore, SCORE_JOB, SCORE_QUEUE, sweepScores } from '../integrations/lti/scores';
import { sweepSso } from '../integrations/sso/login';
import {
  endpointsDue,
  pruneDeliveries,
  WEBHOOKS_QUEUE,
  type WebhookSender,
} from '../integrations/webhooks/deliver';
import { wakeEndpoint } from '../integrations/webhooks/routes';
import { wakeTenant } from '../integrations/xapi/routes';
import { pruneStatements, tenantsDue, XAPI_QUEUE, type XapiSender } from '../integrations/xapi/send';
import { purgeDeletedAccounts } from '../profile/deletion-job';
import { sendReminders } from '../renewals/renewals';
import { datesIdentityMail, IDENTITY_MAIL_POLL_MS, identityMailDater } from '../system/mailbox';
import { HEARTBEAT_SECONDS, type ProcessRegistry } from '../system/processes';
import type { JobQueue } from './queue';

type Log = {
  debug: (o: object, m: string) => void;
  info: (o: object, m: string) => void;
  warn: (o: object, m: string) => void;
  error: (o: object, m: string) => void;
};

export interface JobDeps {
  db: Db;
  /** The database itself: its structural session (partitions) and its read replica. */
  database: Database;
  config: Config;
  identity: IdentityAdapter;
  mail: MailService;
  billing: Billing;
  /** Seals the integrations' secrets (the LTI signing keys). */
  secrets: SecretBox;
  /** This process in the registry of processes on one PostgreSQL (server/main.ts joins it; null on PGlite). */
  processes: ProcessRegistry | null;
  jobs: JobQueue;
  webhooks: WebhookSender;
  xapi: XapiSender;
  log: Log;
}

export interface JobDefinition {
  name: string;
  /** A cron expression in UTC for periodic jobs; none for jobs sent by the code. */
  cron?: string;
  queue: Omit<Queue, 'name'>;
  /** Seconds between a worker's polls (a new job on a notifying queue wakes it at once). */
  pollSeconds: number;
  /** Workers of this queue in each process. */
  concurrency?: number;
  /**
   * Jobs each worker takes at once, run side by side, each settled on its own (a failed one retried alone);
   * a full batch fetches the next at once rather than after the poll (a queue filled by one transaction is
   * woken by one notification). One job at a time without.
   */
  batch?: number;
  run(deps: JobDeps, data: Record<string, unknown>): Promise<object | undefined>;
}

/** A periodic sweep: one queued or running at a time, a few retries a minute apart. */
const sweep = (expireInSeconds: number): Omit<Queue, 'name'> => ({
  policy: 'exclusive',
  retryLimit: 3,
  retryDelay: 60,
  retryBackoff: true,
  expireInSeconds,
  deleteAfterSeconds: 3 * 86400,
});

/** A queue of deliveries: one job waiting per key, never retried (its rows say what is left), kept a day. */
const deliveryQueue: Omit<Queue, 'name'> = {
  policy: 'short',
  retryLimit: 0,
  expireInSeconds: 120,
  deleteAfterSeconds: 86_400,
  notify: true,
};

/** The platform's own sweeps and upkeep, each on its schedule. */
function upkeepJobs(): JobDefinition[] {
  return [
    {
      // tests whose time is up are evaluated with the answers they have; unused links past expiry expire
      name: 'assessments-link-sweep',
      cron: '* * * * *',
      queue: sweep(300),
      pollSeconds: 10,
      run: ({ db }) => sweepLinks(db, new Date(), linkHooks),
    },
    {
      // evaluated attempts added, once each, into item analysis's aggregates (decision 037)
      name: 'analysis-fold',
      cron: '* * * * *',
      queue: sweep(600),
      pollSeconds: 10,
      run: ({ db }) => foldJob(db, new Date()),
    },
    {
      // learners whose certificate expires within 30 days: one e-mail each, with a renewal test
      name: 'awards-expiry-reminders',
      cron: '17 * * * *',
      queue: sweep(1800),
      pollSeconds: 60,
      run: ({ db, mail, config }) => sendReminders(db, mail, config.publicUrl, new Date()),
    },
    {
      // seats removed at the end of their billing cycle, invitations and checkouts expired, sandbox renewals
      name: 'billing-seat-cycle',
      cron: '*/10 * * * *',
      queue: sweep(600),
      pollSeconds: 30,
      run: ({ billing }) => billing.runSeatJob(),
    },
    {
      // accounts past the deletion grace period, with their data and identity account
      name: 'accounts-purge-deleted',
      cron: '7 * * * *',
      queue: sweep(1800),
      pollSeconds: 60,
      run: async ({ db, identity, config, log }) => ({
        deleted: await purgeDeletedAccounts(db, identity, config.deletionGraceDays, log),
      }),
    },
    {
      // the raw activity's time partitions (decision 035): the days ahead made, the days past
      // ACTIVITY_RETENTION_DAYS dropped whole (never a row-by-row DELETE); hourly, so a missed run is soon
      // made up, and a drop happens within the hour its day expires
      name: 'activity-partitions',
      cron: '41 * * * *',
      queue: sweep(3600),
      pollSeconds: 60,
      run: async ({ database, config }) => {
        const done = await database.structural((session) =>
          maintainPartitions(session, {
            now: Date.now(),
            retentionDays: config.activityRetentionDays,
            concurrently: database.kind === 'postgres',
          }),
        );
        return {
          made: done.made.length,
          dropped: done.dropped.length,
          partitions: done.dropped.map((d) => d.name),
        };
      },
    },
    {
      // rate-limit windows that have ended
      name: 'http-rate-limit-sweep',
      cron: '*/5 * * * *',
      queue: sweep(300),
      pollSeconds: 60,
      run: async ({ db }) => ({ removed: await sweepRateLimits(db) }),
    },
    {
      // each learner's tracked minutes of a finished UTC day, to the tenants holding their seat (events)
      name: 'events-learning-days-closed',
      cron: '35 * * * *',
      queue: sweep(1800),
      pollSeconds: 60,
      run: ({ db }) => closeLearningDays(db, new Date()),
    },
    {
      // activity-log entries past AUDIT_RETENTION_DAYS (never younger than a year)
      name: 'audit-retention',
      cron: '41 4 * * *',
      queue: sweep(3600),
      pollSeconds: 60,
      run: async ({ db, config }) => ({
        pruned: await pruneAudit(db, config.integrations.auditRetentionDays),
      }),
    },
    {
      // webhook deliveries and LRS statements past their retention (delivered or given up)
      name: 'integrations-deliveries-prune',
      cron: '17 5 * * *',
      queue: sweep(3600),
      pollSeconds: 60,
      run: async ({ db }) => ({
        webhooks: await pruneDeliveries(db, DELIVERY_RETENTION_DAYS),
        statements: await pruneStatements(db, DELIVERY_RETENTION_DAYS),
      }),
    },
  ];
}

/** The integrations' jobs: webhook and LRS deliveries, the LTI key's upkeep and the gradebook score posts. */
function integrationJobs(): JobDefinition[] {
  return [
    {
      // one endpoint's due deliveries (server/integrations/webhooks/deliver.ts), sent by the wake-up below, a
      // test or a redelivery: one waiting per endpoint, any number running (each claims its own rows); the
      // rows say what is left, so a job is never retried: the next wake-up sends another
      name: WEBHOOKS_QUEUE,
      queue: deliveryQueue,
      pollSeconds: 2,
      concurrency: 8,
      run: ({ webhooks }, data) => webhooks.deliverEndpoint(String(data.endpointId)),
    },
    {
      // one tenant's due statements to its learning record store (server/integrations/xapi/send.ts)
      name: XAPI_QUEUE,
      queue: deliveryQueue,
      pollSeconds: 2,
      concurrency: 4,
      run: ({ xapi }, data) => xapi.sendTenant(String(data.tenantId)),
    },
    {
      // the LTI signing key replaced when old (the retired one stays published a day), expired launches swept
      name: 'lti-upkeep',
      cron: '17 2 * * *',
      queue: sweep(1800),
      pollSeconds: 60,
      run: ({ db, secrets, config }) => ltiUpkeep(db, secrets, config.lti.keyRotationDays),
    },
    {
      // single sign-on's expired sign-ins and spent SAML assertion ids (decision 047)
      name: 'sso-sweep',
      cron: '23 3 * * *',
      queue: sweep(1800),
      pollSeconds: 60,
      run: ({ db }) => sweepSso(db),
    },
    {
      // one score post to an LMS gradebook (decision 046), enqueued by the post's trigger in the transaction
      // that made it; a failed attempt fails the job, which pg-boss retries with backoff
      name: SCORE_QUEUE,
      queue: SCORE_JOB,
      pollSeconds: 2,
      concurrency: 2,
      batch: 8,
      run: async ({ db, secrets, config }, data) => {
        const platforms = new Platforms({
          db,
          secrets,
          keys: new ToolKeys(db, secrets),
          devLoopback: config.lti.devLoopback,
        });
        const outcome = await postScore(
          { db, platforms, publicUrl: config.publicUrl },
          String(data.deliveryId),
        );
        if (outcome === 'failed' || outcome === 'held')
          throw new Error(`score post ${outcome}; tried again later`);
        return { outcome };
      },
    },
    {
      // score posts left without a live job get one again
      name: 'lti-score-sweep',
      cron: '* * * * *',
      queue: sweep(300),
      pollSeconds: 30,
      run: ({ db, jobs }) => sweepScores(db, (deliveryId) => jobs.send(SCORE_QUEUE, { deliveryId })),
    },
  ];
}

export function jobDefinitions(deps: Pick<JobDeps, 'config' | 'mail'>): JobDefinition[] {
  return [
    ...upkeepJobs(),
    ...integrationJobs(),
    {
      // one job per message, sent with the message (server/adapters/mail.ts)
      name: MAIL_QUEUE,
      queue: {
        policy: 'exclusive',
        ...deps.mail.retryOptions(),
        expireInSeconds: 600,
        deleteAfterSeconds: 7 * 86400,
        notify: true,
      },
      // retries are not announced: they are found by polling
      pollSeconds: 2,
      concurrency: 2,
      run: async ({ mail }, data) => ({ outcome: await mail.deliver(String(data.outboxId)) }),
    },
  ];
}

/** Creates the queues; in a working process also the schedules and the workers. */
export async function startJobs(queue: JobQueue, deps: JobDeps): Promise<void> {
  await queue.start();
  const definitions = jobDefinitions(deps);
  await queue.ensureQueues(definitions.map((d) => ({ name: d.name, options: d.queue })));
  if (!queue.working) return;
  // a periodic job this release no longer has (renamed or gone) stops being sent
  const periodic = new Set(definitions.filter((d) => d.cron).map((d) => d.name));
  for (const s of await queue.boss.getSchedules()) {
    if (!periodic.has(s.name)) await queue.boss.unschedule(s.name);
  }
  for (const def of definitions) {
    if (def.cron) await queue.boss.schedule(def.name, def.cron, null, { tz: 'UTC' });
    const polling = {
      pollingIntervalSeconds: def.pollSeconds,
      notifyPollingIntervalSeconds: def.pollSeconds,
      localConcurrency: def.concurrency ?? 1,
    };
    if (def.batch) {
      await queue.boss.work<Record<string, unknown>>(
        def.name,
        { ...polling, batchSize: def.batch, burstWhenBatchFull: true, perJobResults: true },
        (jobs) =>
          Promise.all(
            jobs.map(async (job) => {
              try {
                return { id: job.id, status: 'completed' as const, output: await runJob(def, deps, job) };
              } catch (err) {
                return { id: job.id, status: 'failed' as const, output: { message: (err as Error).message } };
              }
            }),
          ),
      );
      continue;
    }
    await queue.boss.work<Record<string, unknown>>(def.name, { ...polling, batchSize: 1 }, async ([job]) =>
      job ? runJob(def, deps, job) : undefined,
    );
  }
  const requeued = await deps.mail.requeueStranded();
  if (requeued) deps.log.info({ requeued }, 'mail waiting for delivery was queued again');
}

/** One job run by its definition, logged: done (news only when it did something), or failed (retried). */
async function runJob(
  def: JobDefinition,
  deps: JobDeps,
  job: { id: string; data: Record<string, unknown> | null },
) {
  const started = Date.now();
  try {
    const result = await def.run(deps, job.data ?? {});
    // a sweep that found nothing to do is not news
    const did = Object.values(result ?? {}).some((v) => (typeof v === 'number' ? v > 0 : v === 'sent'));
    deps.log[did ? 'info' : 'debug']({ job: def.name, ms: Date.now() - started, result }, 'job done');
    return result;
  } catch (err) {
    deps.log.error({ job: def.name, err, retry: job.id }, 'job failed; it will be retried');
    throw err;
  }
}

/** How often a working process looks for deliveries due (an event reaches its endpoints within this). */
const WAKE_MS = 1000;

/** A timer each process runs for itself: work about this process, or that every process must do. */
export interface ProcessTimer {
  name: string;
  everyMs: number;
  run(): Promise<void>;
}

export function processTimers(deps: JobDeps): ProcessTimer[] {
  const { processes, config, mail, identity, db, database } = deps;
  const timers: ProcessTimer[] = [];
  const replica = database.replica;
  if (replica) {
    // whether this process's reads may go to its replica (server/db/replica.ts)
    timers.push({
      name: 'db-replica-lag',
      everyMs: REPLICA_CHECK_MS,
      run: async () => {
        await replica.check();
      },
    });
  }
  if (processes) {
    // this process stays in the registry while it runs (server/system/processes.ts)
    timers.push({
      name: 'system-process-heartbeat',
      everyMs: HEARTBEAT_SECONDS * 1000,
      run: () => processes.beat(),
    });
  }
  if (config.jobs.work) {
    // webhook endpoints and LRS with something due get a delivery job: the events' own deliveries (made by
    // the statement that wrote them), retries whose time has come, claims whose worker died
    timers.push({
      name: 'integrations-deliveries-wake',
      everyMs: WAKE_MS,
      run: async () => {
        for (const id of await endpointsDue(db)) await wakeEndpoint(deps.jobs, id);
        for (const id of await tenantsDue(db)) await wakeTenant(deps.jobs, id);
      },
    });
  }
  if (datesIdentityMail(config, mail, identity)) {
    // the local mailbox dates the identity emulator's mails as they arrive (server/system/routes.ts)
    timers.push({
      name: 'system-identity-mail-dates',
      everyMs: IDENTITY_MAIL_POLL_MS,
      run: identityMailDater(db, identity),
    });
  }
  return timers;
}

/**
 * Starts this process's timers; returns what stops them. A run still going when the next is due is not
 * doubled, and a failed run is logged and tried again at the next tick.
 */
export function startTimers(deps: JobDeps): () => void {
  const handles = processTimers(deps).map((timer) => {
    let running = false;
    const handle = setInterval(() => {
      if (running) return;
      running = true;
      timer
        .run()
        .catch((err) =>
          deps.log.warn({ timer: timer.name, err }, 'a process timer failed; it runs again at its next tick'),
        )
        .finally(() => {
          running = false;
        });
    }, timer.everyMs);
    // a timer never keeps the process alive on its own
    handle.unref();
    return handle;
  });
  return () => {
    for (const handle of handles) clearInterval(handle);
  };
}
