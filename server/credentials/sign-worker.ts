/**
 * A signing thread (see signers.ts): Data Integrity proofs (eddsa-rdfc-2022) of the documents it is sent,
 * and the check of a proof of a credential being verified (the shared verifier's checkProof).
 * RDF canonicalisation is tens of milliseconds of JavaScript a document; here it runs beside the event loop
 * that answers requests instead of on it. Contexts come from the bundled packages (the same loader as the
 * server's); the signing key's verification method comes with each task, nothing is read from the network.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { documentLoader } from '@shared/credentials/contexts';
import { checkProof } from '@shared/credentials/proof';
import { SIGNING_NICE, type SignerReply, type SignerTask } from './signers';

type SignTask = Extract<SignerTask, { kind: 'sign' }>;

type Json = Record<string, unknown>;

// Below the event loop's priority: on Linux a nice value is a thread's own (pid 0 here is this thread), so
// when every core is busy the threads that answer requests run first and a signature finishes later.
try {
  setPriority(SIGNING_NICE);
} catch {
  // not permitted here: the thread runs at the process's priority
}

/** Key pairs by secret: imported once a thread. */
const pairs = new Map<string, Promise<Ed25519Multikey.Ed25519KeyPair>>();

function pairOf(task: SignTask) {
  let pair = pairs.get(task.key.secretKeyMultibase);
  if (!pair) {
    pair = Ed25519Multikey.from({ ...task.key.method, secretKeyMultibase: task.key.secretKeyMultibase });
    pairs.set(task.key.secretKeyMultibase, pair);
  }
  return pair;
}

async function sign(task: SignTask): Promise<Json> {
  const pair = await pairOf(task);
  const suite = new DataIntegrityProof({ signer: pair.signer(), cryptosuite });
  const { method } = task.key;
  const loader = documentLoader(async (url) => (url === method.id ? method : null));
  return vc.issue({ credential: task.document, suite, documentLoader: loader });
}

function run(task: SignerTask): Promise<SignerReply> {
  if (task.kind === 'sign') return sign(task).then((document) => ({ id: task.id, document }));
  return checkProof(task.document, task.issuerDoc, new Date(task.at)).then((proof) => ({
    id: task.id,
    proof,
  }));
}

parentPort!.on('message', (task: SignerTask) => {
  run(task).then(
    (reply) => parentPort!.postMessage(reply),
    (err: Error) => parentPort!.postMessage({ id: task.id, error: err?.message ?? String(err) }),
  );
});
