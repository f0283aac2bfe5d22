/**
 * Question files: reading them (JSON array, NDJSON, CSV), checking every question with the editor's own
 * schema and rules (shared/schemas/authoring.ts QuestionInput, mentor §5) before anything is written, and
 * writing them (what `questions export` writes, `questions import` reads).
 *
 * One question as a file holds it (JSON; CSV has a column per field, see cli/README.md):
 *
 *   { "question": "…", "type": "MCQ", "options": [{ "value": "…", "correct": true }, "…"],
 *     "points": 10, "subject": "Programming", "topic": "JavaScript", "explanation": "…",
 *     "tags": ["…"], "code": "…", "image": "images/q1.png" }
 *
 * Subject and topic are names or ids; options are objects or plain strings (not correct); for
 * fill-in-blank every option is an accepted answer; for image types every option is an image; an image is
 * a jpeg, png or webp file (relative to the question file) or an http(s) address already online.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { QUESTION_TYPES, type Question } from '@shared/schemas/assessment';
import {
  DROPZONE_HEIGHT,
  DROPZONE_WIDTH,
  editorMessages,
  isImageType,
  QuestionInput,
  withOptionPoints,
} from '@shared/schemas/authoring';
import type { Subject } from '@shared/schemas/lists';
import { z } from 'zod';
import { CsvError, parseCsv, toCsv, withHeader } from '@shared/formats/csv';
import { type ImageKind, imageInfo } from '@shared/formats/image';

export type QuestionFileFormat = 'json' | 'ndjson' | 'csv';
export const QUESTION_FILE_FORMATS: readonly QuestionFileFormat[] = ['json', 'ndjson', 'csv'];

/** Where a question sits in its file: the line it starts on, and its number in a JSON array. */
export interface Place {
  line: number;
  /** 1-based position in a JSON array. */
  item?: number;
}

/** One problem with one question: where, which field (as the file names it), what is wrong. */
export interface RowError extends Place {
  field: string;
  message: string;
}

export const describePlace = (p: Place) => (p.item ? `line ${p.line} (item ${p.item})` : `line ${p.line}`);
export const describeRowError = (e: RowError) => `${describePlace(e)}: ${e.field}: ${e.message}`;

/** The longest image address a question records. */
const MAX_IMAGE_PATH = 500;

/** The server's upload limit for a question or option image. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

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

// ---- the record a file holds

const text = (field: string) => z.string({ error: `${field} must be text` });
/** A plain string is an option that is not marked correct. */
const FileOption = z.preprocess(
  (v) => (typeof v === 'string' ? { value: v } : v),
  z.strictObject(
    {
      value: z.string({ error: 'must be text' }),
      correct: z.boolean({ error: 'must be true or false' }).optional(),
    },
    { error: 'must be text or { "value": …, "correct": true }' },
  ),
);
const textList = (what: string) =>
  z.union([z.string(), z.array(z.string({ error: `each ${what} must be text` }))], {
    error: 'must be text or a list of texts',
  });

/** A question as a file holds it. Unknown fields are refused, so a misspelt one is not silently lost. */
export const QuestionRecord = z.strictObject({
  /** Written by export for reference; import always creates new questions. */
  id: z.string().optional(),
  question: text('the question').optional(),
  type: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
      z.enum(QUESTION_TYPES, { error: `must be one of ${QUESTION_TYPES.join(', ')}` }),
    )
    .optional()
    .default('MCQ'),
  options: z.array(FileOption, { error: 'must be a list' }).optional().default([]),
  points: z
    .number({ error: 'must be a whole number from 1 to 100' })
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be a whole number from 1 to 100')
    .max(100, 'must be a whole number from 1 to 100')
    .optional(),
  subject: text('the subject').optional(),
  topic: text('the topic').optional(),
  explanation: textList('explanation').optional(),
  tags: textList('tag').optional(),
  code: z.string({ error: 'must be text' }).nullable().optional(),
  image: z.string({ error: 'must be a file path or an http(s) address' }).nullable().optional(),
});
export type QuestionRecord = z.input<typeof QuestionRecord>;

export interface SourceRecord extends Place {
  value: unknown;
}

// ---- reading

export function formatOf(path: string, textContent: string): QuestionFileFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  const first = textContent.replace(/^\uFEFF/, '').trimStart()[0];
  if (first === '[') return 'json';
  if (first === '{') return 'ndjson';
  return ext === '.json' ? 'json' : 'csv';
}

