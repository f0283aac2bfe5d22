/// <reference types="chrome" />
/**
 * Extension storage as the key-value stores the modules take: `local` survives the background being
 * stopped and the browser restarting; `session` is cleared when the browser closes (tab ids do not survive
 * it), and is `local` where a browser has no storage.session.
 */
import { ext } from './browser';
import type { KeyValueStore } from './queue';

export interface Store extends KeyValueStore {
  remove(key: string): Promise<void>;
}

function area(storage: chrome.storage.StorageArea): Store {
  return {
    async get<T>(key: string) {
      return (await storage.get(key))[key] as T | undefined;
    },
    async set(key, value) {
      await storage.set({ [key]: value });
    },
    async remove(key) {
      await storage.remove(key);
    },
  };
}

export const local: Store = area(ext.storage.local);
export const session: Store = ext.storage.session ? area(ext.storage.session) : local;
