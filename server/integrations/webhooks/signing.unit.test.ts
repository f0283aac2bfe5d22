/**
 * Our signatures against the standard: the signing example of Standard Webhooks' own library tests (secret,
 * id, timestamp, body, the signature it must give), and every header set we make verified by the
 * standardwebhooks library — with either secret during a rotation, and refused when the body, the id or the
 * timestamp is changed.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signatureOf, webhookHeaders } from './signing';

describe('Standard Webhooks signatures', () => {
  it('gives the signature of the standard’s own example', () => {
    expect(
      signatureOf(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes secrets of 32 random bytes, whsec_ and base64', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs with every secret given, each verified by the standard’s library, and nothing altered passes', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ id: '0b8c3c52-5f0e-4c59-9d44-6f7c2f1f6a11', type: 'seat.added', data: {} });
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([current, previous], '0b8c3c52-5f0e-4c59-9d44-6f7c2f1f6a11', now, body);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    const refused = (b: string, h: Record<string, string>) =>
      expect(() => new Webhook(current).verify(b, h)).toThrow(WebhookVerificationError);
    refused(body.replace('seat.added', 'seat.removed'), headers);
    refused(body, { ...headers, 'webhook-id': 'another' });
    refused(body, { ...headers, 'webhook-timestamp': String(now - 1) });
    refused(body, webhookHeaders([newWebhookSecret()], headers['webhook-id'] as string, now, body));
  });
});
