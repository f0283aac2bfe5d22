import { createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newSealingKey, SealedSecretError, SecretBox } from './sealed';

const key = () => Buffer.from(newSealingKey(), 'base64');

describe('sealed secrets (AES-256-GCM)', () => {
  it('opens what it sealed, in its context only', () => {
    const box = new SecretBox(key());
    const sealed = box.seal('whsec_abc', 'webhook:1');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.openText(sealed, 'webhook:1')).toBe('whsec_abc');
    expect(() => box.open(sealed, 'webhook:2')).toThrow(SealedSecretError);
  });

  it('uses a fresh IV each time', () => {
    const box = new SecretBox(key());
    expect(box.seal('same', 'c')).not.toBe(box.seal('same', 'c'));
  });

  it('is plain AES-256-GCM: node:crypto opens it with the key, the IV, the tag and the context', () => {
    const k = key();
    const sealed = new SecretBox(k).seal('a secret', 'lrs:7');
    const [, , iv, body, tag] = sealed.split('.') as string[];
    const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(iv!, 'base64url'));
    decipher.setAAD(Buffer.from('lrs:7'));
    decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(body!, 'base64url')), decipher.final()]);
    expect(plain.toString()).toBe('a secret');
    expect(Buffer.from(iv!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag!, 'base64url')).toHaveLength(16);
  });

  it('refuses an altered value', () => {
    const box = new SecretBox(key());
    const parts = box.seal('secret', 'c').split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0]! ^= 1;
    parts[3] = body.toString('base64url');
    expect(() => box.open(parts.join('.'), 'c')).toThrow(/altered/);
    expect(() => box.open('not sealed', 'c')).toThrow(/not a sealed secret/);
  });

  it('opens values of a previous key, says so, and seals them again under the new one', () => {
    const old = key();
    const sealedOld = new SecretBox(old).seal('kept', 'c');
    const fresh = key();
    expect(() => new SecretBox(fresh).open(sealedOld, 'c')).toThrow(/INTEGRATIONS_PREVIOUS_SECRET_KEYS/);
    const box = new SecretBox(fresh, [old]);
    expect(box.openText(sealedOld, 'c')).toBe('kept');
    expect(box.isStale(sealedOld)).toBe(true);
    const again = box.reseal(sealedOld, 'c');
    expect(box.isStale(again)).toBe(false);
    expect(new SecretBox(fresh).openText(again, 'c')).toBe('kept');
  });

  it('takes only 32-byte keys', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
