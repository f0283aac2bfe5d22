/**
 * `waymark awards verify <file|url>`: checks an Open Badges 3.0 credential from a terminal — a JSON file, a
 * baked PNG, or an address (an award page, a verify page or a credential URL of any Waymark; any URL that
 * answers a credential) — with the same checks as the verify page, done here: the issuer's did:web document
 * and status list are fetched from the issuer, did:key needs nothing, and JSON-LD contexts come from the
 * installed packages. Exit 0 when valid; otherwise the verdict's exit code and the reason. Who issued it is
 * said by its DID; it is "the Waymark at {server}" (the server this command works with, --server) only when
 * the DID is that server's did:web — or a did:key of a key its DID document lists — and every proof holds.
 */
import { readFile } from 'node:fs/promises';
import {
  type DidDocument,
  DidNotResolved,
  didWebDocumentUrl,
  didWebOf,
  isAssertionMethod,
  resolveDidKey,
} from '@shared/credentials/did';
import { credentialFromFile } from '@shared/credentials/text';
import { validityWords } from '@shared/rules/validity';
import type { VerificationReport } from '@shared/schemas/credential';
import type { Context } from '../../core/context';
import { CliError, ExitCode } from '../../core/errors';

export interface AwardsVerifyOptions {
  source: string;
}

/** The exit code of each verdict (documented in cli/README.md). */
export const VERDICT_EXIT: Record<VerificationReport['verdict'], ExitCode> = {
  valid: ExitCode.ok,
  malformed: ExitCode.badInput,
  revoked: ExitCode.revoked,
  tampered: ExitCode.tampered,
  'unknown-issuer': ExitCode.unknownIssuer,
  expired: ExitCode.expired,
  'not-yet-valid': ExitCode.expired,
};

const AWARD_PAGE = /\/(?:feather|badge|certificate|verify)\/([A-Za-z0-9_-]{10,64})\/?$/;

async function fetchBytes(url: string, signal: AbortSignal): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(url, {
      signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]),
      headers: { accept: 'application/vc+ld+json, application/ld+json, application/json, image/png' },
    });
  } catch (err) {
    throw new CliError(
      `Could not reach ${new URL(url).host}: ${(err as Error).message}`,
      ExitCode.unreachable,
    );
  }
  if (res.status === 404) throw new CliError(`${url} was not found (404).`, ExitCode.notFound);
  if (!res.ok) throw new CliError(`${url} answered ${res.status}.`, ExitCode.unreachable);
  return new Uint8Array(await res.arrayBuffer());
}

async function fetchJson(url: string, signal: AbortSignal): Promise<unknown> {
  const bytes = await fetchBytes(url, signal);
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** The credential's bytes from a file or an address. */
async function load(source: string, signal: AbortSignal): Promise<{ bytes: Uint8Array; from: string }> {
  if (/^https?:\/\//i.test(source)) {
    const url = new URL(source);
    const award = AWARD_PAGE.exec(url.pathname);
    const target =
      award && !url.pathname.startsWith('/api/') ? `${url.origin}/api/credentials/${award[1]}` : url.href;
    return { bytes: await fetchBytes(target, signal), from: target };
  }
  try {
    return { bytes: new Uint8Array(await readFile(source)), from: source };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'ENOENT' ? `${source}: no such file.` : `${source}: ${(err as Error).message}`,
      code === 'ENOENT' ? ExitCode.notFound : ExitCode.badInput,
    );
  }
}

/**
 * Whether a did:key is one of the keys the server's DID document lists (its document read only then; a
 * server that cannot be reached owns nothing).
 */
async function serverOwnsKey(serverDid: string, did: string, signal: AbortSignal): Promise<boolean> {
  if (!did.startsWith('did:key:')) return false;
  try {
    const doc = (await fetchJson(didWebDocumentUrl(serverDid), signal)) as DidDocument;
    const key = did.slice('did:key:'.length);
    return (
      doc?.id === serverDid &&
      (doc.verificationMethod ?? []).some((m) => m.publicKeyMultibase === key && isAssertionMethod(doc, m.id))
    );
  } catch {
    return false;
  }
}

export async function verifyAwardCommand(ctx: Context, options: AwardsVerifyOptions): Promise<void> {
  const { output, signal } = ctx;
  const serverDid = didWebOf(ctx.server);
  const { bytes, from } = await load(options.source, signal);
  const read = await credentialFromFile(bytes);
  if (!read.ok) throw new CliError(`${from}: ${read.problem}`, ExitCode.badInput);
  // the verifier and its JSON-LD libraries load only for this command
  const { verifyCredential } = await import('@shared/credentials/verify');
  const report = await verifyCredential(read.credential, {
    async resolveDid(did) {
      if (did.startsWith('did:key:')) return resolveDidKey(did);
      if (!did.startsWith('did:web:')) {
        throw new DidNotResolved(`${did}: this verifier resolves did:web and did:key.`);
      }
      const url = didWebDocumentUrl(did);
      try {
        return (await fetchJson(url, signal)) as Awaited<ReturnType<typeof resolveDidKey>>;
      } catch (err) {
        throw new DidNotResolved(
          `${did} could not be resolved: fetching ${url} failed (${(err as Error).message}).`,
        );
      }
    },
    async loadStatusList(url) {
      return { credential: await fetchJson(url, signal), source: new URL(url).host };
    },
    local: {
      did: serverDid,
      owns: (did) => serverOwnsKey(serverDid, did, signal),
      name: 'Waymark',
      called: `the Waymark at ${ctx.server}`,
    },
  });
  const code = VERDICT_EXIT[report.verdict];
  if (output.json) {
    output.emit({ event: 'verification', source: from, ...report });
  } else {
    output.line(`${report.verdict.toUpperCase()}: ${report.summary}`);
    if (report.credential?.name) output.line(`  credential  ${report.credential.name}`);
    if (report.credential?.recipient) output.line(`  awarded to  ${report.credential.recipient}`);
    // 'Valid until 3rd Mar 2027', 'Expired on …' or 'Valid with no end date' (issue 30)
    if (report.credential) output.line(`  validity    ${validityWords(report.credential.validUntil)}`);
    output.line(`  issuer      ${report.issuer.statement}`);
    for (const c of report.checks) output.line(`  ${c.outcome.padEnd(8)} ${c.label}: ${c.detail}`);
  }
  if (code !== ExitCode.ok) {
    const failed = report.checks.find((c) => c.outcome === 'failed');
    throw new CliError(`Not valid (${report.verdict}): ${failed?.detail ?? report.summary}`, code);
  }
}
