/**
 * What a visitor started before signing in, kept in localStorage so sign-in can finish it: a roadmap
 * selected or assessed on the public site, and a resource short link; and the stored tenant-portal flag.
 */
export const ASSESSED_ROADMAP_KEY = 'assessed_roadmap_id';
export const RESOURCE_SHORT_ID_KEY = 'resource_shortId';
/**
 * The stored tenant-portal flag (mentor §4, §6): set for a learner who came in through a mentor's
 * invitation, whose learning lives in the portal their mentor follows; a roadmap they select or are
 * assessed for then opens as their own copy (/my-roadmap/{id}) rather than the public preview.
 */
export const TENANT_PORTAL_KEY = 'tenant_portal';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

type Key = typeof ASSESSED_ROADMAP_KEY | typeof RESOURCE_SHORT_ID_KEY | typeof TENANT_PORTAL_KEY;

export const pending = {
  get(key: Key): string | null {
    return storage()?.getItem(key) ?? null;
  },
  set(key: Key, value: string) {
    storage()?.setItem(key, value);
  },
  clear(key: Key) {
    storage()?.removeItem(key);
  },
};
