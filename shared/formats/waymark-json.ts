/**
 * Waymark's JSON question files: a JSON array of questions, or one question per line (NDJSON). Read with the
 * line each question starts on, so every problem names it; written as export gives them.
 */
import { said } from './problems';
import { type RowError, type SourceRecord, withSourceId } from './record';
import type { WaymarkRecord } from './waymark';

function lineAt(src: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < src.length; i++) if (src[i] === '\n') line++;
  return line;
}

function jsonSyntaxLine(src: string, err: unknown): number {
  const m = /position (\d+)/.exec(String((err as Error).message));
  return m ? lineAt(src, Number(m[1])) : 1;
}

export function readJsonArray(src: string): { records: SourceRecord[]; errors: RowError[] } {
  let data: unknown;
  try {
    data = JSON.parse(src);
  } catch (err) {
    const message = String((err as Error).message).replace(/ in JSON at position \d+.*$/, '');
    return {
      records: [],
      errors: [{ line: jsonSyntaxLine(src, err), field: 'JSON', message, scope: 'file' }],
    };
  }
  if (!Array.isArray(data)) {
    return {
      records: [],
      errors: [
        {
          line: 1,
          field: 'JSON',
          ...said('import.problem.jsonNotArray'),
          scope: 'file',
        },
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

export function readNdjson(src: string): { records: SourceRecord[]; errors: RowError[] } {
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

/** Records as a JSON array (pretty, as people edit it) or as NDJSON. */
export const writeJson = (records: readonly WaymarkRecord[], format: 'json' | 'ndjson') =>
  format === 'json'
    ? `${JSON.stringify(records, null, 2)}\n`
    : records.map((r) => `${JSON.stringify(r)}\n`).join('');
