/**
 * Lists of people for seat and sharing commands: e-mail addresses or learner ids, from the command line
 * (arguments, or a comma-separated list) or from a file (one per line, or a CSV with an `email` column).
 * Every entry keeps where it came from, so a bad one is named by its line.
 */
import { existsSync, statSync } from 'node:fs';
import { type CsvDelimiter, CsvError, detectDelimiter, parseCsv, withHeader } from '@shared/formats/csv';
import { EMAIL_PATTERN } from '@shared/schemas/auth-forms';
import { Id } from '@shared/schemas/common';
import { CliError, ExitCode } from './errors';
import { readTextFile } from './files';

export interface PersonEntry {
  /** Where it came from: `line 4` of a file, or `argument 2`. */
  where: string;
  /** As written (trimmed). */
  raw: string;
}

export type Person =
  | { kind: 'email'; email: string; where: string; raw: string }
  | { kind: 'id'; id: string; where: string; raw: string };

export interface PersonProblem {
  where: string;
  raw: string;
  message: string;
}

/** The columns a people CSV may name its e-mail column by. */
const EMAIL_COLUMNS = ['email', 'e-mail', 'email address', 'e-mail address', 'mail'];
const ID_COLUMNS = ['id', 'learnerid', 'learner id', 'userid', 'user id'];

/**
 * Reads a people file: a CSV whose header names an `email` (or `id`) column, else one entry per line.
 * Blank lines and lines starting with # are skipped.
 */
export function readPeopleText(text: string): { entries: PersonEntry[]; problems: PersonProblem[] } {
  const src = text.replace(/^\uFEFF/, '');
  const firstLine = src.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = detectDelimiter(firstLine);
  const header = firstLine
    .toLowerCase()
    .split(delimiter)
    .map((c) => c.trim().replace(/^"|"$/g, ''));
  const column = header.findIndex((c) => EMAIL_COLUMNS.includes(c) || ID_COLUMNS.includes(c));
  if (column < 0) return readLines(src, 0);
  // a CSV with a header; a one-column file with a header line just skips it
  return header.length > 1 ? readPeopleCsv(src, delimiter) : readLines(src, 1);
}

function readLines(src: string, skip: number) {
  const entries: PersonEntry[] = [];
  src.split(/\r?\n/).forEach((line, i) => {
    if (i < skip) return;
    const raw = line.trim();
    if (!raw || raw.startsWith('#')) return;
    entries.push({ where: `line ${i + 1}`, raw });
  });
  return { entries, problems: [] as PersonProblem[] };
}

function readPeopleCsv(src: string, delimiter: CsvDelimiter) {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(src, delimiter);
  } catch (err) {
    if (err instanceof CsvError) throw new CliError(err.message, ExitCode.badInput);
    throw err;
  }
  const { columns, rows } = withHeader(records);
  const name =
    columns.find((c) => EMAIL_COLUMNS.includes(c)) ?? columns.find((c) => ID_COLUMNS.includes(c)) ?? 'email';
  const entries: PersonEntry[] = [];
  const problems: PersonProblem[] = [];
  for (const row of rows) {
    const raw = (row.values[name] ?? '').trim();
    if (!raw) {
      if (Object.values(row.values).some((v) => v.trim())) {
        problems.push({ where: `line ${row.line}`, raw: '', message: `the ${name} column is empty` });
      }
      continue;
    }
    entries.push({ where: `line ${row.line}`, raw });
  }
  return { entries, problems };
}

/** Entries from command-line values, numbered in order: each value may itself be a comma-separated list. */
export function peopleFromArguments(values: readonly string[], label = 'argument'): PersonEntry[] {
  const entries: PersonEntry[] = [];
  for (const value of values) {
    for (const part of value.split(',')) {
      const raw = part.trim();
      if (raw) entries.push({ where: `${label} ${entries.length + 1}`, raw });
    }
  }
  return entries;
}

/** A value that names a file that exists is read as a file; anything else is a list. */
export function readPeopleOption(
  value: string,
  label: string,
): { entries: PersonEntry[]; problems: PersonProblem[]; file: string | null } {
  if (existsSync(value) && statSync(value).isFile()) {
    const { entries, problems } = readPeopleText(readTextFile(value, 'list of people'));
    return {
      entries: entries.map((e) => ({ ...e, where: `${value}:${e.where.replace('line ', '')}` })),
      problems: problems.map((p) => ({ ...p, where: `${value}:${p.where.replace('line ', '')}` })),
      file: value,
    };
  }
  return { entries: peopleFromArguments([value], label), problems: [], file: null };
}

/**
 * Classifies entries as e-mail addresses (lower-cased) or learner ids, dropping repeats (the first one
 * counts; the others are returned as duplicates) and naming the ones that are neither.
 */
export function classifyPeople(
  entries: readonly PersonEntry[],
  accept: { ids: boolean },
): { people: Person[]; duplicates: (PersonEntry & { of: string })[]; problems: PersonProblem[] } {
  const people: Person[] = [];
  const duplicates: (PersonEntry & { of: string })[] = [];
  const problems: PersonProblem[] = [];
  const seen = new Map<string, string>();
  for (const entry of entries) {
    const value = entry.raw.replace(/^<(.*)>$/, '$1').trim();
    let person: Person | null = null;
    if (EMAIL_PATTERN.test(value))
      person = { kind: 'email', email: value.toLowerCase(), where: entry.where, raw: entry.raw };
    else if (accept.ids && Id.safeParse(value.toLowerCase()).success)
      person = { kind: 'id', id: value.toLowerCase(), where: entry.where, raw: entry.raw };
    if (!person) {
      problems.push({
        ...entry,
        message: accept.ids ? 'not an e-mail address or a learner id' : 'Invalid email address',
      });
      continue;
    }
    const key = person.kind === 'email' ? person.email : person.id;
    const first = seen.get(key);
    if (first) {
      duplicates.push({ ...entry, of: first });
      continue;
    }
    seen.set(key, entry.where);
    people.push(person);
  }
  return { people, duplicates, problems };
}