/** The records of a file, each with its place; problems with the file itself are row errors too. */
export function readRecords(
  textContent: string,
  format: QuestionFileFormat,
): { records: SourceRecord[]; errors: RowError[] } {
  const src = textContent.replace(/^\uFEFF/, '');
  if (format === 'csv') return readCsv(src);
  if (format === 'ndjson') return readNdjson(src);
  return readJsonArray(src);
}

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
    records: data.map((value, i) => ({ line: lines[i] ?? 1, item: i + 1, value })),
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
      records.push({ line: i + 1, value: JSON.parse(raw) });
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

function readCsv(src: string): { records: SourceRecord[]; errors: RowError[] } {
  let parsed: ReturnType<typeof withHeader>;
  try {
    parsed = withHeader(parseCsv(src));
  } catch (err) {
    if (err instanceof CsvError)
      return {
        records: [],
        errors: [{ line: err.line, field: 'CSV', message: err.message.replace(/^line \d+: /, '') }],
      };
    throw err;
  }
  const errors: RowError[] = [];
  if (!parsed.columns.length) return { records: [], errors };
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
    records.push({ line: row.line, value: record });
  }
  return { records, errors };
}

// ---- checking

export type ImageSource = { kind: 'file'; path: string; fileType: ImageKind } | { kind: 'url'; url: string };

/** A question ready to be created: the editor's payload, and the images to upload before saving it. */
export interface PreparedQuestion extends Place {
  input: QuestionInput;
  /** The question's image, if any. */
  image: ImageSource | null;
  /** For image types: each option's image (the option values are replaced by the uploaded paths). */
  optionImages: ImageSource[];
  subjectName: string;
  topicName: string;
}

