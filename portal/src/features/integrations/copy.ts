/** The words of the Integrations pages. */
export const INTEGRATIONS_COPY = {
  keysIntro:
    'API keys let your other systems — an HR system, a reporting tool, a script — call Waymark as you, only for what their scopes allow. Send a key as “Authorization: Bearer wm_…”; the API document lists the scope each call needs. Keys are counted against a limit of requests a minute each.',
  noKeys: 'No API keys yet',
  nameHint: 'What the key is for, e.g. “HR system sync”.',
  expiryHint: 'An expired key stops working; you can make a new one at any time.',
  createFailed: 'The key could not be created. Please try again.',
  shownOnce:
    'Copy this key now and keep it somewhere safe: it is shown only once. Waymark keeps only a hash of it, so it cannot show it again.',
  copied: 'The key was copied.',
  copyByHand: 'Copying was not allowed here: the key is selected, copy it with Ctrl+C (⌘C).',
  revokeWarning:
    'Every system using this key is refused from its next request on, and the key cannot be used again.',
  revoked: (name: string) => `The key “${name}” was revoked.`,
  revokeFailed: 'The key could not be revoked. Please try again.',
  logIntro:
    "Every change to your learners' seats, their roadmaps, your assessments and their sharing, your API keys and integrations, and award revocations: who made it (a person, an API key, …), when and from where. Entries cannot be changed or deleted, and are kept for at least a year.",
  noEntries: 'No activity found',
  loadMoreFailed: 'More entries could not be loaded. Please try again.',
  lmsIntro:
    'Add Waymark to your LMS (Moodle, Canvas, Blackboard, Brightspace, Schoology) as an LTI 1.3 tool: give your LMS a Registration URL, or paste the values below into it and add the platform here with the values it shows you. Learners who open Waymark from a course get a seat of your organisation.',
  noPlatforms: 'No LMS platforms yet',
  lmsManualHint: 'Your LMS shows these values once Waymark is added to it as an LTI 1.3 tool.',
  lmsDeploymentsHint: 'One or more, separated by commas or new lines.',
  lmsAdded: (label: string) => `The platform “${label}” was added.`,
  lmsAddFailed: 'The platform could not be added. Please try again.',
  lmsPaused: (label: string) => `“${label}” is paused: its launches are refused until you resume it.`,
  lmsResumed: (label: string) => `“${label}” is active again.`,
  lmsChangeFailed: 'The platform could not be changed. Please try again.',
  lmsRemoved: (label: string) => `The platform “${label}” was removed.`,
  lmsRemoveWarning:
    'Launches from this platform are refused from now on. Its learners keep their accounts, seats and results.',
  lmsInviteHint: 'A name you know the platform by, e.g. “Our Moodle”.',
  lmsInviteMade: (expires: string) =>
    `Paste this URL into your LMS’s tool registration (Moodle: Manage tools → Tool URL; Canvas: Developer Keys → LTI Registration). It works once, until ${expires}.`,
  lmsInviteFailed: 'The registration URL could not be made. Please try again.',
  noFailedPosts: 'Every score reached its gradebook',
  noCourses: 'No course has opened Waymark from this platform yet.',
  noMemberList: 'This LMS did not offer its member list.',
  lmsSyncFailed: 'The members could not be read from the LMS. Please try again.',
  lmsSyncCounts: (r: {
    dryRun: boolean;
    counts: { added: number; present: number; notAdded: number };
    skipped: number;
  }) =>
    `${r.dryRun ? 'Would add' : 'Added'} ${r.counts.added}, already seated ${r.counts.present}, not added ${r.counts.notAdded}; ${r.skipped} instructors or inactive members left alone.`,
  lmsRetried: 'The score will be sent again within a minute.',
  lmsRetryFailed: 'The score could not be sent again. Please try again.',
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

/** The words of Integrations → Webhooks. */
export const WEBHOOKS_COPY = {
  intro:
    'Waymark sends the events you choose — an award issued, an assessment evaluated, a seat added, … — to your endpoints as signed HTTPS POST requests (Standard Webhooks: verify the webhook-signature header with your endpoint’s secret). A delivery that fails is retried for three days; an endpoint failing for three days is paused and you are told by mail.',
  none: 'No webhook endpoints yet',
  urlHint: 'An https address of yours. Private and local network addresses are not allowed.',
  ordered: 'Deliver one at a time, in the order the events happened (a failing delivery holds back the next)',
  addFailed: 'The endpoint could not be added. Please try again.',
  shownOnce:
    'Copy the signing secret now and keep it with your endpoint: it is shown only once. Your endpoint verifies each delivery’s signature with it.',
  rotated:
    'Copy the new signing secret now: it is shown only once. For 24 hours every delivery is signed with both the new and the previous secret, so you can switch without missing one.',
  testSent: 'The test event is on its way: see it in the deliveries below.',
  paused: (url: string) => `${url} is paused: nothing is sent to it until you enable it.`,
  enabled: (url: string) => `${url} is enabled again.`,
  removed: (url: string) => `${url} was deleted.`,
  removeWarning: 'Nothing more is sent to this endpoint, and its delivery history is deleted with it.',
  redelivered: 'The delivery is sent again.',
  redeliveredFailed: (n: number) =>
    n === 0
      ? 'There was no failed delivery in that period.'
      : `${n} failed ${n === 1 ? 'delivery is' : 'deliveries are'} sent again.`,
  noDeliveries: 'No deliveries yet',
  failed: 'That did not work. Please try again.',
} as const;

/** The words of Integrations → Learning record store. */
export const XAPI_COPY = {
  intro:
    'Send your learners’ activity to your organisation’s learning record store (LRS) as xAPI statements: resources studied with the time spent, assessments attempted and passed or failed with the score, awards earned, roadmaps completed. Statements are sent in batches in the background, retried when the LRS is unavailable, and never slow your learners down.',
  endpointHint:
    'The LRS’s xAPI endpoint, e.g. https://lrs.example.com/xapi/ — statements are sent to its /statements.',
  secretHint: 'Kept encrypted and never shown again.',
  secretKeep: 'Leave empty to keep the current secret.',
  actorAccount: 'A stable pseudonym per learner (recommended: the LRS does not learn their e-mail address)',
  actorMbox: 'The learner’s e-mail address',
  saved: 'The learning record store settings are saved.',
  connected: 'The learning record store is connected.',
  disconnected: 'The learning record store is disconnected.',
  disconnectWarning: 'Nothing more is sent to it, and statements waiting to be sent are dropped.',
  resent: (n: number) =>
    n === 0
      ? 'There was no failed statement to send again.'
      : `${n} failed ${n === 1 ? 'entry is' : 'entries are'} sent again.`,
  noEntries: 'Nothing sent yet',
  failed: 'That did not work. Please try again.',
} as const;
