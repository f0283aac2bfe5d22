/**
 * Secrets Waymark holds for others and must use again (webhook signing secrets, an LRS's key, an LTI tool's
 * private key): sealed at rest with AES-256-GCM under INTEGRATIONS_SECRET_KEY (decision 039). Secrets Waymark
 * only checks (API keys, SCIM tokens) are never sealed: they are kept as SHA-256 hashes.
 *
 * A sealed value is `v1.{key id}.{iv}.{ciphertext}.{tag}` (base64url): a fresh 12-byte IV each time, the
 * 16-byte tag, and the key's id (the first 8 bytes of the key's SHA-256) so that after a key is replaced the
 * values sealed under the old one still open while it is listed in INTEGRATIONS_PREVIOUS_SECRET_KEYS — and
 * are sealed again under the new one when next written (`reseal`). `context` (the row's table and id, say)
 * is bound to the value as additional data: a sealed value copied to another row does not open there.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SealedSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedSecretError';
  }
}

const keyId = (key: Buffer) => createHash('sha256').update(key).digest().subarray(0, 8).toString('base64url');

export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  private readonly currentId: string;

  /** `key`: the 32-byte key that seals; `previous`: older keys that still open what they sealed. */
  constructor(
    private readonly key: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    for (const k of [key, ...previous]) {
      if (k.length !== 32) throw new SealedSecretError('A sealing key must be 32 bytes.');
    }
    this.currentId = keyId(key);
    this.keys = new Map([...previous, key].map((k) => [keyId(k), k]));
  }

  /** Seals `secret`, bound to `context`. */
  seal(secret: string | Buffer, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(secret), cipher.final()]);
    const parts = [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url'));
    return [VERSION, this.currentId, ...parts].join('.');
  }

  /** Opens a sealed value bound to `context`; throws SealedSecretError when it cannot be opened. */
  open(sealed: string, context: string): Buffer {
    const [version, id, iv, body, tag] = sealed.split('.');
    if (version !== VERSION || !id || iv === undefined || body === undefined || tag === undefined)
      throw new SealedSecretError('This is not a sealed secret.');
    const key = this.keys.get(id);
    if (!key) {
      throw new SealedSecretError(
        'This secret was sealed under a key this server does not have: set INTEGRATIONS_PREVIOUS_SECRET_KEYS to the key it was sealed with, or set the secret again.',
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
    } catch {
      throw new SealedSecretError('This sealed secret was altered, or belongs to another record.');
    }
  }

  /** Opens a sealed value as text. */
  openText(sealed: string, context: string): string {
    return this.open(sealed, context).toString('utf8');
  }

  /** Whether a value was sealed under an older key (and should be sealed again: `reseal`). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.currentId;
  }

  /** The value sealed again under the current key (itself when it already is). */
  reseal(sealed: string, context: string): string {
    return this.isStale(sealed) ? this.seal(this.open(sealed, context), context) : sealed;
  }
}

/** A new random key, as INTEGRATIONS_SECRET_KEY takes it (32 bytes, base64). */
export const newSealingKey = () => randomBytes(32).toString('base64');
