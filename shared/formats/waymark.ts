/**
 * Waymark's own question files: a JSON array, one question per line (NDJSON), or CSV with a header row
 * naming the columns (cli/README.md "Question files"). Read into the records every format produces
 * (shared/formats/record.ts), and written from the bank's questions. Each format reads and writes in its
 * own module (waymark-json.ts, waymark-csv.ts); the checking is every format's (check.ts).
 */

import { hasImageOptions, isTextAnswer } from '../rules/question-types';
import type { Question } from '../schemas/assessment';
import type { Subject } from '../schemas/lists';
import type { Note, ParsedRecord, RowError, SourceRecord } from './record';
import { readCsv, writeCsv } from './waymark-csv';
import { readJsonArray, readNdjson, writeJson } from './waymark-json';

export type WaymarkFormat = 'json' | 'ndjson' | 'csv';

/** A question as Waymark's files hold it. */
export type WaymarkRecord = ReturnType<typeof toRecord>;

/**
 * The records of a file, each with its place; problems with the file itself are row errors too. `total`
 * counts the questions the file holds: its records, and the NDJSON lines that are not JSON (each is one
 * question, unread).
 */
export function readRecords(
  textContent: string,
  format: WaymarkFormat,
): { records: SourceRecord[]; errors: RowError[]; notes: Note[]; total: number } {
  const src = textContent.replace(/^\uFEFF/, '');
  if (format === 'csv') {
    const read = readCsv(src);
    return { ...read, total: read.records.length };
  }
  if (format === 'json') {
    const read = readJsonArray(src);
    return { ...read, notes: [], total: read.records.length };
  }
  const read = readNdjson(src);
  return { ...read, notes: [], total: read.records.length + read.errors.length };
}

/** A server question as a file record: subject and topic by name, images as absolute addresses. */
export function toRecord(
  q: Question,
  subjects: readonly Subject[],
  server: string,
): ParsedRecord & { question: string } {
  const subject = subjects.find((s) => s._id === q.subject);
  const topic = subject?.topics.find((t) => t._id === q.topic);
  const absolute = (p: string) => (p.startsWith('/') ? `${server}${p}` : p);
  const fib = isTextAnswer(q.questionType);
  const explanation = q.explanation.map((e) => e.value);
  return {
    id: q._id,
    question: q.question,
    type: q.questionType,
    options: q.options.map((o) => ({
      value: hasImageOptions(q.questionType) ? absolute(o.value) : o.value,
      correct: fib ? true : o.isCorrect,
    })),
    ...(fib ? { points: q.points } : {}),
    subject: subject?.name ?? q.subject ?? '',
    topic: topic?.name ?? q.topic ?? '',
    explanation: explanation.length === 1 ? explanation[0]! : explanation,
    tags: q.tags,
    ...(q.code ? { code: q.code } : {}),
    ...(q.questionImagePath ? { image: absolute(q.questionImagePath) } : {}),
  };
}

/** Records as a file of the given format. */
export const writeRecords = (records: readonly WaymarkRecord[], format: WaymarkFormat): string =>
  format === 'csv' ? writeCsv(records) : writeJson(records, format);
