/**
 * Reading a credential someone pasted, dropped or downloaded: JSON text, a compact JWT (which this verifier
 * does not check), or a baked PNG (./png). Pure; the verify page, the CLI and the server share it.
 */
import type { VerificationReport } from '../schemas/credential';
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../schemas/json-depth';
import { isPng, NotAPng, readBakedCredential } from './png';
import { type Said, said } from './words';

/** A credential read, or why not: in English (`problem`) and by its code (`said`). */
export type ReadCredential = { ok: true; credential: unknown } | { ok: false; problem: string; said: Said };

const unread = (words: Said): ReadCredential => ({ ok: false, problem: words.message, said: words });

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** A credential from text: JSON, or a clear problem. */
export function credentialFromText(text: string): ReadCredential {
  const trimmed = text.trim().replace(/^\uFEFF/, '');
  if (trimmed === '') return unread(said('verify.read.empty'));
  if (JWT.test(trimmed)) {
    return unread(said('verify.read.jwt'));
  }
  // read before parsing: whatever walks a value nested thousands deep (JSON-LD, JSON.stringify) throws
  if (jsonTextTooDeep(trimmed)) return unread(said('verify.read.tooDeep', { depth: MAX_JSON_DEPTH }));
  try {
    const credential = JSON.parse(trimmed) as unknown;
    if (typeof credential !== 'object' || credential === null || Array.isArray(credential)) {
      return unread(said('verify.read.notObject'));
    }
    return { ok: true, credential };
  } catch (err) {
    return unread(said('verify.read.notJson', { reason: (err as Error).message }));
  }
}

/** The report on input that is no credential at all (read before any check): malformed, saying why. */
export function unreadReport(problem: Said, at = new Date()): VerificationReport {
  const { message, ...coded } = problem;
  return {
    verdict: 'malformed',
    summary: message,
    summaryParts: [coded],
    checks: [{ id: 'format', label: 'Verifiable Credential', outcome: 'failed', detail: message, ...coded }],
    issuer: { id: null, name: null, isThisServer: false, confirmed: false, statement: 'It names no issuer.' },
    credential: null,
    checkedAt: at.toISOString(),
  };
}

/** A credential from a file's bytes: a baked PNG, or JSON text. */
export async function credentialFromFile(bytes: Uint8Array): Promise<ReadCredential> {
  if (isPng(bytes)) {
    try {
      const text = await readBakedCredential(bytes);
      if (text === null) {
        return unread(said('verify.read.pngEmpty'));
      }
      return credentialFromText(text);
    } catch (err) {
      if (err instanceof NotAPng) return unread(said('verify.read.notPng', { reason: err.message }));
      throw err;
    }
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return unread(said('verify.read.jpeg'));
  }
  return credentialFromText(new TextDecoder().decode(bytes));
}
