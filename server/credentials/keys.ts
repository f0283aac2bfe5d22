/**
 * The issuer's keys. The issuer is the did:web of PUBLIC_URL; it signs with one Ed25519 key — from the
 * settings in production (CREDENTIAL_SIGNING_KEY), generated once into DATA_DIR/secrets otherwise — and its
 * DID document lists that key and every earlier one (the settings' CREDENTIAL_PREVIOUS_KEYS, the key file's
 * retired keys, and every key recorded in the database as having signed), so a credential signed before a
 * rotation still verifies. A key listed in CREDENTIAL_WITHDRAWN_KEYS is left out.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { DID_V1_CONTEXT, MULTIKEY_V1_CONTEXT } from '@shared/credentials/contexts';
import { type DidDocument, didWebOf } from '@shared/credentials/did';
import * as base58 from 'base58-universal';
import { asc } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { createdOnce } from '../lib/created-once';
import { credentialKeys } from './tables';

/** Multicodec headers (varint) of Ed25519 keys in Multikey form. */
const SECRET_HEADER = [0x80, 0x26];

export interface SigningKey {
  /** `{did}#{publicKeyMultibase}` */
  id: string;
  publicKeyMultibase: string;
  pair: Ed25519Multikey.Ed25519KeyPair;
}

export interface KeyFile {
  /** The signing key first, then retired ones (public part kept, secret dropped). */
  keys: { publicKeyMultibase: string; secretKeyMultibase?: string; createdAt: string; retiredAt?: string }[];
}

/** The Ed25519 key pair of a Multikey secretKeyMultibase (which holds the seed and the public key). */
export async function keyFromSecret(secretKeyMultibase: string, controller: string) {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(secretKeyMultibase.slice(1));
  } catch {
    throw new Error('CREDENTIAL_SIGNING_KEY is not base58btc multibase.');
  }
  if (bytes[0] !== SECRET_HEADER[0] || bytes[1] !== SECRET_HEADER[1] || bytes.length < 34) {
    throw new Error('CREDENTIAL_SIGNING_KEY is not an Ed25519 secret key (multicodec ed25519-priv).');
  }
  const pair = await Ed25519Multikey.generate({ seed: bytes.slice(2, 34), controller });
  pair.id = `${controller}#${pair.publicKeyMultibase}`;
  return pair;
}

/** A new key pair, as the key file and the settings keep it. */
export async function newKey() {
  const pair = await Ed25519Multikey.generate();
  return { publicKeyMultibase: pair.publicKeyMultibase, secretKeyMultibase: pair.secretKeyMultibase! };
}

export function readKeyFile(file: string): KeyFile | null {
  return existsSync(file) ? keyFileOf(readFileSync(file, 'utf8'), file) : null;
}

/** A key file's content, checked. */
function keyFileOf(text: string, file: string): KeyFile {
  const parsed = JSON.parse(text) as KeyFile;
  if (!Array.isArray(parsed.keys) || !parsed.keys[0]?.secretKeyMultibase) {
    throw new Error(`${file} holds no signing key: remove it to generate a new one.`);
  }
  return parsed;
}

export function writeKeyFile(file: string, content: KeyFile) {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
}

/**
 * The key file outside production, created on first start. Processes starting at once on one DATA_DIR all
 * end up with the first one's key, and none reads the file before it is whole (createdOnce).
 */
export async function localKeyFile(file: string): Promise<KeyFile> {
  const existing = readKeyFile(file);
  if (existing) return existing;
  const key = await newKey();
  const content = `${JSON.stringify({ keys: [{ ...key, createdAt: new Date().toISOString() }] }, null, 2)}\n`;
  return keyFileOf(
    createdOnce(file, () => content, { dirMode: 0o700 }),
    file,
  );
}

/** Moves the key file's signing key to the retired ones and makes a new signing key; returns both public keys. */
export async function rotateKeyFile(file: string): Promise<{ retired: string; current: string }> {
  const content = await localKeyFile(file);
  const [current, ...older] = content.keys;
  const next = await newKey();
  const now = new Date().toISOString();
  writeKeyFile(file, {
    keys: [
      { ...next, createdAt: now },
      { publicKeyMultibase: current!.publicKeyMultibase, createdAt: current!.createdAt, retiredAt: now },
      ...older,
    ],
  });
  return { retired: current!.publicKeyMultibase, current: next.publicKeyMultibase };
}

export class IssuerKeys {
  readonly did: string;
  private listed: { at: number; keys: string[] } | null = null;

  private constructor(
    readonly config: Config,
    private readonly db: Db,
    readonly signing: SigningKey,
    private readonly retired: string[],
  ) {
    this.did = didWebOf(config.publicUrl);
  }

  /** Loads the signing key (settings, or the key file outside production) and records it as used. */
  static async load(config: Config, db: Db): Promise<IssuerKeys> {
    const did = didWebOf(config.publicUrl);
    const c = config.credentials;
    let secret = c.signingKey;
    let retired = [...c.previousKeys];
    if (!secret) {
      if (config.env === 'production') throw new Error('CREDENTIAL_SIGNING_KEY is required in production.');
      const file = await localKeyFile(c.keyFile);
      secret = file.keys[0]!.secretKeyMultibase!;
      retired = [...retired, ...file.keys.slice(1).map((k) => k.publicKeyMultibase)];
    }
    const pair = await keyFromSecret(secret, did);
    const signing = { id: pair.id!, publicKeyMultibase: pair.publicKeyMultibase, pair };
    const keys = new IssuerKeys(config, db, signing, retired);
    await db
      .insert(credentialKeys)
      .values({ id: signing.id, publicKeyMultibase: signing.publicKeyMultibase })
      .onConflictDoNothing();
    return keys;
  }

  /** Every public key the DID document lists: the signing key first, then the others, newest first. */
  async publicKeys(): Promise<string[]> {
    if (this.listed && Date.now() - this.listed.at < 10_000) return this.listed.keys;
    const recorded = await this.db
      .select({ key: credentialKeys.publicKeyMultibase })
      .from(credentialKeys)
      .orderBy(asc(credentialKeys.firstUsedAt));
    const withdrawn = new Set(this.config.credentials.withdrawnKeys);
    const keys = [
      ...new Set([this.signing.publicKeyMultibase, ...this.retired, ...recorded.map((r) => r.key).reverse()]),
    ].filter((k) => !withdrawn.has(k));
    this.listed = { at: Date.now(), keys };
    return keys;
  }

  /** The DID document served at /.well-known/did.json. */
  async didDocument(): Promise<DidDocument> {
    const keys = await this.publicKeys();
    const methods = keys.map((publicKeyMultibase) => ({
      id: `${this.did}#${publicKeyMultibase}`,
      type: 'Multikey',
      controller: this.did,
      publicKeyMultibase,
    }));
    return {
      '@context': [DID_V1_CONTEXT, MULTIKEY_V1_CONTEXT],
      id: this.did,
      verificationMethod: methods,
      assertionMethod: methods.map((m) => m.id),
      service: [{ id: `${this.did}#site`, type: 'LinkedDomains', serviceEndpoint: this.config.publicUrl }],
    };
  }
}