export interface CheckOptions {
  /** The server's subjects with their topics (GET /admin/subject/subject-list). */
  subjects: readonly Subject[];
  /** The folder image paths are relative to (the question file's). */
  baseDir: string;
  /** Reads a file (for tests). */
  readFile?: (path: string) => Buffer;
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** A QuestionInput issue path in the file's terms. */
function fileField(path: readonly PropertyKey[]): string {
  const [head, index] = path;
  switch (head) {
    case 'questionType':
      return 'type';
    case 'questionImagePath':
      return 'image';
    case 'correctAnswer':
    case 'imageAnswer':
    case 'textCorrectAnswer':
      return 'options';
    case 'options':
      return typeof index === 'number' ? `options: option ${index + 1}` : 'options';
    case 'explanation':
      return 'explanation';
    case 'tags':
      return typeof index === 'number' ? `tags: tag ${index + 1}` : 'tags';
    default:
      return String(head ?? 'question');
  }
}

function recordField(path: readonly PropertyKey[]): string {
  const [head, index] = path;
  if (head === undefined) return 'question';
  if (head === 'options' && typeof index === 'number')
    return `options: option ${index + 1}${path[2] === undefined ? '' : ` (${String(path[2])})`}`;
  if ((head === 'tags' || head === 'explanation') && typeof index === 'number') return `${String(head)}`;
  return String(head);
}

/** Edit distance, for "did you mean" on a misspelt subject or topic. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The name closest to a misspelt one, when it is close enough to be a typo. */
export function closest(name: string, names: readonly string[]): string | null {
  const key = name.trim().toLowerCase();
  let best: { name: string; d: number } | null = null;
  for (const n of names) {
    const d = distance(key, n.toLowerCase());
    if (d <= Math.max(1, Math.floor(key.length / 4)) && (!best || d < best.d)) best = { name: n, d };
  }
  return best?.name ?? null;
}

function resolveSubject(
  subjects: readonly Subject[],
  subjectRef: string | undefined,
  topicRef: string | undefined,
  add: (field: string, message: string) => void,
): { subject: Subject | null; topic: Subject['topics'][number] | null } {
  if (!subjectRef?.trim()) return { subject: null, topic: null };
  const key = subjectRef.trim().toLowerCase();
  const subject =
    subjects.find((s) => s._id.toLowerCase() === key) ??
    subjects.find((s) => s.name.trim().toLowerCase() === key) ??
    null;
  if (!subject) {
    const guess = closest(
      subjectRef,
      subjects.map((s) => s.name),
    );
    add(
      'subject',
      guess
        ? `no subject "${subjectRef.trim()}" on the server: did you mean "${guess}"?`
        : `no subject "${subjectRef.trim()}" on the server (${subjects.length ? `subjects: ${subjects.map((s) => s.name).join(', ')}` : 'it has no subjects'})`,
    );
    return { subject: null, topic: null };
  }
  if (!topicRef?.trim()) return { subject, topic: null };
  const tkey = topicRef.trim().toLowerCase();
  const topic =
    subject.topics.find((t) => t._id.toLowerCase() === tkey) ??
    subject.topics.find((t) => t.name.trim().toLowerCase() === tkey) ??
    null;
  if (!topic) {
    const elsewhere = subjects.find(
      (s) => s !== subject && s.topics.some((t) => t.name.toLowerCase() === tkey || t._id === tkey),
    );
    const guess = elsewhere
      ? null
      : closest(
          topicRef,
          subject.topics.map((t) => t.name),
        );
    add(
      'topic',
      guess
        ? `"${topicRef.trim()}" is not a topic of ${subject.name}: did you mean "${guess}"?`
        : `"${topicRef.trim()}" is not a topic of ${subject.name}${elsewhere ? ` (it is one of ${elsewhere.name})` : ''} (topics: ${subject.topics.map((t) => t.name).join(', ') || 'none'})`,
    );
  }
  return { subject, topic };
}

function checkImage(
  ref: string,
  opts: CheckOptions,
  add: (message: string) => void,
  exactSize: boolean,
): ImageSource | null {
  if (isUrl(ref)) {
    // what the server records of an image (updateImagePath, QuestionInput.questionImagePath)
    if (ref.length > MAX_IMAGE_PATH) {
      add(`an image address is at most ${MAX_IMAGE_PATH} characters`);
      return null;
    }
    return { kind: 'url', url: ref };
  }
  const path = resolve(opts.baseDir, ref);
  let bytes: Buffer;
  try {
    if (!opts.readFile && statSync(path).size > MAX_IMAGE_BYTES) {
      add(`${ref} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
      return null;
    }
    bytes = (opts.readFile ?? readFileSync)(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    add(
      code === 'ENOENT'
        ? `no such file: ${ref}`
        : `${ref} cannot be read (${code ?? (err as Error).message})`,
    );
    return null;
  }
  if (bytes.length > MAX_IMAGE_BYTES) {
    add(`${ref} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
    return null;
  }
  const info = imageInfo(bytes);
  if (!info) {
    add(`${ref} is not a jpeg, png or webp image`);
    return null;
  }
  if (exactSize && (info.width !== DROPZONE_WIDTH || info.height !== DROPZONE_HEIGHT)) {
    add(`${editorMessages.imageDimension} ${ref} is ${info.width ?? '?'}×${info.height ?? '?'}.`);
    return null;
  }
  return { kind: 'file', path, fileType: info.kind };
}

/**
 * Checks one record: the file's own shape, the subject and topic against the server's, the images, then the
 * editor's schema and rules. Returns the prepared question, or every problem found.
 */
export function checkRecord(
  source: SourceRecord,
  opts: CheckOptions,
): { ok: true; question: PreparedQuestion } | { ok: false; errors: RowError[] } {
  const place: Place = { line: source.line, ...(source.item ? { item: source.item } : {}) };
  const errors: RowError[] = [];
  const add = (field: string, message: string) => {
    if (!errors.some((e) => e.field === field && e.message === message))
      errors.push({ ...place, field, message });
  };
  if (typeof source.value !== 'object' || source.value === null || Array.isArray(source.value)) {
    add('question', 'must be an object with question, options, subject, topic, explanation and tags');
    return { ok: false, errors };
  }
  // fields whose shape is wrong are reported once and left out, so the rest is still checked
  const reported = new Set<string>();
  let parsed = QuestionRecord.safeParse(source.value);
  if (!parsed.success) {
    const rest: Record<string, unknown> = { ...(source.value as Record<string, unknown>) };
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys' && issue.path.length === 0) {
        for (const key of issue.keys) {
          add(key, 'unknown field');
          delete rest[key];
        }
        continue;
      }
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) add(`${recordField(issue.path)}: ${key}`, 'unknown field');
      } else add(recordField(issue.path), issue.message);
      const top = String(issue.path[0]);
      reported.add(top);
      delete rest[top];
    }
    parsed = QuestionRecord.safeParse(rest);
    if (!parsed.success) return { ok: false, errors };
  }
  const r = parsed.data;
  const type = r.type;
  const fib = type === 'FILL_IN_BLANK';
  const image = isImageType(type);

  const { subject, topic } = resolveSubject(opts.subjects, r.subject, r.topic, add);

  const options = r.options.map((o) => ({ value: o.value.trim(), correct: fib || (o.correct ?? false) }));
  if (r.points !== undefined && !fib && !reported.has('points')) {
    add('points', 'only fill-in-blank questions have points (a correct option is worth 10)');
  }

  const explanation = (typeof r.explanation === 'string' ? [r.explanation] : (r.explanation ?? []))
    .map((v) => v.trim())
    .filter((v, i) => i === 0 || v !== '');
  const tags = (typeof r.tags === 'string' ? r.tags.split(/[,|]/) : (r.tags ?? []))
    .map((t) => t.trim())
    .filter(Boolean);

  const input: QuestionInput = {
    question: r.question ?? '',
    questionType: type,
    code: r.code?.trim() ? r.code : null,
    questionImagePath: null,
    ...(fib ? { points: r.points ?? 10 } : {}),
    subject: subject?._id ?? null,
    topic: topic?._id ?? null,
    options: withOptionPoints(options.map((o) => ({ value: o.value, isCorrect: o.correct }))),
    explanation: explanation.map((value) => ({ type: 'TEXT' as const, value })),
    tags,
  };
  const checked = QuestionInput.safeParse(input);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = fileField(issue.path);
      if (reported.has(field.split(':')[0]!)) continue;
      // a subject or topic that was given but not found is reported above; a topic cannot be found
      // without its subject
      if (field === 'subject' && r.subject?.trim()) continue;
      if (field === 'topic' && (r.topic?.trim() || (r.subject?.trim() && !subject))) continue;
      add(field, issue.message);
    }
  }

  let questionImage: ImageSource | null = null;
  if (r.image?.trim()) {
    questionImage = checkImage(r.image.trim(), opts, (m) => add('image', m), true);
  }
  const optionImages: ImageSource[] = [];
  if (image) {
    options.forEach((o, i) => {
      if (!o.value) return;
      const src = checkImage(o.value, opts, (m) => add(`options: option ${i + 1}`, m), false);
      if (src) optionImages[i] = src;
    });
  }

  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    question: {
      ...place,
      input,
      image: questionImage,
      optionImages,
      subjectName: subject!.name,
      topicName: topic!.name,
    },
  };
}

