/**
 * The issuer's keys: the settings' key read back to the same public key, production refusing to start
 * without one, a key file generated once outside production, and a rotation that keeps the old public key.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { didWebDocumentUrl, didWebOf } from '@shared/credentials/did';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { keyFromSecret, localKeyFile, rotateKeyFile } from './keys';
import { TEST_PUBLIC_KEY, TEST_SIGNING_KEY } from './test-keys';

const dir = mkdtempSync(join(tmpdir(), 'waymark-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = {
  FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
  JWT_SECRET: 'x'.repeat(40),
  DATA_DIR: dir,
  PAYMENTS_SANDBOX: 'true',
};
const problems = (e: Record<string, string>) => {
  try {
    loadConfig(e);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};

describe('issuer keys', () => {
  it('reads the settings key back to its public key, controlled by the did:web of PUBLIC_URL', async () => {
    const pair = await keyFromSecret(TEST_SIGNING_KEY, 'did:web:waymark.example');
    expect(pair.publicKeyMultibase).toBe(TEST_PUBLIC_KEY);
    expect(pair.id).toBe(`did:web:waymark.example#${TEST_PUBLIC_KEY}`);
    await expect(keyFromSecret(TEST_PUBLIC_KEY, 'did:web:x')).rejects.toThrow(/not an Ed25519 secret key/);
  });

  it('needs a signing key in production and well-formed earlier keys', () => {
    expect(problems({ ...env, NODE_ENV: 'production' })).toContainEqual(
      expect.stringMatching(/^CREDENTIAL_SIGNING_KEY is required in production/),
    );
    expect(
      problems({
        ...env,
        NODE_ENV: 'production',
        SMTP_URL: 'smtps://mail.example.com',
        CREDENTIAL_SIGNING_KEY: TEST_SIGNING_KEY,
        INTEGRATIONS_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
      }),
    ).toEqual([]);
    expect(problems({ ...env, CREDENTIAL_SIGNING_KEY: 'secret' })).toContainEqual(
      expect.stringMatching(/^CREDENTIAL_SIGNING_KEY must be an Ed25519 Multikey/),
    );
    expect(problems({ ...env, CREDENTIAL_PREVIOUS_KEYS: `${TEST_PUBLIC_KEY}, z6Mkbad` })).toContainEqual(
      expect.stringMatching(/^CREDENTIAL_PREVIOUS_KEYS must be Ed25519 public keys/),
    );
    const config = loadConfig({
      ...env,
      CREDENTIAL_PREVIOUS_KEYS: `${TEST_PUBLIC_KEY} , ${TEST_PUBLIC_KEY}`,
    });
    expect(config.credentials.previousKeys).toEqual([TEST_PUBLIC_KEY, TEST_PUBLIC_KEY]);
  });

  it('generates a key file once outside production, and a rotation keeps the old public key', async () => {
    const file = join(dir, 'secrets', 'credential-keys.json');
    const [a, b] = await Promise.all([localKeyFile(file), localKeyFile(file)]);
    expect(a.keys[0]!.publicKeyMultibase).toBe(b.keys[0]!.publicKeyMultibase);
    const { retired, current } = await rotateKeyFile(file);
    expect(retired).toBe(a.keys[0]!.publicKeyMultibase);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.keys.map((k: { publicKeyMultibase: string }) => k.publicKeyMultibase)).toEqual([
      current,
      retired,
    ]);
    expect(after.keys[1].secretKeyMultibase).toBeUndefined();
    expect(after.keys[1].retiredAt).toBeTruthy();
  });

  it('writes did:web as the method says, and finds its document', () => {
    expect(didWebOf('https://waymark.example')).toBe('did:web:waymark.example');
    expect(didWebOf('http://127.0.0.1:8080/')).toBe('did:web:127.0.0.1%3A8080');
    expect(didWebOf('https://example.org/schools/waymark')).toBe('did:web:example.org:schools:waymark');
    expect(didWebDocumentUrl('did:web:waymark.example')).toBe('https://waymark.example/.well-known/did.json');
    expect(didWebDocumentUrl('did:web:example.org:schools:waymark')).toBe(
      'https://example.org/schools/waymark/did.json',
    );
    expect(didWebDocumentUrl('did:web:127.0.0.1%3A8080')).toBe('http://127.0.0.1:8080/.well-known/did.json');
    expect(() => didWebDocumentUrl('did:web:')).toThrow(/not a valid did:web/);
  });
});
