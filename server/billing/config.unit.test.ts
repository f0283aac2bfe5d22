/** The payment settings are validated at boot: Stripe needs all three, production needs Stripe or an explicit sandbox. */
import { describe, expect, it } from 'vitest';
import { configProblems, loadConfig } from '../config';
import { TEST_SIGNING_KEY } from '../credentials/test-keys';

const base = {
  NODE_ENV: 'test',
  FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
  JWT_SECRET: 'x'.repeat(40),
  DATA_DIR: '.tmp/config-test',
};
const stripe = {
  STRIPE_SECRET_KEY: 'sk_test_51Habcdefgh',
  STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh12345678',
  STRIPE_PRICE_ID: 'price_1Seat',
};
const problems = configProblems;

describe('payment settings', () => {
  it('uses the sandbox when no Stripe setting is given, with a webhook secret of its own', () => {
    const config = loadConfig(base);
    expect(config.payments.stripe).toBeNull();
    expect(config.payments.sandboxWebhookSecret).toMatch(/^whsec_/);
    expect(loadConfig(base).payments.sandboxWebhookSecret).toBe(config.payments.sandboxWebhookSecret);
  });

  it('uses Stripe when all three settings are given', () => {
    expect(loadConfig({ ...base, ...stripe }).payments.stripe).toEqual({
      secretKey: stripe.STRIPE_SECRET_KEY,
      webhookSecret: stripe.STRIPE_WEBHOOK_SECRET,
      priceId: stripe.STRIPE_PRICE_ID,
      apiBase: 'https://api.stripe.com',
    });
  });

  it('names each missing or malformed Stripe setting', () => {
    expect(problems({ ...base, STRIPE_SECRET_KEY: stripe.STRIPE_SECRET_KEY })).toEqual([
      'STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY',
      'STRIPE_PRICE_ID is required with STRIPE_SECRET_KEY',
    ]);
    const bad = problems({
      ...base,
      ...stripe,
      STRIPE_SECRET_KEY: 'pk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'secret',
    });
    expect(bad.some((p) => p.startsWith('STRIPE_SECRET_KEY must be a Stripe secret key'))).toBe(true);
    expect(bad.some((p) => p.startsWith('STRIPE_WEBHOOK_SECRET must be'))).toBe(true);
  });

  it('refuses the sandbox in production unless asked for', () => {
    // production also needs mail (SMTP_URL), the credential signing key (server/credentials/keys.unit.test.ts)
    // and the integrations' sealing key (server/config.unit.test.ts)
    const production = {
      ...base,
      NODE_ENV: 'production',
      SMTP_URL: 'smtps://mail.example.com',
      CREDENTIAL_SIGNING_KEY: TEST_SIGNING_KEY,
      INTEGRATIONS_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
    };
    expect(
      problems(production).some((p) => p.startsWith('STRIPE_SECRET_KEY is required in production')),
    ).toBe(true);
    expect(problems({ ...production, PAYMENTS_SANDBOX: 'true' })).toEqual([]);
    expect(problems({ ...production, ...stripe })).toEqual([]);
  });
});
