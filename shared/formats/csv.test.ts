import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_DELIMITERS, CsvError, parseCsv, toCsv, withHeader } from './csv';

describe('reading CSV', () => {
  it('splits records and fields, keeping the line each record starts on', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', '2', '3'] },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, and counts the lines they span', () => {
    const text = 'question,code\n"Say ""hi"", then stop","line 1\nline 2\r\nline 3"\nnext,x\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['question', 'code'] },
      { line: 2, fields: ['Say "hi", then stop', 'line 1\nline 2\nline 3'] },
      { line: 5, fields: ['next', 'x'] },
    ]);
  });

  it('ignores a byte-order mark, reads CRLF and a last line without a line break', () => {
    expect(parseCsv('\uFEFFemail\r\na@example.com\r\nb@example.com')).toEqual([
      { line: 1, fields: ['email'] },
      { line: 2, fields: ['a@example.com'] },
      { line: 3, fields: ['b@example.com'] },
    ]);
  });

  it('skips blank lines but keeps empty fields and empty quoted fields', () => {
    expect(parseCsv('a,b\n\n,\n"",x\n\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['', ''] },
      { line: 4, fields: ['', 'x'] },
    ]);
  });

  it('treats a quote inside an unquoted field as text', () => {
    expect(parseCsv('5" screen,ok\n')).toEqual([{ line: 1, fields: ['5" screen', 'ok'] }]);
  });

  it('names the line of a quote that is never closed, and of text after a closing quote', () => {
    expect(() => parseCsv('a\n"open,\nmore\n')).toThrow(CsvError);
    try {
      parseCsv('a\nb\n"open,\nmore\n');
    } catch (err) {
      expect((err as CsvError).line).toBe(3);
      expect((err as CsvError).message).toContain('never closed');
    }
    expect(() => parseCsv('"a"b,c\n')).toThrow(/line 1: unexpected text after a closing quote/);
  });
});

describe('writing CSV', () => {
  it('quotes only what needs it, and reads back what it wrote', () => {
    const rows = [
      ['question', 'code'],
      ['Plain', ''],
      ['With, comma', 'a\nb'],
      ['With "quotes"', ' padded '],
    ];
    const text = toCsv(rows);
    expect(text).toBe('question,code\r\nPlain,\r\n"With, comma","a\nb"\r\n"With ""quotes"""," padded "\r\n');
    expect(parseCsv(text).map((r) => r.fields)).toEqual(rows);
  });
});

describe('a header row', () => {
  it('names the fields of each record, case- and space-insensitively, and keeps fields beyond it', () => {
    const { columns, rows } = withHeader(parseCsv(' Email ,Name\na@example.com,A,extra\n'));
    expect(columns).toEqual(['email', 'name']);
    expect(rows).toEqual([{ line: 2, values: { email: 'a@example.com', name: 'A' }, extra: ['extra'] }]);
  });
});

/**
 * Interoperability with csv-parse and csv-stringify, independent implementations of RFC 4180 (decision
 * 019 says why ours reads the files): what we write they read, and what they write we read, field for
 * field, whatever the fields hold. A record of one empty field is a blank line, which both skip.
 */
describe('CSV beside csv-parse and csv-stringify', () => {
  const field = fc.string({
    unit: fc.constantFrom('a', 'Z', '7', ' ', ',', ';', '\t', '"', '\n', 'é', '€', '—'),
  });
  const rows = fc
    .array(fc.array(field, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 })
    .map((rs) => rs.filter((r) => !(r.length === 1 && r[0] === '')))
    .filter((rs) => rs.length > 0);

  it('csv-parse reads what we write', () => {
    fc.assert(
      fc.property(rows, (rs) => {
        expect(parse(toCsv(rs), { bom: true, relax_column_count: true })).toEqual(rs);
      }),
    );
  });

  it('we read what csv-stringify writes, with any of the separators we detect', () => {
    fc.assert(
      fc.property(rows, fc.constantFrom(...CSV_DELIMITERS), fc.boolean(), (rs, delimiter, bom) => {
        const text = (bom ? '\uFEFF' : '') + stringify(rs, { delimiter, record_delimiter: 'unix' });
        expect(parseCsv(text, delimiter).map((r) => r.fields)).toEqual(rs);
      }),
    );
  });
});
