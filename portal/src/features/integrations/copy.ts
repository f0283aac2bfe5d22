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
