/** The words of the Integrations pages. */
export const INTEGRATIONS_COPY = {
  shownOnce:
    'Copy this key now and keep it somewhere safe: it is shown only once. Waymark keeps only a hash of it, so it cannot show it again.',
  copied: 'The key was copied.',
  copyByHand: 'Copying was not allowed here: the key is selected, copy it with Ctrl+C (⌘C).',
} as const;

/** The words of the Single sign-on and Provisioning (SCIM) pages (decision 043). */
export const SSO_SCIM_COPY = {
  scimIntro:
    'Your identity provider (Okta, Microsoft Entra ID, OneLogin, …) can add and remove your learners automatically over SCIM 2.0: a new employee gets a seat, a leaver’s seat is freed when they are deactivated, and its groups become your cohorts. Give it the SCIM base URL below and a token.',
  baseUrl: 'SCIM base URL (Okta: “SCIM connector base URL”; Entra ID: “Tenant URL”)',
  noTokens: 'No SCIM tokens yet',
  tokenHint: 'Which identity provider uses the token, e.g. “Okta”.',
  tokenShownOnce:
    'Copy this token into your identity provider now (Okta: API Token, Entra ID: Secret Token): it is shown only once. Waymark keeps only a hash of it.',
  rotateWarning:
    'A new token is made and this one stops working at once: paste the new one into your identity provider.',
  revokeWarning: 'Your identity provider is refused from its next request on, until you give it a new token.',
  tokenFailed: 'The token could not be made. Please try again.',
  ssoIntro:
    'Let your learners sign in with your organisation’s own sign-in (OpenID Connect: Okta, Microsoft Entra ID, Google Workspace, …). Register Waymark with your identity provider using the redirect URI below, enter what it gives you, and verify the e-mail domains you own: addresses on them are sent to your sign-in.',
  redirectUri: 'Redirect URI (sign-in redirect URI) to register with your identity provider',
  secretKept: 'A client secret is kept (sealed). Leave empty to keep it.',
  requireHint:
    'Learners with an address on a verified domain must then use your sign-in; a password or a personal Google or Microsoft sign-in is refused. Mentors keep their own sign-in.',
  saved: 'Single sign-on was saved.',
  saveFailed: 'Single sign-on could not be saved. Please try again.',
  noDomains: 'No domains yet',
  domainHint: 'The part after @ in your people’s addresses, e.g. example.com.',
  txtHelp: (name: string, value: string) =>
    `Add a TXT record named ${name} with the value ${value}, then press Check DNS.`,
  mailHelp: 'Or send a code to an administrator’s address on the domain:',
  codeSent: (to: string) => `A code was sent to ${to}. Enter it here.`,
  verified: (domain: string) => `${domain} is verified.`,
} as const;
