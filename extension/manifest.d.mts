export declare const PERMISSIONS: Record<string, string>;
export declare const HOST_PERMISSION: string;
export declare const DATA_COLLECTED: readonly { category: string; readme: string; what: string }[];
export declare function storeVersion(version: string): string;
export interface Manifest {
  manifest_version: 3;
  name: string;
  version: string;
  permissions: string[];
  host_permissions: string[];
  content_scripts: { matches: string[]; js: string[]; run_at: string; all_frames: boolean }[];
  incognito: string;
  [key: string]: unknown;
}
export declare function manifests(o: { version: string; origins: string[]; chromiumKey?: string }): {
  chromium: Manifest;
  firefox: Manifest;
};
