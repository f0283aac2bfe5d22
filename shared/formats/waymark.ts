/**
 * Waymark's own question files: a JSON array, one question per line (NDJSON), or CSV with a header row
 * naming the columns (cli/README.md "Question files"). Read into the records every format produces
 * (shared/formats/record.ts), and written from the bank's questions.
 */

import { DEFAULT_QUESTION_TYPE, hasImageOptions, isTextAnswer } from '../rules/question-types';
import type { Question } from '../schemas/assessment';
import type { Subject } from '../schemas/lists';
import {
  type CsvDelimiter,
  CsvError,
  delimiterName,
  detectDelimiter,
  parseCsv,
  toCsv,
  withHeader,
} from './csv';
import type { ParsedRecord, RowError, SourceRecord } from './record';

export type WaymarkFormat = 'json' | 'ndjson' | 'csv';

export const CSV_COLUMNS = [
  'id',
  'question',
  'type',
  'options',
  'points',
  'subject',
  'topic',
  'explanation',
  'tags',
  'code',
  'image',
] as const;

// ---- reading

/** The records of a file, each with its place; problems with the file itself are row errors too. */
export function readRecords(
  textContent: string,
  format: WaymarkFormat,
): { records: SourceRecord[]; errors: RowError[]; notes: string[] } {
  const src = textContent.replace(/^\uFEFF/, '');
  if (format === 'csv') return readCsv(src);
  return { ...(format === 'ndjson' ? readNdjson(src) : readJsonArray(src)), notes: [] };
}

/** A JSON record's own id (written by export) is its source identity. */
const withSourceId = (r: SourceRecord): SourceRecord => {
  const id = (r.value as { id?: unknown } | null)?.id;
  return typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)
    ? { ...r, sourceId: `waymark:${id.toLowerCase()}` }
    : r;
};

function lineAt(src: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < src.length; i++) if (src[i] === '\n') line++;
  return line;
}

function jsonSyntaxLine(src: string, err: unknown): number {
  const m = /position (\d+)/.exec(String((err as Error).message));
  return m ? lineAt(src, Number(m[1])) : 1;
}

function readJsonArray(src: string): { records: SourceRecord[]; errors: RowError[] } {
  let data: unknown;
  try {
    data = JSON.parse(src);
  } catch (err) {
    const message = String((err as Error).message).replace(/ in JSON at position \d+.*$/, '');
    return { records: [], errors: [{ line: jsonSyntaxLine(src, err), field: 'JSON', message }] };
  }
  if (!Array.isArray(data)) {
    return {
      records: [],
      errors: [
        { line: 1, field: 'JSON', message: 'must be an array of questions (or one question per line)' },
      ],
    };
  }
  const lines = arrayItemLines(src);
  return {
    records: data.map((value, i) => withSourceId({ line: lines[i] ?? 1, item: i + 1, value })),
    errors: [],
  };
}

/** The line each top-level element of a JSON array starts on. */
export function arrayItemLines(src: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let expectValue = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\n') {
      line++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') continue;
    if (depth === 1 && expectValue && c !== ']') {
      lines.push(line);
      expectValue = false;
    }
    if (c === '"') {
      // skip the string
      for (i++; i < src.length && src[i] !== '"'; i++) {
        if (src[i] === '\\') i++;
        else if (src[i] === '\n') line++;
      }
      continue;
    }
    if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectValue = true;
  }
  return lines;
}

function readNdjson(src: string): { records: SourceRecord[]; errors: RowError[] } {
  const records: SourceRecord[] = [];
  const errors: RowError[] = [];
  src.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    try {
      records.push(withSourceId({ line: i + 1, value: JSON.parse(raw) }));
    } catch (err) {
      const message = String((err as Error).message).replace(/ in JSON at position \d+.*$/, '');
      errors.push({ line: i + 1, field: 'JSON', message });
    }
  });
  return { records, errors };
}

