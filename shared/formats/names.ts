/**
 * The question file formats by name: what `--format` accepts, how each is called, and the line said of a
 * file of none of them. Apart from the readers (detect.ts), so that the CLI's help can name them without
 * loading every format's reader.
 */
import type { WaymarkFormat } from './waymark';

export type QuestionFileFormat = WaymarkFormat | 'gift' | 'aiken' | 'moodle-xml' | 'qti';

export const QUESTION_FILE_FORMATS: readonly QuestionFileFormat[] = [
  'json',
  'ndjson',
  'csv',
  'gift',
  'aiken',
  'moodle-xml',
  'qti',
];

export const FORMAT_NAMES: Record<QuestionFileFormat, string> = {
  json: 'Waymark JSON',
  ndjson: 'Waymark NDJSON',
  csv: 'Waymark CSV',
  gift: 'Moodle GIFT',
  aiken: 'Aiken',
  'moodle-xml': 'Moodle XML',
  qti: 'IMS QTI',
};

/** The one line said of a file no reader knows. */
export const UNKNOWN_FORMAT =
  'is not a question file Waymark knows: Waymark JSON, NDJSON or CSV, Moodle GIFT, Aiken, Moodle XML, or IMS QTI (2.1 items, 1.2 as Canvas exports it, or a zip package of either)';

/** `--format` values people type, to the format. */
export function parseFormatName(name: string): QuestionFileFormat | null {
  const n = name.trim().toLowerCase();
  if ((QUESTION_FILE_FORMATS as readonly string[]).includes(n)) return n as QuestionFileFormat;
  if (n === 'xml' || n === 'moodle' || n === 'moodlexml') return 'moodle-xml';
  if (n === 'jsonl') return 'ndjson';
  if (n === 'qti21' || n === 'qti12' || n === 'canvas') return 'qti';
  return null;
}
