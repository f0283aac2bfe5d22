/**
 * The lists the portal's forms choose from: subjects with their topics, languages, and countries (every one
 * libphonenumber knows, named in English).
 */
import type { Country, Subject } from '@shared/schemas/lists';
import { asc } from 'drizzle-orm';
import { getCountries } from 'libphonenumber-js/min';
import type { Db } from '../db/client';
import { languages, subjects, topics } from '../db/schema';

/** Every country libphonenumber knows, named in English, sorted by name. */
export function allCountries(): Country[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  return getCountries()
    .map((code) => ({ code, country: names.of(code) ?? code }))
    .sort((a, b) => a.country.localeCompare(b.country, 'en'));
}

/** Every subject with its topics, by name. */
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

/** Every language, by name. */
export async function loadLanguages(db: Db) {
  const rows = await db.select().from(languages).orderBy(asc(languages.name));
  return rows.map((l) => ({ _id: l.id, name: l.name }));
}
