/**
 * Open Graph and Twitter tags for award pages, so a shared /certificate|badge|feather/{linkId} link shows
 * the learner's name, what was achieved and the image. Added to the portal's index.html by the server;
 * every value is HTML-escaped.
 */
import { escapeHtml } from '@shared/formats/html';
import { formatDate } from '@shared/rules/format-date';
import { awardKindOf } from '@shared/rules/test-status';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { StorageAdapter } from '../adapters/storage';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { translatorFor } from '../lib/i18n';
import { achievement, certificateInfoOf, findAward, ISSUER } from './info';

const AWARD_PAGE = /^\/(certificate|badge|feather)\/([A-Za-z0-9_-]{10,64})\/?$/;

/** What an award page's tags are read with. */
export interface AwardPageDeps {
  db: Db;
  config: Config;
  storage: StorageAdapter;
  log: FastifyBaseLogger;
}

/** The meta tags of an award page, or null when the path is not one (or the award does not exist). */
export async function awardMetaTags(
  deps: AwardPageDeps,
  path: string,
): Promise<{ title: string; tags: string; lang: string } | null> {
  const m = AWARD_PAGE.exec(path);
  if (!m) return null;
  const { db, config, storage } = deps;
  const link = await findAward(db, m[2]!);
  if (!link) return null;
  const kind = awardKindOf(link.type);
  if (!kind || kind !== m[1]) return null;
  const info = await certificateInfoOf({ db, publicUrl: config.publicUrl, storage }, link);
  const what = achievement(info);
  // in the learner's own language: the page they share is theirs (decision 040)
  const [owner] = link.userId
    ? await db.select({ language: users.language }).from(users).where(eq(users.id, link.userId))
    : [];
  const { t, locale } = translatorFor(owner?.language);
  const title = t('award.og.title', { kind, name: info.userName, achievement: what });
  const description = t('award.og.description', {
    kind,
    issuer: ISSUER,
    name: info.userName,
    achievement: what,
    date: formatDate(info.createdAt, 'UTC', locale),
    id: info.linkId,
  });
  const meta: [string, string, string][] = [
    ['name', 'description', description],
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', ISSUER],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', info.certificateUrl],
  ];
  if (info.s3CertificateUrl) {
    meta.push(
      ['property', 'og:image', info.s3CertificateUrl],
      ['property', 'og:image:type', 'image/jpeg'],
      ['property', 'og:image:alt', title],
    );
  }
  meta.push(
    ['name', 'twitter:card', info.s3CertificateUrl ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
  );
  if (info.s3CertificateUrl) meta.push(['name', 'twitter:image', info.s3CertificateUrl]);
  const tags = meta
    .map(([attr, key, value]) => `<meta ${attr}="${escapeHtml(key)}" content="${escapeHtml(value)}">`)
    .concat(`<link rel="canonical" href="${escapeHtml(info.certificateUrl)}">`)
    .join('\n    ');
  return { title, tags, lang: locale };
}

/** index.html with the award's tags and title when the path is an award page; unchanged otherwise. */
export async function withAwardMeta(deps: AwardPageDeps, path: string, html: string): Promise<string> {
  let meta: Awaited<ReturnType<typeof awardMetaTags>>;
  try {
    meta = await awardMetaTags(deps, path);
  } catch (err) {
    deps.log.warn({ err, path }, 'award meta tags could not be built');
    return html;
  }
  if (!meta) return html;
  const title = `<title>${escapeHtml(meta.title)} · ${ISSUER}</title>`;
  let out = html
    .replace(/<html([^>]*?)\s+lang="[^"]*"/i, '<html$1')
    .replace(/<html/i, `<html lang="${escapeHtml(meta.lang)}"`)
    .replace(/<meta name="description"[^>]*>\s*/i, '')
    .replace(/<title>[\s\S]*?<\/title>/i, title);
  if (!out.includes(title)) out = out.replace(/<head[^>]*>/i, (h) => `${h}\n    ${title}`);
  if (/<\/head>/i.test(out)) return out.replace(/<\/head>/i, `    ${meta.tags}\n  </head>`);
  // a page without a head (the not-built placeholder): put the tags right after the title
  return out.replace(title, `${title}\n${meta.tags}`);
}
