/**
 * The page side of the extension protocol. The page posts an action (CHECK, IS-LOGGED-IN, SIGN-IN,
 * SIGN-OUT) to its own window; the extension's content script answers (Present, LOGGED-IN, NOT-LOGGED-IN,
 * LOGIN-SUCCESS, LOGOUT-SUCCESS). No answer in time means NO-EXTENSION.
 */
import { signal } from '@preact/signals-react';
import type { ExtensionStatus } from '@shared/schemas/activity';

export const EXTENSION_ACTIONS = ['CHECK', 'IS-LOGGED-IN', 'SIGN-IN', 'SIGN-OUT'] as const;
export type ExtensionAction = (typeof EXTENSION_ACTIONS)[number];
export const EXTENSION_MESSAGES = [
  'Present',
  'LOGGED-IN',
  'NOT-LOGGED-IN',
  'LOGIN-SUCCESS',
  'LOGOUT-SUCCESS',
] as const;
export type ExtensionMessage = (typeof EXTENSION_MESSAGES)[number] | 'NO-EXTENSION';

export const PAGE_SOURCE = 'waymark-page';
export const EXTENSION_SOURCE = 'waymark-extension';
export const EXTENSION_CHECK_DELAY_MS = 500;
const ANSWER_TIMEOUT_MS = 1500;

export const extensionStatus = signal<ExtensionStatus>({
  isPresent: false,
  isLogedIn: false,
  isChecked: false,
});

let counter = 0;

/** Sends one action and resolves with the extension's answer, or NO-EXTENSION. */
export function askExtension(
  action: ExtensionAction,
  payload?: unknown,
  timeoutMs = ANSWER_TIMEOUT_MS,
): Promise<ExtensionMessage> {
  if (typeof window === 'undefined') return Promise.resolve('NO-EXTENSION');
  // the window asked: the callbacks below may run when the global is gone (a page torn down)
  const w = window;
  const requestId = `${Date.now()}-${++counter}`;
  return new Promise((resolve) => {
    const timer = w.setTimeout(() => {
      w.removeEventListener('message', onMessage);
      resolve('NO-EXTENSION');
    }, timeoutMs);
    function onMessage(event: MessageEvent) {
      if (event.source !== w || event.origin !== w.location.origin) return;
      const data = event.data as { source?: string; requestId?: string; message?: string } | null;
      if (!data || data.source !== EXTENSION_SOURCE || data.requestId !== requestId) return;
      w.clearTimeout(timer);
      w.removeEventListener('message', onMessage);
      resolve(
        (EXTENSION_MESSAGES as readonly string[]).includes(data.message ?? '')
          ? (data.message as ExtensionMessage)
          : 'NO-EXTENSION',
      );
    }
    w.addEventListener('message', onMessage);
    w.postMessage({ source: PAGE_SOURCE, action, payload, requestId }, w.location.origin);
  });
}

/** CHECK, then IS-LOGGED-IN when present; updates the shared status. */
export async function checkExtension(): Promise<ExtensionStatus> {
  const before = extensionStatus.value;
  const present = (await askExtension('CHECK')) === 'Present';
  let loggedIn = false;
  if (present) loggedIn = (await askExtension('IS-LOGGED-IN')) === 'LOGGED-IN';
  // a status set while this check waited (a later check, a sign-in) is newer than this answer
  if (extensionStatus.value !== before) return extensionStatus.value;
  const status = { isPresent: present, isLogedIn: loggedIn, isChecked: true };
  extensionStatus.value = status;
  return status;
}

/** The check the portal runs 0.5 s after load. */
export function scheduleExtensionCheck(): Promise<ExtensionStatus> {
  return new Promise((resolve) => {
    window.setTimeout(() => void checkExtension().then(resolve), EXTENSION_CHECK_DELAY_MS);
  });
}

/** Waits for the first check (or runs one) and returns the status. */
export async function extensionReady(): Promise<ExtensionStatus> {
  if (extensionStatus.peek().isChecked) return extensionStatus.peek();
  return checkExtension();
}

/** Passes the learner's extension tokens to the extension. */
export async function signInExtension(
  tokens: { extensionAccessToken: string; extensionRefreshToken: string; uuid: string },
  apiBase: string,
) {
  const answer = await askExtension('SIGN-IN', { ...tokens, apiBase }, 5000);
  if (answer === 'LOGIN-SUCCESS')
    extensionStatus.value = { isPresent: true, isLogedIn: true, isChecked: true };
  return answer;
}

export async function signOutExtension() {
  const answer = await askExtension('SIGN-OUT', undefined, 3000);
  if (answer === 'LOGOUT-SUCCESS')
    extensionStatus.value = { isPresent: true, isLogedIn: false, isChecked: true };
  return answer;
}

export function storeUrlFor(userAgent: string, urls: { chromeStoreUrl: string; firefoxStoreUrl: string }) {
  return /firefox/i.test(userAgent) ? urls.firefoxStoreUrl : urls.chromeStoreUrl;
}
