/** Types of sources.mjs. */
export const ROOT: string;
export const MESSAGES_DIR: string;
export const PSEUDO_LOCALE: 'en-XA';
export function catalogueLocales(): string[];
export function readCatalogue(locale: string): Record<string, string>;
export function resolveImport(specifier: string, importer: string): string | null;
export function moduleGraph(entry: string): string[];
export function keysIn(code: string, keys: ReadonlySet<string>, file?: string): Set<string>;
export function keysOfFiles(files: readonly string[], keys: ReadonlySet<string>): Set<string>;
