/**
 * The extension's messages (decision 040): the catalogues' keys under `extension.popup.` and
 * `extension.manifest.`, written by the extension's build as `_locales/{language}/messages.json`, the file
 * both browsers read (chrome.i18n / browser.i18n pick the browser's UI language, English by default). The
 * text stays ICU MessageFormat; the popup formats it (plurals, values) with the shared translator.
 */

/** The keys the extension says. */
export const isExtensionKey = (key) =>
  key.startsWith('extension.popup.') || key.startsWith('extension.manifest.');

/** A key as a message name of `_locales` (letters, digits and `_` only): `.` and `-` become `_`. */
export const chromeName = (key) => key.replace(/[.-]/g, '_');

/** One language's `messages.json` from its catalogue (`$` doubled: it starts a placeholder there). */
export function extensionMessages(catalogue) {
  const out = {};
  for (const [key, text] of Object.entries(catalogue)) {
    if (isExtensionKey(key)) out[chromeName(key)] = { message: text.replace(/\$/g, '$$$$') };
  }
  return out;
}
