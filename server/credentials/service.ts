/**
 * Credentials of awards: issuing (signed once, stored, served as stored; issued right after an evaluation
 * earns an award, or on first request for an award earned before), the Bitstring Status List of the issuer,
 * revocation, and verification of any issuer's credential. Everything a request needs is in PostgreSQL, so
 * any number of server processes serve the same credentials and lists.
 */
import { createList } from '@digitalbazaar/vc-bitstring-status-list';
import { MULTIKEY_V1_CONTEXT, VC_V2_CONTEXT } from '@shared/credentials/contexts';
import { type DidDocument, DidNotResolved, resolveDidKey } from '@shared/credentials/did';
import { type VerificationReport, verifyCredential } from '@shared/credentials/verify';
import { awardKindOf } from '@shared/rules/test-status';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { findLink } from '../assessments/engine/link-life';
import type { LinkRow } from '../assessments/tables';
import { tenantAssessments } from '../authoring/tables';
import { earnedAward, ISSUER } from '../awards/info';
import { validUntilOf } from '../awards/validity';
import { assignedRoadmaps } from '../catalogue/tables';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { inTx, preparedPer, rowsOf } from '../db/helpers';
import { users } from '../db/schema';
import type { Actor } from '../integrations/core/principal';
import { TtlCache } from '../lib/ttl-cache';
import { type AwardFacts, buildCredential, isoSeconds, statusListUrl } from './build';
import { type FetchJson, fetchDidWebDocument, fetchPublicJson } from './fetch';
import type { IssuerKeys } from './keys';
import { revocationRecorded } from './revocation-log';
import { type SignerPool, signerPool } from './signers';
import { credentialRevocations, credentialStatusLists, credentials } from './tables';

type Json = Record<string, unknown>;

/** Entries of one status list: 2^17, the Bitstring Status List's minimum size (herd privacy). */
export const LIST_SIZE = 131_072;
/** An odd multiplier: spreads consecutive awards over the list (a bijection modulo 2^17). */
const SPREAD = 40_503;
/** How long a process serves a status list from memory; with the HTTP max-age a revocation shows within 60 s. */
export const STATUS_CACHE_MS = 5_000;
export const STATUS_MAX_AGE_S = 30;
/**
 * How long a process serves a credential it has read from memory, and how many it keeps. A signed
 * credential never changes (revocation is the status list's), so a copy is never wrong while the award
 * exists; the lifetime only bounds how long one removed under the server (an account erased) is still
 * served — no longer than the HTTP max-age (300 s) already lets any cache on the way serve it.
 */
export const CREDENTIAL_CACHE_MS = 60_000;
/**
 * Links a process holds waiting for their credential after an evaluation (issueLater): at about 10 ms a
 * signing, ten minutes of an exam's end. Past it an award is issued on its first request instead.
 */
export const ISSUE_QUEUE_SIZE = 50_000;
const CREDENTIAL_CACHE_SIZE = 5_000;

export type CredentialRow = typeof credentials.$inferSelect;
export type RevocationRow = typeof credentialRevocations.$inferSelect;

export class AwardNotFound extends Error {}

const credentialByAward = preparedPer((db) =>
  db
    .select()
    .from(credentials)
    .where(eq(credentials.awardId, sql.placeholder('awardId')))
    .limit(1)
    .prepare('credential_by_award'),
);

const statusListByNumber = preparedPer((db) =>
  db
    .select({ document: credentialStatusLists.document, updatedAt: credentialStatusLists.updatedAt })
    .from(credentialStatusLists)
    .where(eq(credentialStatusLists.list, sql.placeholder('list')))
    .limit(1)
    .prepare('credential_status_list'),
);

export interface CredentialServiceOptions {
  /** Reads another issuer's DID document or status list (tests give their own; default: HTTPS, public hosts). */
  fetchJson?: FetchJson;
  now?: () => Date;
}

