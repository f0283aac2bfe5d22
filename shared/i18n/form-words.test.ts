/**
 * The integrations forms' schemas (issue 31, decision 052): every complaint a field can get — zod's own
 * (through the parse's words) or the schema's English — is said in Spanish, and the English the server
 * and the CLI rely on stays as it was written.
 */
import { english, loaders } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AddSsoDomainInput,
  CreateApiKeyInput,
  MailSsoCodeInput,
  SaveSamlSsoInput,
  SaveSsoInput,
  SsoStartInput,
  VerifySsoDomainInput,
} from '../schemas/integrations';
import { CreateLtiRegistrationInput } from '../schemas/lti';
import { CreateWebhookInput } from '../schemas/webhooks';
import { ConnectXapiInput } from '../schemas/xapi';
import { fieldText, formWordsIn } from './form-words';
import { createTranslator } from './translator';

const es = createTranslator('es', (await loaders.es()).default);
const en = createTranslator('en', english);

/** Every field's complaint of `values` said as the portal's `Field` says it. */
function complaints(schema: z.ZodType, values: unknown, t = es) {
  const result = schema.safeParse(values, formWordsIn(t));
  expect(result.success).toBe(false);
  return result.error!.issues.map((i) => fieldText(t, i.message));
}

const ENGLISH = /^(must |is required|Required$)|Too (small|big)|Invalid input|expected \w+, received/;

describe('the integrations forms in Spanish', () => {
  it.each([
    ['an API key, empty', CreateApiKeyInput, { name: '', scopes: [] }],
    [
      'an API key, out of bounds',
      CreateApiKeyInput,
      { name: 'x'.repeat(101), scopes: ['seats:write'], expiresInDays: 0 },
    ],
    ['an API key, too long', CreateApiKeyInput, { name: 'k', scopes: ['seats:write'], expiresInDays: 9999 }],
    [
      'an API key, days not whole',
      CreateApiKeyInput,
      { name: 'k', scopes: ['seats:write'], expiresInDays: 1.5 },
    ],
    [
      'an API key, days not a number',
      CreateApiKeyInput,
      { name: 'k', scopes: ['seats:write'], expiresInDays: 'x' },
    ],
    ['a webhook endpoint', CreateWebhookInput, { url: 'nope', events: [], description: 'x'.repeat(201) }],
    ['a learning record store', ConnectXapiInput, { endpoint: 'lrs', username: '', secret: '' }],
    [
      'an LMS platform',
      CreateLtiRegistrationInput,
      { label: '', issuer: 'moodle', clientId: '', deploymentIds: [] },
    ],
    ['single sign-on (OIDC)', SaveSsoInput, { displayName: '', issuer: 'idp', clientId: '' }],
    ['single sign-on (SAML)', SaveSamlSsoInput, { displayName: 'x'.repeat(101), metadataUrl: 'idp' }],
    ['a domain', AddSsoDomainInput, { domain: '' }],
    ['a domain’s mailbox', MailSsoCodeInput, { mailbox: 'root' }],
    ['a domain’s code', VerifySsoDomainInput, { code: '12' }],
    ['a sign-in address', SsoStartInput, { email: 'ana' }],
  ] as const)('%s', (_name, schema, values) => {
    const said = complaints(schema, values);
    expect(said.length).toBeGreaterThan(0);
    expect(said.filter((s) => ENGLISH.test(s))).toEqual([]);
  });

  it('says the days of an API key with plurals, and the example an address is like', () => {
    expect(
      complaints(CreateApiKeyInput, { name: 'k', scopes: ['seats:write'], expiresInDays: 9999 }),
    ).toEqual(['Debe ser como máximo 730 días']);
    expect(complaints(CreateWebhookInput, { url: 'nope', events: ['seat.added'] })).toEqual([
      'Debe ser una dirección como https://example.com/webhooks/waymark',
    ]);
    expect(
      complaints(CreateApiKeyInput, { name: 'k', scopes: ['seats:write'], expiresInDays: 0 }, en),
    ).toEqual(['Must be at least 1 day']);
  });
});
