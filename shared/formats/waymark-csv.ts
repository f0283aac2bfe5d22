/**
 * Waymark's CSV question files: a header row naming the columns (cli/README.md "Question files"), options
 * in one cell split on `|` with `*` marking the correct ones. Read with each row's line; written as export
 * gives them.
 */
import { DEFAULT_QUESTION_TYPE, isTextAnswer } from '../rules/question-types';
import {
  type CsvDelimiter,
  CsvError,
  delimiterName,
  detectDelimiter,
  parseCsv,
  toCsv,
  withHeader,
} from './csv';
import { said } from './problems';
import { type Note, type RowError, type SourceRecord, withSourceId } from './record';
import type { WaymarkRecord } from './waymark';

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

export function readCsv(src: string): { records: SourceRecord[]; errors: RowError[]; notes: Note[] } {
  const delimiter: CsvDelimiter = detectDelimiter(src);
  const notes =
    delimiter === ',' ? [] : [said('import.problem.csvSeparator', { separator: delimiterName(delimiter) })];
  let parsed: ReturnType<typeof withHeader>;
  try {
    parsed = withHeader(parseCsv(src, delimiter));
  } catch (err) {
    if (err instanceof CsvError)
      return {
        records: [],
        errors: [{ line: err.line, field: 'CSV', ...err.said, scope: 'file' }],
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
        ...said('import.problem.csvUnknownColumn', { columns: CSV_COLUMNS.join(', ') }),
        scope: 'file',
      });
    }
  }
  if (!parsed.columns.includes('question')) {
    // without it no row is a question: the file is not read as questions at all
    errors.unshift({
      line: 1,
      field: 'question',
      ...said('import.problem.csvNoQuestion'),
      scope: 'file',
    });
    return { records: [], errors, notes };
  }
  const records: SourceRecord[] = [];
  for (const row of parsed.rows) {
    const v = row.values;
    if (row.extra.length) {
      errors.push({ line: row.line, field: 'CSV', ...said('import.problem.csvMoreFields') });
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

/** Records as a CSV file with the header row. */
export function writeCsv(records: readonly WaymarkRecord[]): string {
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
