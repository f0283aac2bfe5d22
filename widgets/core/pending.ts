/**
 * What a visitor started before signing in, kept in localStorage so sign-in can finish it:
 * a roadmap selected or assessed on the public site, and a resource short link.
 */
export const ASSESSED_ROADMAP_KEY = 'assessed_roadmap_id';
export const RESOURCE_SHORT_ID_KEY = 'resource_shortId';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export const pending = {
  get(key: typeof ASSESSED_ROADMAP_KEY | typeof RESOURCE_SHORT_ID_KEY): string | null {
    return storage()?.getItem(key) ?? null;
  },
  set(key: typeof ASSESSED_ROADMAP_KEY | typeof RESOURCE_SHORT_ID_KEY, value: string) {
    storage()?.setItem(key, value);
  },
  clear(key: typeof ASSESSED_ROADMAP_KEY | typeof RESOURCE_SHORT_ID_KEY) {
    storage()?.removeItem(key);
  },
};