export interface QuestionFile {
  path: string;
  format: QuestionFileFormat;
  records: SourceRecord[];
  /** Problems with the file itself (syntax, unknown columns). */
  errors: RowError[];
}

/** Reads a question file (it must exist: the caller reports a missing one). */
export function readQuestionFile(
  path: string,
  textContent: string,
  format?: QuestionFileFormat,
): QuestionFile {
  const fmt = format ?? formatOf(path, textContent);
  const { records, errors } = readRecords(textContent, fmt);
  return { path, format: fmt, records, errors };
}

/** Checks every question of a file; the questions are ready only when there are no errors at all. */
export function checkQuestionFile(
  file: QuestionFile,
  subjects: readonly Subject[],
  readFile?: (path: string) => Buffer,
): { questions: PreparedQuestion[]; errors: RowError[] } {
  const errors = [...file.errors];
  const questions: PreparedQuestion[] = [];
  if (!file.errors.length && file.records.length === 0) {
    errors.push({ line: 1, field: 'file', message: 'has no questions' });
  }
  for (const record of file.records) {
    const result = checkRecord(record, {
      subjects,
      baseDir: dirname(resolve(file.path)),
      ...(readFile ? { readFile } : {}),
    });
    if (result.ok) questions.push(result.question);
    else errors.push(...result.errors);
  }
  // in the order of the file (a sort that keeps the order of problems on one line)
  errors.sort((a, b) => a.line - b.line);
  return { questions, errors };
}

// ---- writing (export)

/** A server question as a file record: subject and topic by name, images as absolute addresses. */
export function toRecord(
  q: Question,
  subjects: readonly Subject[],
  server: string,
): z.output<typeof QuestionRecord> & { question: string } {
  const subject = subjects.find((s) => s._id === q.subject);
  const topic = subject?.topics.find((t) => t._id === q.topic);
  const absolute = (p: string) => (p.startsWith('/') ? `${server}${p}` : p);
  const fib = q.questionType === 'FILL_IN_BLANK';
  const explanation = q.explanation.map((e) => e.value);
  return {
    id: q._id,
    question: q.question,
    type: q.questionType,
    options: q.options.map((o) => ({
      value: isImageType(q.questionType) ? absolute(o.value) : o.value,
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
export function writeRecords(
  records: readonly ReturnType<typeof toRecord>[],
  format: QuestionFileFormat,
): string {
  if (format === 'json') return `${JSON.stringify(records, null, 2)}\n`;
  if (format === 'ndjson') return records.map((r) => `${JSON.stringify(r)}\n`).join('');
  const rows = records.map((r) => {
    const options = (r.options ?? []).map((o) =>
      typeof o === 'string'
        ? { value: o }
        : { value: o.value, starred: o.correct === true && r.type !== 'FILL_IN_BLANK' },
    );
    const explanation =
      typeof r.explanation === 'string' ? r.explanation : (r.explanation ?? []).join('\n\n');
    const tags = typeof r.tags === 'string' ? r.tags : (r.tags ?? []).join(', ');
    return [
      r.id ?? '',
      r.question,
      r.type ?? 'MCQ',
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
