/**
 * The extension's two manifests (Chromium and Firefox) from one description, and what the stores ask
 * about them: each permission with what it is for (extension/README.md repeats these words for the store
 * forms; a test checks it does) and the data the Firefox manifest declares it collects (the README's
 * "What Waymark records", no more).
 */

/** The API permissions, each with why the extension needs it, in the words a store reviewer asks for. */
export const PERMISSIONS = {
  storage:
    'Keeps the sign-in tokens, the pause switch, the list of addresses to track and the heartbeats waiting to be sent, so nothing is lost when the browser stops the background or goes offline.',
  tabs: "Reads the address of open tabs to tell whether one is a resource of the learner's assigned roadmaps; the addresses of other tabs are compared and forgotten, never stored or sent.",
  idle: 'Tells whether the person is at the computer (keyboard or mouse used in the last 60 seconds), so time is counted only while they study.',
  alarms:
    'Wakes the background every 30 seconds while a resource is studied, and to resend heartbeats after a failure.',
};

/** Why the extension may read the portal's pages and call its API (host permissions, content script). */
export const HOST_PERMISSION =
  "Waymark's own site only: the page bridge lets the portal sign the extension in and out, and the extension sends the heartbeats to Waymark's API there.";

/**
 * What the extension transmits, as Firefox's data collection categories
 * (browser_specific_settings.gecko.data_collection_permissions), each with the words of README.md's
 * "What Waymark records" that say it.
 */
export const DATA_COLLECTED = [
  {
    category: 'browsingActivity',
    readme: 'a tab of an assigned resource is in front',
    what: 'the address of a tab that shows a resource of an assigned roadmap, and when',
  },
  {
    category: 'websiteActivity',
    readme: 'you are active, or plays sound',
    what: 'whether the person was active (keyboard or mouse) with that tab in front, or it played sound',
  },
];

const ICONS = {
  16: 'icons/icon-16.png',
  32: 'icons/icon-32.png',
  48: 'icons/icon-48.png',
  128: 'icons/icon-128.png',
};

/** Both stores take 1 to 4 dot-separated whole numbers, each at most 65535. */
export function storeVersion(version) {
  const parts = String(version).split('.');
  const ok =
    parts.length >= 1 &&
    parts.length <= 4 &&
    parts.every((p) => /^(0|[1-9]\d{0,4})$/.test(p) && Number(p) <= 65535);
  if (!ok)
    throw new Error(
      `package.json "version" must be 1 to 4 dot-separated whole numbers (each ≤ 65535) for the extension stores (got ${version})`,
    );
  return String(version);
}

/**
 * The manifests. `origins`: the portal's match patterns (content script and API access); `chromiumKey`: the
 * public key that fixes the unpacked Chromium build's id (not in a store package: the store refuses it).
 */
export function manifests({ version, origins, chromiumKey }) {
  const common = {
    manifest_version: 3,
    name: 'Waymark',
    short_name: 'Waymark',
    version: storeVersion(version),
    // in the browser's language, from _locales (extension.manifest.description of the catalogues)
    description: '__MSG_extension_manifest_description__',
    default_locale: 'en',
    icons: ICONS,
    action: { default_title: 'Waymark', default_popup: 'popup.html', default_icon: ICONS },
    permissions: Object.keys(PERMISSIONS),
    host_permissions: origins,
    content_scripts: [{ matches: origins, js: ['content.js'], run_at: 'document_start', all_frames: false }],
    // never in private windows
    incognito: 'not_allowed',
    content_security_policy: { extension_pages: "script-src 'self'; object-src 'self'" },
  };
  const chromium = {
    ...common,
    ...(chromiumKey ? { key: chromiumKey } : {}),
    minimum_chrome_version: '120',
    background: { service_worker: 'background.js' },
  };
  const firefox = {
    ...common,
    // Firefox's Manifest V3 background is an event page (scripts), not a service worker
    background: { scripts: ['background.js'] },
    browser_specific_settings: {
      gecko: {
        id: 'extension@waymark.app',
        // the first release with data_collection_permissions (and the ESR release)
        strict_min_version: '140.0',
        data_collection_permissions: { required: DATA_COLLECTED.map((d) => d.category) },
      },
      // the key is read from 142 on Android (Waymark is not offered there: Firefox for Android has no
      // windows or idle API; extension/README.md, "Firefox Add-ons")
      gecko_android: { strict_min_version: '142.0' },
    },
  };
  return { chromium, firefox };
}
