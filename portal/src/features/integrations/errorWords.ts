/**
 * Why a webhook delivery or an LRS statement entry failed, in the reader's language: the server gives the
 * error by code, sentence by sentence (`errorParts`, shared/rules/delivery-words.ts; decision 048), said
 * here from the catalogue. What the receiver or the network said stays in its own words inside the
 * sentence; an error stored before it had codes, or with a code this page does not know (a newer
 * server), is shown in the server's English.
 */
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { formatDateTime } from '@shared/rules/format-date';

interface Failed {
  error: string | null;
  errorParts: { code: string; params?: Record<string, string | number> | undefined }[] | null;
}

/** The error of a delivery or an entry, or null when it has none. */
export function errorText({ t, locale }: Pick<Translator, 't' | 'locale'>, e: Failed): string | null {
  if (!e.errorParts?.length) return e.error;
  const said = e.errorParts.map(({ code, params = {} }) => {
    const values =
      typeof params.since === 'string'
        ? { ...params, since: formatDateTime(params.since, undefined, locale) }
        : params;
    const text = t(code as MessageKey, values);
    return text === code ? null : text;
  });
  return said.every((s) => s !== null) ? said.join(' ') : e.error;
}
