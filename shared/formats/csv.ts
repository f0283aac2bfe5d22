/**
 * CSV as spreadsheets write it (RFC 4180): fields separated by commas (or, as Excel writes it where the
 * decimal mark is a comma, by semicolons; or by tabs), records by CRLF or LF; a field in double quotes may
 * hold separators, line breaks and doubled quotes (""); a byte-order mark at the start is ignored. Every
 * record keeps the line it starts on, so errors can name it.
 */
import { type Said, said } from './problems';

export interface CsvRecord {
  /** The 1-based line of the file on which the record starts. */
  line: number;
  fields: string[];
}

export class CsvError extends Error {
  constructor(
    readonly line: number,
    /** What is wrong, said by its code too (./problems.ts). */
    readonly said: Said,
  ) {
    super(`line ${line}: ${said.message}`);
    this.name = 'CsvError';
  }
}

export const CSV_DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

export const delimiterName = (d: CsvDelimiter) => (d === '\t' ? 'tab' : d === ';' ? 'semicolon' : 'comma');

/**
 * The separator of a CSV text, from its first record (the header): the one of `,` `;` and tab that occurs
 * most often outside quotes. Commas win ties, so a one-column file reads as ordinary CSV.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts: Record<CsvDelimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && (c === ',' || c === ';' || c === '\t')) counts[c]++;
  }
  let best: CsvDelimiter = ',';
  for (const d of CSV_DELIMITERS) if (counts[d] > counts[best]) best = d;
  return best;
}

/** Parses CSV text into records. Blank lines are skipped; a quote left open is an error naming its line. */
export function parseCsv(text: string, delimiter: CsvDelimiter = ','): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  /** Whether the current record has anything in it (a blank line has nothing). */
  let started = false;
  let i = 0;

  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (started) records.push({ line: recordLine, fields });
    fields = [];
    started = false;
  };

  while (i < src.length) {
    const ch = src[i]!;
    if (ch === '"' && field === '' && !fieldHadText(src, i, delimiter)) {
      // a quoted field: runs to the closing quote, "" is one quote
      const quoteLine = line;
      started = true;
      i++;
      for (;;) {
        if (i >= src.length) throw new CsvError(quoteLine, said('import.problem.csvUnclosedQuote'));
        const c = src[i]!;
        if (c === '"') {
          if (src[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (c === '\r' && src[i + 1] === '\n') {
          field += '\n';
          i += 2;
          line++;
          continue;
        }
        if (c === '\n' || c === '\r') line++;
        field += c === '\r' ? '\n' : c;
        i++;
      }
      // after the closing quote: a separator, the end of the record, or the end of the text
      const next = src[i];
      if (next !== undefined && next !== delimiter && next !== '\n' && next !== '\r') {
        const other = CSV_DELIMITERS.find((d) => d !== delimiter && d === next);
        throw new CsvError(
          line,
          other
            ? said('import.problem.csvOtherSeparator', {
                found: delimiterName(other),
                separator: delimiterName(delimiter),
              })
            : said('import.problem.csvAfterQuote'),
        );
      }
      continue;
    }
    if (ch === delimiter) {
      started = true;
      endField();
      i++;
      continue;
    }
    if (ch === '\n' || ch === '\r') {
      endRecord();
      i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
      continue;
    }
    started = true;
    field += ch;
    i++;
  }
  if (started || field !== '' || fields.length) endRecord();
  return records;
}

/** Whether the current field already has characters before position i (then a quote is literal). */
function fieldHadText(src: string, i: number, delimiter: string): boolean {
  const prev = src[i - 1];
  return prev !== undefined && prev !== delimiter && prev !== '\n' && prev !== '\r';
}

/** One CSV field: quoted when it holds a comma, a quote, a line break, or leading or trailing spaces. */
export function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** CSV text with CRLF line endings (what spreadsheets expect). */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + (rows.length ? '\r\n' : '');
}

/** Maps each record after the header to an object keyed by the header's names (trimmed, lower-cased). */
export function withHeader(records: CsvRecord[]): {
  columns: string[];
  rows: { line: number; values: Record<string, string>; extra: string[] }[];
} {
  const [header, ...rest] = records;
  if (!header) return { columns: [], rows: [] };
  const columns = header.fields.map((c) => c.trim().toLowerCase());
  return {
    columns,
    rows: rest.map((r) => {
      const values: Record<string, string> = {};
      columns.forEach((c, i) => {
        if (c) values[c] = r.fields[i] ?? '';
      });
      return { line: r.line, values, extra: r.fields.slice(columns.length).filter((f) => f.trim() !== '') };
    }),
  };
}
