/**
 * The resources this extension tracks: those of the learner's assigned roadmaps, as the server lists them
 * (GET /activity/tracked-resources), looked up by `trackingKey` of a tab's address.
 */
import { trackingKey } from '@shared/rules/heartbeats';

export interface TrackedList {
  resources: { resourceId: string; url: string; title: string }[];
  /** When the server listed them, unix ms. */
  fetchedAt: number;
}

export class TrackedResources {
  /** Resource ids by `trackingKey` of their address. */
  byKey: ReadonlyMap<string, string> = new Map();
  private titles: ReadonlyMap<string, string> = new Map();
  /** The addresses tracked, as the server listed them, by title (the popup shows them). */
  addresses: readonly { title: string; url: string }[] = [];
  fetchedAt = 0;

  set(list: TrackedList | undefined) {
    const byKey = new Map<string, string>();
    const titles = new Map<string, string>();
    for (const r of list?.resources ?? []) {
      const key = trackingKey(r.url);
      if (key) byKey.set(key, r.resourceId);
      titles.set(r.resourceId, r.title);
    }
    this.byKey = byKey;
    this.titles = titles;
    this.addresses = (list?.resources ?? [])
      .map((r) => ({ title: r.title, url: r.url }))
      .sort((a, b) => a.title.localeCompare(b.title));
    this.fetchedAt = list?.fetchedAt ?? 0;
  }

  title(resourceId: string): string | undefined {
    return this.titles.get(resourceId);
  }

  /** How many resources (a resource may be listed under several addresses). */
  get count(): number {
    return new Set(this.byKey.values()).size;
  }
}
