/**
 * The verifier's words in the reader's language: each check's finding and the summary come from the
 * server by code (shared/credentials/words.ts, decision 048) and are said from the catalogue; words of a
 * code this page does not know (a newer server) are shown in the server's English.
 */
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import type { VerificationReport } from '@shared/schemas/credential';

type Speaker = Pick<Translator, 't'>;
interface Coded {
  code: string;
  params?: Record<string, string | number> | undefined;
}

/** Words by their code, or `english` when the catalogue has no such code. */
function say({ t }: Speaker, words: Coded, english: string): string {
  if (!words.code) return english;
  const key = words.code as MessageKey;
  const text = t(key, words.params);
  return text === key ? english : text;
}

/** A check's finding; the Open Badges check lists each problem in the reader's language. */
export function checkText(s: Speaker, check: VerificationReport['checks'][number]): string {
  if (!check.problems?.length) return say(s, check, check.detail);
  const problems = check.problems.map((p) => say(s, p, p.code)).join('; ');
  return say(s, { code: check.code, params: { ...check.params, problems } }, check.detail);
}

/** The report's summary, sentence by sentence. */
export const summaryText = (s: Speaker, report: VerificationReport): string =>
  report.summaryParts?.length
    ? report.summaryParts.map((p) => say(s, p, report.summary)).join(' ')
    : report.summary;
