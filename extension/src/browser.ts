/// <reference types="chrome" />
/**
 * The extension API of this browser: `browser` in Firefox (promises), `chrome` in Chromium (promises in
 * Manifest V3). Both expose the same calls used here.
 */
export const ext: typeof chrome = (globalThis as { browser?: typeof chrome }).browser ?? chrome;

/** Firefox has runtime.getBrowserInfo; Chromium does not. */
export const isFirefox = () =>
  typeof (ext.runtime as unknown as { getBrowserInfo?: unknown }).getBrowserInfo === 'function';
