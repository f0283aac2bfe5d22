/// <reference types="chrome" />
/**
 * The page bridge, on the portal's pages only. The portal posts {source: 'waymark-page', action, payload,
 * requestId} to its own window; this script answers {source: 'waymark-extension', requestId, message} on the
 * same window. Only messages from this very window and origin are read; no answer means NO-EXTENSION.
 */
import { ext } from './browser';
import { EXTENSION_SOURCE, PAGE_ACTIONS, PAGE_SOURCE, type PageAction, type PageAnswer } from './protocol';

interface PageMessage {
  source?: unknown;
  action?: unknown;
  payload?: unknown;
  requestId?: unknown;
}

function answer(requestId: string, message: PageAnswer) {
  window.postMessage({ source: EXTENSION_SOURCE, requestId, message }, window.location.origin);
}

window.addEventListener('message', (event: MessageEvent) => {
  if (event.source !== window || event.origin !== window.location.origin) return;
  const data = event.data as PageMessage | null;
  if (!data || typeof data !== 'object' || data.source !== PAGE_SOURCE) return;
  const { action, requestId } = data;
  if (typeof requestId !== 'string' || requestId.length > 100) return;
  if (!PAGE_ACTIONS.includes(action as PageAction)) return;
  // after the extension is updated or removed, this script is orphaned: stay silent (NO-EXTENSION)
  if (!ext.runtime?.id) return;
  if (action === 'CHECK') answer(requestId, 'Present');
  ext.runtime
    .sendMessage({ kind: 'page', action, payload: data.payload })
    .then((reply: unknown) => {
      if (action !== 'CHECK' && typeof reply === 'string') answer(requestId, reply as PageAnswer);
    })
    .catch(() => undefined);
});