/** Splits a list cell on `|` (`\|` is a literal bar, `\\` a backslash); a leading `*` marks a correct option. */
export function splitCell(cell: string): { value: string; starred: boolean }[] {
  if (!cell.trim()) return [];
  const parts: { raw: string; starred: boolean }[] = [];
  let current = '';
  let starred = false;
  let atStart = true;
  for (let i = 0; i < cell.length; i++) {
    const c = cell[i]!;
    if (c === '\\' && (cell[i + 1] === '|' || cell[i + 1] === '\\' || cell[i + 1] === '*')) {
      current += cell[i + 1];
      i++;
      atStart = false;
      continue;
    }
    if (c === '|') {
      parts.push({ raw: current, starred });
      current = '';
      starred = false;
      atStart = true;
      continue;
    }
    if (atStart && c === '*') {
      starred = true;
      atStart = false;
      continue;
    }
    if (atStart && (c === ' ' || c === '\t')) continue;
    atStart = false;
    current += c;
  }
  parts.push({ raw: current, starred });
  return parts.map((p) => ({ value: p.raw.trim(), starred: p.starred }));
}

/** The inverse of splitCell. */
export function joinCell(items: { value: string; starred?: boolean }[]): string {
  return items
    .map((o) => {
      const escaped = o.value.replace(/\\(?=[|\\*]|$)/g, '\\\\').replace(/\|/g, '\\|');
      return `${o.starred ? '*' : ''}${escaped.startsWith('*') ? `\\${escaped}` : escaped}`;
    })
    .join(' | ');
}

function readCsv(src: string): { records: SourceRecord[]; errors: RowError[]; notes: string[] } {
  const delimiter: CsvDelimiter = detectDelimiter(src);
  const notes = delimiter === ',' ? [] : [`The CSV's fields are separated by ${delimiterName(delimiter)}s.`];
  let parsed: ReturnType<typeof withHeader>;
  try {
    parsed = withHeader(parseCsv(src, delimiter));
  } catch (err) {
    if (err instanceof CsvError)
      return {
        records: [],
        errors: [{ line: err.line, field: 'CSV', message: err.message.replace(/^line \d+: /, '') }],
        notes,
      };
    throw err;
  }
  const errors: RowError[] = [];
  if (!parsed.columns.length) return { records: [], errors, notes };
  const known = new Set<string>(CSV_COLUMNS);
  for (const column of parsed.columns) {
    if (column && !known.has(column)) {
      errors.push({
        line: 1,
        field: column,
        message: `unknown column (the columns are ${CSV_COLUMNS.join(', ')})`,
      });
    }
  }
  if (!parsed.columns.includes('question')) {
    errors.push({ line: 1, field: 'question', message: 'the header has no question column' });
  }
  const records: SourceRecord[] = [];
  for (const row of parsed.rows) {
    const v = row.values;
    if (row.extra.length) {
      errors.push({ line: row.line, field: 'CSV', message: 'more fields than the header has columns' });
    }
    const cell = (name: string) => {
      const s = v[name];
      return s === undefined || s.trim() === '' ? undefined : s;
    };
    const type = cell('type')?.trim().toUpperCase();
    const points = cell('points');
    const record: Record<string, unknown> = {
      id: cell('id')?.trim(),
      question: cell('question'),
      type,
      options: splitCell(v.options ?? '').map((o) => ({ value: o.value, correct: o.starred })),
      points: points === undefined ? undefined : Number(points.trim()),
      subject: cell('subject')?.trim(),
      topic: cell('topic')?.trim(),
      explanation: cell('explanation'),
      tags: cell('tags'),
      code: cell('code'),
      image: cell('image')?.trim(),
    };
    for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
    records.push(withSourceId({ line: row.line, value: record }));
  }
  return { records, errors, notes };
}

// ---- writing (export)

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
export function writeRecords(records: readonly ReturnType<typeof toRecord>[], format: WaymarkFormat): string {
  if (format === 'json') return `${JSON.stringify(records, null, 2)}\n`;
  if (format === 'ndjson') return records.map((r) => `${JSON.stringify(r)}\n`).join('');
  const rows = records.map((r) => {
    const options = (r.options ?? []).map((o) =>
      typeof o === 'string'
        ? { value: o }
        : { value: o.value, starred: o.correct === true && !isTextAnswer(r.type) },
    );
    const explanation =
      typeof r.explanation === 'string' ? r.explanation : (r.explanation ?? []).join('\n\n');
    const tags = typeof r.tags === 'string' ? r.tags : (r.tags ?? []).join(', ');
    return [
      r.id ?? '',
      r.question,
      r.type ?? DEFAULT_QUESTION_TYPE,
      joinCell(options),
      r.points === undefined ? '' : String(r.points),
      r.subject ?? '',
      r.topic ?? '',
      explanation,
      tags,
      r.code ?? '',
      r.image ?? '',
    ];
  });
  return toCsv([[...CSV_COLUMNS], ...rows]);
}
