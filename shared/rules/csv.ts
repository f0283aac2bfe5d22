/**
 * CSV for reports to take away (RFC 4180), written so it opens right in Excel and LibreOffice:
 * - UTF-8 with a byte-order mark first (Excel reads the file as UTF-8 only with one);
 * - fields separated by commas, records ended by CRLF; a field holding a comma, a quote, a line break or
 *   spaces at either end is quoted, its quotes doubled;
 * - formula injection guarded (OWASP "CSV Injection"): a text cell starting with = + - @, a tab or a
 *   carriage return gets a leading apostrophe, so a spreadsheet shows it as text instead of running it
 *   (a name like "=HYPERLINK(…)" stays a name). Numbers are written as numbers and never guarded.
 */

export const CSV_BOM = '\uFEFF';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, with its CRLF. */
export const csvLine = (cells: readonly CsvValue[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** A file name for a download: the product, what it is, the day (UTC). */
export const downloadName = (what: string, ext: 'csv' | 'json', now = new Date()) =>
  `waymark-${what}-${now.toISOString().slice(0, 10)}.${ext}`;
