/**
 * The language of the pages a launch answers inside the LMS (issue 31; decision 056): the launching
 * person's, as the platform tells it in the id_token's launch presentation claim — its `locale`, a BCP 47
 * tag (LTI Core 1.3 §5.4.4; one written with an underscore, `es_MX`, is read the same) — else the browser's
 * Accept-Language, else the language of the Waymark account the launch is linked to, else English. A tag
 * Waymark does not speak is passed over for the next.
 */
import { acceptedLanguages, DEFAULT_LOCALE, matchLocale, type UiLocale } from '@shared/i18n/locales';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { type ExternalIdentity, userForIdentity } from '../core/identities';

export const LAUNCH_PRESENTATION = 'https://purl.imsglobal.org/spec/lti/claim/launch_presentation';

/** The `locale` of a launch's presentation claim, or null. */
export function claimedLocale(claims: Record<string, unknown>): string | null {
  const claim = claims[LAUNCH_PRESENTATION];
  const locale = claim && typeof claim === 'object' ? (claim as Record<string, unknown>).locale : null;
  return typeof locale === 'string' && locale.length <= 64 ? locale : null;
}

/**
 * The `locale` an id_token names before it is checked: only the language of the refusal of that very
 * request is chosen by it (what the sender says of itself; nothing of anyone else is read by it).
 */
export function unverifiedLocale(idToken: unknown): string | null {
  if (typeof idToken !== 'string' || !idToken) return null;
  try {
    return claimedLocale(decodeJwt(idToken) as Record<string, unknown>);
  } catch {
    return null;
  }
}

type Header = string | string[] | undefined;
const headerOf = (h: Header) => (Array.isArray(h) ? h.join(',') : h);

/** The first of the claim, the header and the account's language that Waymark speaks; else English. */
export function pageLocale(a: { claimed?: string | null; acceptLanguage?: Header; account?: string | null }) {
  return (
    matchLocale([a.claimed]) ??
    matchLocale(acceptedLanguages(headerOf(a.acceptLanguage))) ??
    matchLocale([a.account]) ??
    DEFAULT_LOCALE
  );
}

/**
 * The language of a verified launch's person: the account's is read (the identity the launch is linked to
 * in its tenant) only when neither the claim nor the header names one Waymark speaks.
 */
export async function launchLocale(
  db: Db,
  who: ExternalIdentity,
  claims: Record<string, unknown>,
  acceptLanguage: Header,
): Promise<UiLocale> {
  const claimed = claimedLocale(claims);
  const asked = matchLocale([claimed]) ?? matchLocale(acceptedLanguages(headerOf(acceptLanguage)));
  if (asked) return asked;
  const userId = await userForIdentity(db, who);
  const [account] = userId
    ? await db.select({ language: users.language }).from(users).where(eq(users.id, userId))
    : [];
  return pageLocale({ account: account?.language });
}
