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
