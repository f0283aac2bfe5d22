/**
 * Seeds the demo content (server/demo/), on first start and safe to run again: subjects with topics,
 * languages, and (on the Auth emulator) a demo learner and a demo mentor with verified e-mail addresses and
 * completed profiles.
 */
import { eq, sql } from 'drizzle-orm';
import { DEMO_ACCOUNTS } from '../demo/accounts';
import { seedDemoAssessments } from '../demo/assessments';
import { seedCatalogue } from '../demo/catalogue';
import { DEMO_LANGUAGES, DEMO_SUBJECTS } from '../demo/lists';
import { seedDemoTenant } from '../demo/tenant';
import type { Db } from './client';
import { languages, subjects, systemState, tenantUsers, topics, users } from './schema';

export interface EmulatorAccounts {
  /** Creates (or finds) a verified e-mail/password account; returns its uid. */
  ensureAccount(email: string, password: string, displayName: string): Promise<string>;
}

/** Talks to the Auth emulator's REST API. */
export function emulatorAccounts(emulatorHost: string, projectId: string, apiKey: string): EmulatorAccounts {
  const base = `http://${emulatorHost}/identitytoolkit.googleapis.com/v1`;
  const post = async (path: string, body: unknown, owner = false) => {
    const res = await fetch(`${base}${path}${path.includes('?') ? '&' : '?'}key=${apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(owner ? { authorization: 'Bearer owner' } : {}) },
      body: JSON.stringify(body),
    });
    return { ok: res.ok, json: (await res.json()) as Record<string, unknown> };
  };
  return {
    async ensureAccount(email, password, displayName) {
      let res = await post('/accounts:signUp', { email, password, displayName });
      if (!res.ok)
        res = await post('/accounts:signInWithPassword', { email, password, returnSecureToken: true });
      const uid = res.json.localId;
      if (typeof uid !== 'string')
        throw new Error(`Could not create the demo account ${email} on the Auth emulator`);
      await post(
        `/projects/${projectId}/accounts:update`,
        { localId: uid, emailVerified: true, displayName },
        true,
      );
      return uid;
    },
  };
}

const SEED_VERSION = 1;

export async function seed(db: Db, opts: { accounts?: EmulatorAccounts; log?: (m: string) => void }) {
  const log = opts.log ?? (() => {});
  const [state] = await db.select().from(systemState).where(eq(systemState.key, 'seed')).limit(1);
  const version = (state?.value as { version?: number } | undefined)?.version ?? 0;
  if (version < SEED_VERSION) {
    for (const [name, topicNames] of Object.entries(DEMO_SUBJECTS)) {
      await db.insert(subjects).values({ name }).onConflictDoNothing();
      const [subject] = await db.select().from(subjects).where(eq(subjects.name, name));
      for (const t of topicNames)
        await db.insert(topics).values({ subjectId: subject!.id, name: t }).onConflictDoNothing();
    }
    for (const name of DEMO_LANGUAGES) await db.insert(languages).values({ name }).onConflictDoNothing();
    await db
      .insert(systemState)
      .values({ key: 'seed', value: { version: SEED_VERSION } })
      .onConflictDoUpdate({
        target: systemState.key,
        set: { value: { version: SEED_VERSION }, updatedAt: new Date() },
      });
    log('seeded subjects and languages');
  }
  // the demo catalogue and question bank (its own version key in system_state)
  await seedCatalogue(db, { log });
  if (opts.accounts) await seedAccounts(db, opts.accounts, log);
  // last: needs the demo learner, the catalogue's roadmaps and the question bank
  await seedDemoAssessments(db, { log });
  // the mentor portal's demo: the demo learner's learning time, a demo offer code
  if (opts.accounts) {
    await seedDemoTenant(db, {
      mentorEmail: DEMO_ACCOUNTS.mentor.email,
      learnerEmail: DEMO_ACCOUNTS.learner.email,
      log,
    });
  }
}

async function seedAccounts(db: Db, accounts: EmulatorAccounts, log: (m: string) => void) {
  const ids: Record<string, string> = {};
  for (const [key, a] of Object.entries(DEMO_ACCOUNTS)) {
    const uid = await accounts.ensureAccount(a.email, a.password, a.name);
    const profile = {
      firebaseUid: uid,
      email: a.email,
      emailVerified: true,
      signInProvider: 'password',
      role: a.role,
      name: a.name,
      isFirstLogin: false,
      isProfileCompleted: true,
      phoneNumber: key === 'learner' ? '9876543210' : '9123456780',
      countrycode: '+91',
      phoneCountry: 'IN',
      linkedIn: `https://www.linkedin.com/in/waymark-demo-${key}`,
      iam: a.role === 'TENANT' ? ('MENTOR' as const) : null,
      tShirtSize: 'M' as const,
      addressLine1: '12 MG Road',
      country: 'IN',
      state: 'Karnataka',
      city: 'Bengaluru',
      pincode: '560001',
    };
    const [existing] = await db.select().from(users).where(sql`lower(${users.email}) = ${a.email}`).limit(1);
    if (existing) {
      if (existing.firebaseUid !== uid)
        await db.update(users).set({ firebaseUid: uid }).where(eq(users.id, existing.id));
      ids[key] = existing.id;
    } else {
      const [row] = await db.insert(users).values(profile).returning({ id: users.id });
      ids[key] = row!.id;
      log(`created the demo ${key} ${a.email}`);
    }
  }
  if (ids.mentor && ids.learner) {
    await db
      .insert(tenantUsers)
      .values({ tenantId: ids.mentor, learnerId: ids.learner })
      .onConflictDoNothing();
  }
}
