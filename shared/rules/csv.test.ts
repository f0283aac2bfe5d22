import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvLine } from './csv';

/** Read back with an independent parser (csv-parse), as a spreadsheet reads the file. */
const readBack = (text: string) => parse(text, { bom: true, relax_column_count: false }) as string[][];

describe('report CSV', () => {
  it('quotes what needs it and doubles quotes (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(42.5)).toBe('42.5');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvLine(['a', 1, true])).toBe('a,1,true\r\n');
  });

  it('keeps a cell that looks like a formula from running', () => {
    for (const evil of [
      '=HYPERLINK("http://x","y")',
      "+cmd|' /C calc'!A0",
      '-2+3',
      '@SUM(1,1)',
      '\t=1',
      '\r=1',
    ]) {
      const cell = csvCell(evil);
      const [[back]] = readBack(`${cell}\r\n`) as [[string]];
      expect(back.startsWith("'")).toBe(true);
      expect(back.slice(1)).toBe(evil);
    }
    // numbers are data, not text: never guarded
    expect(csvCell(-5)).toBe('-5');
  });

  it('reads back, BOM, Unicode and all, as it was written', () => {
    const rows = [
      ['Name', 'E-mail', 'Seconds'],
      ['Zoë Müller, "ZM"', 'zoe@example.com', 3600],
      ['李雷', 'li@example.com', 0],
      ['=1+1', 'multi\nline', -1],
    ];
    const text = CSV_BOM + rows.map(csvLine).join('');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(readBack(text)).toEqual([
      ['Name', 'E-mail', 'Seconds'],
      ['Zoë Müller, "ZM"', 'zoe@example.com', '3600'],
      ['李雷', 'li@example.com', '0'],
      ["'=1+1", 'multi\nline', '-1'],
    ]);
  });
});
