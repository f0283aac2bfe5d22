/** The catalogues as modules (scripts/i18n/vite-plugin.ts). */
declare module 'virtual:wm-messages' {
  import type { UiLocale } from '@shared/i18n/locales';
  import type { CompiledCatalogue } from '@shared/i18n/translator';
  /** English, compiled: every message, or in an element's build the element's own. */
  export const english: CompiledCatalogue;
  /** The other languages, each fetched when asked for. */
  export const loaders: Record<Exclude<UiLocale, 'en'>, () => Promise<{ default: CompiledCatalogue }>>;
}
