/** Types of vite-plugin.mjs. */
import type { Plugin } from 'vite';

export interface MessagesOptions {
  /** The elements' build: each element's entry file (absolute) by element name. */
  elements?: Record<string, string>;
}
export function messages(options?: MessagesOptions): Plugin;