export class CredentialService {
  readonly did: string;
  private readonly fetchJson: FetchJson;
  private readonly signers: SignerPool;
  private readonly pending = new Map<string, Promise<CredentialRow | null>>();
  /**
   * Links evaluated and waiting for their credential (issueLater), in the order earned: their ids, each link
   * read again when its turn comes (an evaluation gives back only the few columns it answers with).
   */
  private readonly waiting = new Set<string>();
  private draining = false;
  private waitingFull = false;
  /** Status lists read lately: see STATUS_CACHE_MS. */
  private readonly lists = new TtlCache<number, { document: Json; updatedAt: Date }>();
  /** Credentials served lately: see CREDENTIAL_CACHE_MS and CREDENTIAL_CACHE_SIZE. */
  private readonly served = new TtlCache<string, CredentialRow>({ maxEntries: CREDENTIAL_CACHE_SIZE });
  private readonly listLoads = new Map<number, Promise<{ document: Json; updatedAt: Date } | null>>();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    readonly keys: IssuerKeys,
    private readonly log: FastifyBaseLogger,
    private readonly options: CredentialServiceOptions = {},
  ) {
    this.did = keys.did;
    this.fetchJson = options.fetchJson ?? fetchPublicJson;
    this.signers = signerPool(config.credentials.signers);
  }

  private now() {
    return this.options.now?.() ?? new Date();
  }

  /** Signs a credential or status list with the current key, on a signing thread (signers.ts). */
  private sign(document: Json): Promise<Json> {
    const { signing } = this.keys;
    return this.signers.sign(document, {
      secretKeyMultibase: signing.pair.secretKeyMultibase!,
      method: {
        '@context': MULTIKEY_V1_CONTEXT,
        id: signing.id,
        type: 'Multikey',
        controller: this.did,
        publicKeyMultibase: signing.publicKeyMultibase,
      },
    });
  }

  // ---- issuing

  /** The stored credential of an award, or null when none was issued yet. */
  async stored(awardId: string): Promise<CredentialRow | null> {
    const [row] = await credentialByAward(this.db).execute({ awardId });
    return row ?? null;
  }

  /**
   * The award's credential, issued now if it was not yet (an award earned before credentials existed, or
   * one whose issuing after the evaluation has not run yet). Null when the link earned no award.
   */
  async credentialOf(awardId: string): Promise<CredentialRow | null> {
    const row = await this.stored(awardId);
    if (row) return row;
    const link = await findLink(this.db, awardId);
    if (!link || !earnedAward(link) || !awardKindOf(link.type)) return null;
    return this.issue(link);
  }

  /**
   * The award's credential for a public read: credentialOf, served from this process's memory when read in
   * the last minute (a busy award page or verifier asks for the same credential again and again).
   */
  async publicCopy(awardId: string): Promise<CredentialRow | null> {
    const now = Date.now();
    const hit = this.served.get(awardId);
    if (hit) return hit;
    const row = await this.credentialOf(awardId);
    if (row) this.served.set(awardId, row, now + CREDENTIAL_CACHE_MS);
    else this.served.delete(awardId);
    return row;
  }

  /**
   * Issues the credential of a link just evaluated, after the response and one at a time: the evaluation
   * does not wait for signing, and a burst of evaluations (an exam's end) is not slowed by as many signings
   * at once — they wait here, in the order earned, and the process issues them behind the requests (see
   * ISSUE_QUEUE_SIZE). A link that earned no credential is not queued. An award whose
   * turn has not come yet (or whose process stopped) is issued on its first request (credentialOf).
   */
  issueLater(link: Pick<LinkRow, 'linkId' | 'type' | 'status' | 'isCompleted'>) {
    if (!earnedAward(link) || !awardKindOf(link.type)) return;
    if (this.waiting.size >= ISSUE_QUEUE_SIZE) {
      if (!this.waitingFull)
        this.log.warn({ size: this.waiting.size }, 'credential queue full: issued on request');
      this.waitingFull = true;
      return;
    }
    this.waiting.add(link.linkId);
    if (this.draining) return;
    this.draining = true;
    setImmediate(() => void this.drain());
  }

  private async drain() {
    try {
      for (let next = this.waiting.values().next(); !next.done; next = this.waiting.values().next()) {
        const linkId = next.value;
        this.waiting.delete(linkId);
        await findLink(this.db, linkId)
          .then((link) => (link && earnedAward(link) ? this.issue(link) : null))
          .catch((err) =>
            this.log.error(
              { err, awardId: linkId },
              'credential could not be issued; it will be issued on first request',
            ),
          );
      }
    } finally {
      this.draining = false;
      this.waitingFull = false;
    }
  }

  /**
   * Issues (once) the credential of an earned award; concurrent calls in one process share the work. A
   * sandbox's award is never issued: it is no credential (decision 041).
   */
  issue(link: LinkRow): Promise<CredentialRow | null> {
    if (link.sandbox) return Promise.resolve(null);
    const running = this.pending.get(link.linkId);
    if (running) return running;
    const work = this.issueOnce(link).finally(() => this.pending.delete(link.linkId));
    this.pending.set(link.linkId, work);
    return work;
  }

  /**
   * What a credential says besides the link (its learner, the mentor who assigned the roadmap) and its place
   * in a status list, in one statement; null when the learner is gone.
   */
  private async facts(link: LinkRow): Promise<{ facts: AwardFacts; position: number } | null> {
    if (!link.userId) return null;
    const [row] = rowsOf<{
      name: string | null;
      email: string;
      mentorId: string | null;
      mentorName: string | null;
      mentorEmail: string | null;
      source: string | null;
      tenantId: string | null;
      tenantName: string | null;
      tenantEmail: string | null;
      position: string;
    }>(
      await this.db.execute(sql`
        select u.name, u.email, ar.assigned_by as "mentorId", m.name as "mentorName",
          m.email as "mentorEmail", ar.source, t.id as "tenantId", t.name as "tenantName",
          t.email as "tenantEmail", nextval('credential_status_seq')::text as position
        from ${users} u
          left join ${assignedRoadmaps} ar on ar.id = ${link.assignedRoadmapId}::uuid
          left join ${users} m on m.id = ar.assigned_by
          left join ${tenantAssessments} ta on ta.id = ${link.tenantAssessmentId}::uuid
          left join ${users} t on t.id = ta.tenant_id
        where u.id = ${link.userId}::uuid`),
    );
    if (!row) return null;
    const named = (id: string, name: string | null, email: string | null) => ({
      id,
      name: name ?? email?.split('@')[0] ?? 'Mentor',
    });
    // the mentor who assigned the roadmap, or whose assessment it was
    const mentor =
      row.mentorId && row.source === 'TENANT'
        ? named(row.mentorId, row.mentorName, row.mentorEmail)
        : row.tenantId
          ? named(row.tenantId, row.tenantName, row.tenantEmail)
          : null;
    return {
      facts: {
        link,
        learner: { name: row.name ?? row.email.split('@')[0]!, email: row.email },
        roadmapId: link.roadmapId,
        mentor,
        validUntil: await validUntilOf(this.db, link),
      },
      position: Number(row.position),
    };
  }

  private async issueOnce(link: LinkRow): Promise<CredentialRow | null> {
    const found = await this.facts(link);
    if (!found) return null;
    const { facts, position } = found;
    const list = Math.floor(position / LIST_SIZE) + 1;
    const index = ((position % LIST_SIZE) * SPREAD) % LIST_SIZE;
    const unsigned = buildCredential(
      facts,
      { did: this.did, name: ISSUER, publicUrl: this.config.publicUrl },
      { list, index },
    );
    const document = await this.sign(unsigned);
    const [row] = await this.db
      .insert(credentials)
      .values({
        awardId: link.linkId,
        testLinkId: link.id,
        statusList: list,
        statusIndex: index,
        document,
        keyId: this.keys.signing.id,
      })
      .onConflictDoNothing()
      .returning();
    // a credential issued anew (its row was gone: only ever deleted under the server) replaces any copy held
    this.served.delete(link.linkId);
    // another process issued it at the same moment: theirs stands
    return row ?? (await this.stored(link.linkId));
  }

  // ---- status lists

  /** The highest list number in use. */
  private async lastList(): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`coalesce(max(${credentials.statusList}), 1)::int` })
      .from(credentials);
    return Math.max(1, Number(row?.n ?? 1));
  }

  /**
   * The signed status list credential `list`, or null when there is no such list. Requests that miss the
   * process's copy at the same moment share one read (and, for a list never signed yet, one signing).
   */
  async statusList(list: number): Promise<{ document: Json; updatedAt: Date } | null> {
    const cached = this.lists.get(list);
    if (cached) return cached;
    const running = this.listLoads.get(list);
    if (running) return running;
    const load = this.loadList(list).finally(() => this.listLoads.delete(list));
    this.listLoads.set(list, load);
    return load;
  }

  private async loadList(list: number) {
    const [row] = await statusListByNumber(this.db).execute({ list });
    let found = row && 'proof' in row.document ? row : null;
    if (!found) {
      if (list < 1 || list > (await this.lastList())) return null;
      found = await this.rebuildList(list, undefined, { onlyIfUnsigned: true });
    }
    const entry = { document: found.document, updatedAt: found.updatedAt };
    this.lists.set(list, entry, Date.now() + STATUS_CACHE_MS);
    return entry;
  }

  /** Signs list `list` again from the revocations, under a row lock (one writer at a time, in any process). */
  private async rebuildList(
    list: number,
    tx?: Db,
    { onlyIfUnsigned = false } = {},
  ): Promise<{ document: Json; updatedAt: Date }> {
    const run = async (db: Db) => {
      await db
        .insert(credentialStatusLists)
        .values({ list, document: {}, revokedCount: -1 })
        .onConflictDoNothing();
      const [locked] = await db
        .select({ document: credentialStatusLists.document, updatedAt: credentialStatusLists.updatedAt })
        .from(credentialStatusLists)
        .where(eq(credentialStatusLists.list, list))
        .for('update');
      // another process signed it while this one waited for the lock
      if (onlyIfUnsigned && locked && 'proof' in locked.document) return locked;
      const revoked = await db
        .select({ index: credentialRevocations.statusIndex })
        .from(credentialRevocations)
        .where(eq(credentialRevocations.statusList, list));
      const bits = await createList({ length: LIST_SIZE });
      for (const r of revoked) bits.setStatus(r.index, true);
      const now = this.now();
      const url = statusListUrl(this.config.publicUrl, list);
      const document = await this.sign({
        '@context': [VC_V2_CONTEXT],
        id: url,
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: this.did,
        validFrom: isoSeconds(now),
        credentialSubject: {
          id: `${url}#list`,
          type: 'BitstringStatusList',
          statusPurpose: 'revocation',
          encodedList: await bits.encode(),
        },
      });
      await db
        .update(credentialStatusLists)
        .set({ document, revokedCount: revoked.length, updatedAt: now })
        .where(eq(credentialStatusLists.list, list));
      this.lists.delete(list);
      return { document, updatedAt: now };
    };
    if (tx) return run(tx);
    return inTx(this.db, run);
  }

  // ---- revocation

  async revocationOf(awardId: string): Promise<RevocationRow | null> {
    const [row] = await this.db
      .select()
      .from(credentialRevocations)
      .where(eq(credentialRevocations.awardId, awardId))
      .limit(1);
    return row ?? null;
  }

  /**
   * Revokes an award's credential (issuing it first if it never was), recording who, as what and why, and
   * signs the status list again in the same transaction. Revoking again returns the first revocation.
   */
  async revoke(
    awardId: string,
    by: { id: string; as: 'MENTOR' | 'PLATFORM'; actor: Actor },
    reason: string,
  ): Promise<{ revocation: RevocationRow; already: boolean }> {
    const credential = await this.credentialOf(awardId);
    if (!credential) throw new AwardNotFound(awardId);
    const result = await inTx(this.db, async (tx) => {
      const [inserted] = await tx
        .insert(credentialRevocations)
        .values({
          awardId,
          statusList: credential.statusList,
          statusIndex: credential.statusIndex,
          reason,
          revokedAs: by.as,
          revokedBy: by.id,
          revokedAt: this.now(),
        })
        .onConflictDoNothing()
        .returning();
      if (!inserted) return null;
      await this.rebuildList(credential.statusList, tx);
      await revocationRecorded(tx, credential.testLinkId, inserted, by);
      return inserted;
    });
    if (result) {
      this.log.info({ awardId, as: by.as, by: by.id }, 'credential revoked');
      return { revocation: result, already: false };
    }
    return { revocation: (await this.revocationOf(awardId))!, already: true };
  }

  // ---- verification

  /** A DID document: this server's from its keys, did:key from the key itself, other did:web over HTTPS. */
  async resolveDid(did: string): Promise<DidDocument> {
    if (did === this.did) return this.keys.didDocument();
    if (did.startsWith('did:key:')) return resolveDidKey(did);
    if (did.startsWith('did:web:')) {
      return fetchDidWebDocument(did, this.config.credentials.fetch ? this.fetchJson : null);
    }
    const method = /^did:([a-z0-9]+):/.exec(did)?.[1];
    throw new DidNotResolved(
      `${did} uses the did:${method ?? '?'} method; this verifier resolves did:web and did:key.`,
    );
  }

  /** A status list: this server's from the database, another issuer's over HTTPS. */
  async loadStatusList(url: string) {
    const prefix = `${this.config.publicUrl}/api/credentials/status/`;
    if (url.startsWith(prefix)) {
      const list = Number(url.slice(prefix.length));
      const found = Number.isInteger(list) ? await this.statusList(list) : null;
      if (!found) throw new Error('this server has no such status list');
      return { credential: found.document, source: 'this server', trusted: true };
    }
    if (!this.config.credentials.fetch) {
      throw new Error(
        'this server is set not to fetch other issuers’ status lists (CREDENTIALS_FETCH=false)',
      );
    }
    return { credential: await this.fetchJson(url), source: new URL(url).host };
  }

  verify(credential: unknown): Promise<VerificationReport> {
    return verifyCredential(credential, {
      resolveDid: (did) => this.resolveDid(did),
      loadStatusList: (url) => this.loadStatusList(url),
      local: {
        did: this.did,
        // a did:key of a key this server's DID document lists is this server too
        owns: async (did) =>
          did.startsWith('did:key:') && (await this.keys.publicKeys()).includes(did.slice('did:key:'.length)),
        name: ISSUER,
        called: `this ${ISSUER}`,
      },
      now: () => this.now(),
      // canonicalisation is CPU work: on a signing thread, not the event loop
      checkProof: (document, issuerDoc, at) => this.signers.check(document, issuerDoc, at),
    });
  }
}
