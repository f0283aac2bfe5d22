/** Types of compile.mjs. */
import type { CompiledMessage } from '@lingui/message-utils/compileMessage';

/** A catalogue as written: message key → ICU MessageFormat text. */
export type SourceCatalogue = Readonly<Record<string, string>>;
export type Compiled = Record<string, string | CompiledMessage>;

export function compileOne(message: string, mapText?: (text: string) => string): string | CompiledMessage;
export function compileCatalogue(
  source: SourceCatalogue,
  keys?: Iterable<string>,
  mapText?: (text: string) => string,
): Compiled;
export function pseudoText(text: string): string;
export function compilePseudo(english: SourceCatalogue, keys?: Iterable<string>): Compiled;
