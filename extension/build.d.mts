export declare function productionOrigin(env?: Record<string, string | undefined>): string;
export declare function zipFolder(dir: string): Uint8Array;
export declare function buildExtension(o?: {
  outDir?: string;
  env?: Record<string, string | undefined>;
}): Promise<{ version: string; production: string; packages: { chromium: string; firefox: string } }>;
