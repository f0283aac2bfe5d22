/**
 * Standard Webhooks' symmetric signatures (https://www.standardwebhooks.com, "Signature scheme"), made here:
 * the secret is `whsec_` + base64 of 32 random bytes (the standard asks for 24 to 64), the content signed
 * is `{webhook-id}.{webhook-timestamp}.{body}`, the signature `v1,` + base64 of its HMAC-SHA256 under the
 * secret's bytes. `webhook-signature` lists one signature per secret in use, space-delimited: after a
 * rotation the previous secret signs too for a day, so a receiver can swap secrets without missing one.
 * The tests verify every delivery with the standard's own library (standardwebhooks).
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = () => `${PREFIX}${randomBytes(32).toString('base64')}`;

/** `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the secret's bytes. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The headers of one attempt: its id (the same for every attempt of an event), its time in unix seconds
 * (this attempt's, not the event's: a receiver refuses an old one), one signature per secret.
 */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Waymark-Webhooks/1.0',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signatureOf(s, id, timestamp, body)).join(' '),
  };
}
