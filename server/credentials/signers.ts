/**
 * The signing threads: a small pool of `worker_threads` that make the Data Integrity proofs of credentials
 * and status lists, and check the proofs of credentials sent to be verified (sign-worker.ts). Both are CPU
 * work (RDF canonicalisation, ~5–50 ms a credential); on the event loop it would hold up every request
 * behind it, so the server only waits for it, as for I/O.
 *
 * One pool a process, of CREDENTIAL_SIGNERS threads (default: the cores less one, between 1 and 4), started
 * on the first signature; a thread that has nothing to do does not keep the process alive. A thread that
 * dies fails its task (the caller's issuing is retried: on the job queue, or on first request) and is
 * replaced on the next one.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DidDocument, VerificationMethod } from '@shared/credentials/did';
import type { ProofOutcome } from '@shared/credentials/proof';

type Json = Record<string, unknown>;

export interface SigningMaterial {
  /** The Ed25519 secret (Multikey secretKeyMultibase). */
  secretKeyMultibase: string;
  /** The key's verification method as the DID document lists it (id, type, controller, public key). */
  method: VerificationMethod & { publicKeyMultibase: string };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What a thread is sent: sign a document with a key, or check a document's proof against its issuer. */
export type SignerTask =
  | { id: number; kind: 'sign'; document: Json; key: SigningMaterial }
  | { id: number; kind: 'check'; document: Json; issuerDoc: DidDocument; at: string };

export type SignerReply =
  | { id: number; document: Json }
  | { id: number; proof: ProofOutcome }
  | { id: number; error: string };

interface Pending {
  task: SignerTask;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

/** Threads a process signs with when CREDENTIAL_SIGNERS is not set: one on two cores, at most four. */
export function defaultSigners(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

const ENTRY = new URL('./sign-worker.mjs', import.meta.url);

/** The signing threads' nice value (Linux: per thread), so that requests come first on busy cores. */
export const SIGNING_NICE = 10;

export class SignerPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  private nextId = 1;

  constructor(readonly size: number) {}

  /** The document with a Data Integrity proof (eddsa-rdfc-2022) by the key, made on a signing thread. */
  sign(document: Json, key: SigningMaterial): Promise<Json> {
    return this.run({ kind: 'sign', document, key }) as Promise<Json>;
  }

  /** Whether the document's Data Integrity proof holds for `issuerDoc` at `at`, checked on a thread. */
  check(document: Json, issuerDoc: DidDocument, at: Date): Promise<ProofOutcome> {
    return this.run({ kind: 'check', document, issuerDoc, at: at.toISOString() }) as Promise<ProofOutcome>;
  }

  private run(task: DistributiveOmit<SignerTask, 'id'>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ task: { ...task, id: this.nextId++ } as SignerTask, resolve, reject });
      this.dispatch();
    });
  }

  /** Threads running now. */
  get threads(): number {
    return this.slots.length;
  }

  /** Stops every thread; tasks waiting or running fail. The pool starts threads again when used. */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const pending of this.waiting.splice(0))
      pending.reject(new Error('the signing threads were stopped'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private dispatch() {
    while (this.waiting.length) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const pending = this.waiting.shift()!;
      slot.busy = pending;
      slot.worker.ref();
      slot.worker.postMessage(pending.task);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(ENTRY, { name: 'credential signer' });
    const slot: Slot = { worker, busy: null };
    worker.on('message', (reply: SignerReply) => {
      const pending = slot.busy;
      if (!pending || pending.task.id !== reply.id) return;
      slot.busy = null;
      worker.unref();
      const what = pending.task.kind === 'sign' ? 'signing' : 'checking a proof';
      if ('error' in reply) pending.reject(new Error(`${what} failed: ${reply.error}`));
      else pending.resolve('proof' in reply ? reply.proof : reply.document);
      this.dispatch();
    });
    const lost = (err: Error) => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return;
      this.slots.splice(at, 1);
      slot.busy?.reject(err);
      slot.busy = null;
      this.dispatch();
    };
    worker.on('error', (err) => lost(err));
    worker.on('exit', (code) => lost(new Error(`the signing thread stopped (exit code ${code})`)));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }
}

const pools = new Map<number, SignerPool>();

/** The process's pool of `size` threads (one pool for every service of that size, as tests make several). */
export function signerPool(size: number): SignerPool {
  let pool = pools.get(size);
  if (!pool) {
    pool = new SignerPool(size);
    pools.set(size, pool);
  }
  return pool;
}
