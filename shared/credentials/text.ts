/**
 * Reading a credential someone pasted, dropped or downloaded: JSON text, a compact JWT (which this verifier
 * does not check), or a baked PNG (./png). Pure; the verify page, the CLI and the server share it.
 */
import type { VerificationReport } from '../schemas/credential';
import { jsonTextTooDeep, TOO_DEEP } from '../schemas/json-depth';
import { isPng, NotAPng, readBakedCredential } from './png';

export type ReadCredential = { ok: true; credential: unknown } | { ok: false; problem: string };

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** A credential from text: JSON, or a clear problem. */
export function credentialFromText(text: string): ReadCredential {
  const trimmed = text.trim().replace(/^\uFEFF/, '');
  if (trimmed === '')
    return { ok: false, problem: 'Nothing to verify: paste a credential or choose a file.' };
  if (JWT.test(trimmed)) {
    return {
      ok: false,
      problem:
        'This is a JWT (a VC secured with JOSE). This verifier checks JSON-LD credentials with a Data Integrity proof, as Waymark issues them.',
    };
  }
  // read before parsing: whatever walks a value nested thousands deep (JSON-LD, JSON.stringify) throws
  if (jsonTextTooDeep(trimmed)) return { ok: false, problem: `This JSON ${TOO_DEEP}: no credential does.` };
  try {
    const credential = JSON.parse(trimmed) as unknown;
    if (typeof credential !== 'object' || credential === null || Array.isArray(credential)) {
      return { ok: false, problem: 'This JSON is not a credential: a credential is a JSON object.' };
    }
    return { ok: true, credential };
  } catch (err) {
    return { ok: false, problem: `This is not valid JSON (${(err as Error).message}).` };
  }
}

/** The report on input that is no credential at all (read before any check): malformed, saying why. */
export function unreadReport(problem: string, at = new Date()): VerificationReport {
  return {
    verdict: 'malformed',
    summary: problem,
    checks: [{ id: 'format', label: 'Verifiable Credential', outcome: 'failed', detail: problem }],
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
        return {
          ok: false,
          problem:
            'This PNG image holds no credential (no openbadgecredential chunk). Download the baked image from the award page.',
        };
      }
      return credentialFromText(text);
    } catch (err) {
      if (err instanceof NotAPng) return { ok: false, problem: err.message };
      throw err;
    }
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return {
      ok: false,
      problem:
        'This is a JPEG image: credentials are baked into PNG images only. Use the award’s baked PNG or its JSON.',
    };
  }
  return credentialFromText(new TextDecoder().decode(bytes));
}
