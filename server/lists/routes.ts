import { listsRouter } from '@shared/contract/lists';
import type { Country, Subject } from '@shared/schemas/lists';
import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { getCountries } from 'libphonenumber-js/min';
import type { Db } from '../db/client';
import { languages, subjects, topics } from '../db/schema';
import { ok, serve } from '../http/routes';

/** Every country libphonenumber knows, named in English, sorted by name. */
export function allCountries(): Country[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  return getCountries()
    .map((code) => ({ code, country: names.of(code) ?? code }))
    .sort((a, b) => a.country.localeCompare(b.country, 'en'));
}

export async function loadSubjects(db: Db): Promise<Subject[]> {
  const [subjectRows, topicRows] = await Promise.all([
    db.select().from(subjects).orderBy(asc(subjects.name)),
    db.select().from(topics).orderBy(asc(topics.name)),
  ]);
  return subjectRows.map((s) => ({
    _id: s.id,
    name: s.name,
    topics: topicRows.filter((t) => t.subjectId === s.id).map((t) => ({ _id: t.id, name: t.name })),
  }));
}

export function listRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const countries = allCountries();
  serve(app, listsRouter, {
    async subjectList({ reply }) {
      reply.header('cache-control', 'public, max-age=60');
      return ok({ data: await loadSubjects(db) });
    },
    async languageList({ reply }) {
      reply.header('cache-control', 'public, max-age=60');
      const rows = await db.select().from(languages).orderBy(asc(languages.name));
      return ok({ data: rows.map((l) => ({ _id: l.id, name: l.name })) });
    },
    async countryList({ reply }) {
      reply.header('cache-control', 'public, max-age=86400');
      return ok({ data: countries });
    },
  });
}
