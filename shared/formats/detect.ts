/**
 * Knowing a question file: its encoding (shared/formats/text.ts) and its format, from its content first and
 * its name second (a GIFT file saved as .csv is still GIFT), then read with the format's reader. A file of
 * no known format is refused in one line that names the formats.
 */

import { readAiken } from './aiken';
import { detectDelimiter } from './csv';
import { readGift, readGiftWindows } from './gift';
import { imageKind } from './image';
import { readMoodleXml } from './moodle-xml';
import { FORMAT_NAMES, type QuestionFileFormat } from './names';
import { said } from './problems';
import { isZip, readQti } from './qti';
import { emptyResult, type ReadResult, type RowError } from './record';
import { decodeText } from './text';
import { readRecords } from './waymark';

export {
  FORMAT_NAMES,
  parseFormatName,
  QUESTION_FILE_FORMATS,
  type QuestionFileFormat,
  UNKNOWN_FORMAT,
} from './names';

const extension = (name: string) => {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  return m ? m[1]!.toLowerCase() : '';
};

/** The format of a text, from its content; the name breaks ties. */
export function detectFormat(name: string, text: string): QuestionFileFormat | null {
  const src = text.replace(/^\uFEFF/, '');
  const head = src.trimStart();
  const ext = extension(name);
  if (head.startsWith('<')) {
    const top = head.slice(0, 4000);
    if (/<quiz[\s>]/.test(top)) return 'moodle-xml';
    if (/<(?:\w+:)?(assessmentItem|questestinterop|assessmentTest)[\s>]/.test(top)) return 'qti';
    return ext === 'xml' ? null : null;
  }
  if (head.startsWith('[')) return 'json';
  if (head.startsWith('{') && /^\{\s*"/.test(head)) return 'ndjson';
  const firstLine = src.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = detectDelimiter(firstLine);
  const header = firstLine.split(delimiter).map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
  if (header.includes('question') && header.length > 1) return 'csv';
  const lines = src.split(/\r?\n/);
  const aiken = lines.filter((l) => /^ANSWER:\s*[A-Z]\s*$/.test(l.trim())).length;
  const giftSignals =
    lines.filter((l) => /^\s*(::|\$CATEGORY:)/.test(l)).length +
    (src.match(/\{\s*(?:[=~#]|T\s*\}|F\s*\}|TRUE\b|FALSE\b|\})/g)?.length ?? 0);
  if (aiken > 0 && aiken >= giftSignals) return 'aiken';
  if (giftSignals > 0) return 'gift';
  if (ext === 'csv') return 'csv';
  if (ext === 'json') return 'json';
  if (ext === 'ndjson' || ext === 'jsonl') return 'ndjson';
  if (ext === 'gift') return 'gift';
  return null;
}

export interface QuestionFileRead {
  format: QuestionFileFormat | null;
  result: ReadResult;
}

/** Reads a question file's bytes: encoding, format (unless given), then the format's reader. */
export function readQuestionBytes(
  name: string,
  bytes: Uint8Array,
  format?: QuestionFileFormat,
): QuestionFileRead {
  if (isZip(bytes)) {
    if (format && format !== 'qti') {
      const result = emptyResult();
      result.errors.push({
        line: 1,
        field: 'file',
        ...said('import.problem.zipNotFormat', { format: FORMAT_NAMES[format] }),
        scope: 'file',
      });
      return { format, result };
    }
    return { format: 'qti', result: guarded(() => readQti(bytes)) };
  }
  const decoded = decodeText(bytes);
  const fmt = format ?? detectFormat(name, decoded.text);
  if (fmt === null) return { format: null, result: emptyResult() };
  const binary = binaryProblem(bytes, decoded.text);
  if (binary) {
    const result = emptyResult();
    result.errors.push(binary);
    return { format: fmt, result };
  }
  const result = guarded(() => readText(decoded.text, fmt));
  if (decoded.note) result.notes.unshift(decoded.note);
  return { format: fmt, result };
}

function readText(text: string, format: QuestionFileFormat): ReadResult {
  switch (format) {
    case 'gift':
      return readGift(text);
    case 'aiken':
      return readAiken(text);
    case 'moodle-xml':
      return readMoodleXml(text);
    case 'qti':
      return readQti(text);
    default:
      return { ...emptyResult(), ...readRecords(text, format) };
  }
}

/**
 * A reader that throws on what a file holds (a parser refusing a construct) makes a problem of the file,
 * not an unexpected error: the person learns it is the file, and which.
 */
function guarded(read: () => ReadResult): ReadResult {
  try {
    return read();
  } catch (err) {
    const result = emptyResult();
    result.errors.push({ line: 1, field: 'file', message: (err as Error).message, scope: 'file' });
    return result;
  }
}

/** Bytes that are no text at all (an image, a program) read as a format named by the file's name. */
function binaryProblem(bytes: Uint8Array, text: string): RowError | null {
  const image = imageKind(bytes.subarray(0, 12));
  if (image)
    return { line: 1, field: 'file', ...said('import.problem.imageFile', { kind: image }), scope: 'file' };
  const nul = text.indexOf('\u0000');
  if (nul < 0) return null;
  return {
    line: text.slice(0, nul).split('\n').length,
    field: 'file',
    ...said('import.problem.binary'),
    scope: 'file',
  };
}

export interface QuestionFileWindows {
  format: QuestionFileFormat | null;
  /**
   * The file's records a window at a time (at most `size` questions each for GIFT, read question by
   * question; the other formats in one window). Each call reads the file again from its bytes, so a caller
   * may go through it twice (check everything, then import) holding one window at a time.
   */
  windows(): Iterable<ReadResult>;
  /**
   * The problems of a file that yields no question at all (it cannot be parsed, it is not text), known
   * before any window is checked; null otherwise.
   */
  unreadable: RowError[] | null;
}

/** A read that yields no question because of the file itself: its problems, else null. */
const unreadableProblems = (result: ReadResult): RowError[] | null =>
  result.total === 0 && result.errors.some((e) => e.scope === 'file') ? result.errors : null;

/** readQuestionBytes, a window at a time (QuestionFileWindows). */
export function readQuestionWindows(
  name: string,
  bytes: Uint8Array,
  size: number,
  format?: QuestionFileFormat,
): QuestionFileWindows {
  const whole = () => {
    // the other readers take the whole file (XML is parsed whole; JSON arrays and CSV quoting span lines)
    const read = readQuestionBytes(name, bytes, format);
    return { format: read.format, windows: () => [read.result], unreadable: unreadableProblems(read.result) };
  };
  if (isZip(bytes)) return whole();
  const decoded = decodeText(bytes);
  const fmt = format ?? detectFormat(name, decoded.text);
  if (fmt !== 'gift' || binaryProblem(bytes, decoded.text)) return whole();
  return {
    format: fmt,
    unreadable: null,
    *windows() {
      let first = true;
      for (const window of readGiftWindows(decoded.text, size)) {
        if (first && decoded.note) window.notes.unshift(decoded.note);
        first = false;
        yield window;
      }
    },
  };
}
