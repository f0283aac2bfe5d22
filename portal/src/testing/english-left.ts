/**
 * What a form shows a Spanish reader that is still English (issue 31, decision 052): zod's English
 * defaults, a shared schema's own English ('Required', 'must be …', 'is required'), or a catalogue's English
 * text that Spanish says otherwise.
 */
import { english } from 'virtual:wm-messages';
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';

const ZOD_ENGLISH = /Too small|Too big|Invalid input|Invalid option|Invalid string|expected \w+, received/;
const SCHEMA_ENGLISH = /^(Required|(\w+ )?is required|must |choose )/;

/** The complaints a form shows under its fields. */
export const complaintsIn = (root: ParentNode): string[] =>
  [...root.querySelectorAll('.field-error')].map((e) => e.textContent ?? '').filter(Boolean);

/** Of `texts`, those still English for a reader of `spanish`. */
export function englishOf(texts: string[], spanish: Pick<Translator, 't'>): string[] {
  const catalogue = new Set(
    Object.entries(english as Record<string, unknown>)
      .filter(([k, v]) => typeof v === 'string' && spanish.t(k as MessageKey) !== v)
      .map(([, v]) => v as string),
  );
  return texts.filter((t) => ZOD_ENGLISH.test(t) || SCHEMA_ENGLISH.test(t) || catalogue.has(t));
}
