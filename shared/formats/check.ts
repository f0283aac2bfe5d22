/**
 * Checking a question a file holds, whatever its format, before anything is written: the record's own
 * shape, its subject and topic (./placement.ts: the person's choice, the file's names with "did you mean",
 * or its category), its images, then the editor's schema and rules (shared/schemas/authoring.ts
 * ImportedQuestionInput, mentor §5: an imported question may come without explanation and tags, decision
 * 032), and no two options alike. Every problem is named with its field; nothing is half-accepted.
 *
 * Images are looked up through the caller (the CLI reads files beside the question file; the portal has
 * only what the file carries): an http(s) address is used as it is.
 */

import { hasImageOptions, isTextAnswer } from '../rules/question-types';
import {
  DROPZONE_HEIGHT,
  DROPZONE_WIDTH,
  ImportedQuestionInput,
  withOptionPoints,
} from '../schemas/authoring';
import type { Subject } from '../schemas/lists';
import { type ImageKind, imageInfo } from './image';
import { placeQuestion, type UnplacedQuestion } from './placement';
import { said, saidText } from './problems';
import {
  isEmbedded,
  type Note,
  type ParsedRecord,
  type Place,
  QuestionRecord,
  type RowError,
  type SourceRecord,
} from './record';

/** The longest image address a question records. */
const MAX_IMAGE_PATH = 500;

/** The upload limit for a question or option image: the portal, the CLI and the server check this one. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

// ---- checking

/** An image a question uses: one the file brings (bytes to upload), or an address already online. */
export type ImageSource =
  | {
      kind: 'bytes';
      /** How the file names it (a path, or embedded:… for an image carried inside the file). */
      ref: string;
      fileType: ImageKind;
      size: number;
      /** The bytes (read again when they are uploaded, so a large bank is not held in memory). */
      load: () => Uint8Array;
    }
  | { kind: 'url'; url: string };

/** A question ready to be created: the editor's payload, and the images to upload before saving it. */
export interface PreparedQuestion extends Place {
  input: ImportedQuestionInput;
  /** The question's image, if any. */
  image: ImageSource | null;
  /** For image types: each option's image (the option values are replaced by the uploaded paths). */
  optionImages: ImageSource[];
  subjectName: string;
  topicName: string;
  /** The file's own id of the question, when it has one. */
  sourceId?: string;
  notes?: Note[];
}

/** Finds the bytes of an image the file names: its bytes, or why it cannot be had. */
export type ImageLookup = (
  ref: string,
) => { bytes: Uint8Array; load?: () => Uint8Array } | { error: string | Note };

export interface CheckOptions {
  /** The server's subjects with their topics (GET /admin/subject/subject-list). */
  subjects: readonly Subject[];
  /** Where images that are not http(s) addresses come from. */
  images: ImageLookup;
  /** Used for a question whose file gives none (Aiken has none; GIFT may not). */
  defaults?: { tags?: string[]; explanation?: string };
  /** Chosen by the person: the subject (and topic) of every question, whatever the file says. */
  overrides?: { subject?: string; topic?: string };
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/**
 * A field as the file names it ("options: option 2"), with its words for the reader's language where they
 * are not the file's own keys (./problems.ts).
 */
type Field = Pick<RowError, 'field' | 'fieldCode' | 'fieldParams'>;
const optionField = (n: number, part?: string): Field =>
  part === undefined
    ? { field: `options: option ${n}`, fieldCode: 'import.field.option', fieldParams: { n } }
    : {
        field: `options: option ${n} (${part})`,
        fieldCode: 'import.field.optionPart',
        fieldParams: { n, part },
      };
const tagField = (n: number): Field => ({
  field: `tags: tag ${n}`,
  fieldCode: 'import.field.tag',
  fieldParams: { n },
});

/** An ImportedQuestionInput issue path in the file's terms. */
function fileField(path: readonly PropertyKey[]): string | Field {
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
      return typeof index === 'number' ? optionField(index + 1) : 'options';
    case 'explanation':
      return 'explanation';
    case 'tags':
      return typeof index === 'number' ? tagField(index + 1) : 'tags';
    default:
      return String(head ?? 'question');
  }
}

function recordField(path: readonly PropertyKey[]): string | Field {
  const [head, index] = path;
  if (head === undefined) return 'question';
  if (head === 'options' && typeof index === 'number')
    return optionField(index + 1, path[2] === undefined ? undefined : String(path[2]));
  if ((head === 'tags' || head === 'explanation') && typeof index === 'number') return `${String(head)}`;
  return String(head);
}

/** Records a problem of a field (the first of each is kept). */
type Add = (field: string | Field, problem: Note) => void;
const fieldName = (f: string | Field) => (typeof f === 'string' ? f : f.field);

function checkImage(
  ref: string,
  opts: CheckOptions,
  add: (problem: Note) => void,
  exactSize: boolean,
): ImageSource | null {
  if (isUrl(ref)) {
    // what the server records of an image (updateImagePath, ImportedQuestionInput.questionImagePath)
    if (ref.length > MAX_IMAGE_PATH) {
      add(said('import.problem.imageAddressLong', { max: MAX_IMAGE_PATH }));
      return null;
    }
    return { kind: 'url', url: ref };
  }
  const found = opts.images(ref);
  if ('error' in found) {
    add(typeof found.error === 'string' ? { message: found.error } : found.error);
    return null;
  }
  const { bytes } = found;
  const name = isEmbedded(ref) ? ref.slice(ref.indexOf(':') + 1) : ref;
  if (bytes.length > MAX_IMAGE_BYTES) {
    add(said('import.problem.imageTooLarge', { name, megabytes: MAX_IMAGE_BYTES / 1024 / 1024 }));
    return null;
  }
  const info = imageInfo(bytes);
  if (!info) {
    add(said('import.problem.notAnImage', { name }));
    return null;
  }
  if (exactSize && (info.width !== DROPZONE_WIDTH || info.height !== DROPZONE_HEIGHT)) {
    add(
      said('import.problem.imageSize', {
        name,
        width: String(info.width ?? '?'),
        height: String(info.height ?? '?'),
      }),
    );
    return null;
  }
  return { kind: 'bytes', ref, fileType: info.kind, size: bytes.length, load: found.load ?? (() => bytes) };
}

/** What checking one record gave. */
export type CheckedRecord =
  | { ok: true; question: PreparedQuestion }
  /**
   * Its problems; `unplaced` when no subject and topic were found for it (not a problem of the question:
   * said once for the file, ./placement.ts), which may be all that stops it.
   */
  | { ok: false; errors: RowError[]; unplaced?: UnplacedQuestion };

/** Options of a choice question that repeat an earlier one: learners could not tell them apart. */
function repeatedOptions(options: readonly { value: string }[]) {
  const seen = new Map<string, number>();
  const out: { index: number; first: number }[] = [];
  options.forEach((o, i) => {
    const key = o.value.replace(/\s+/g, ' ');
    if (!key) return;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else out.push({ index: i, first });
  });
  return out;
}

/**
 * The record's own shape (QuestionRecord): fields whose shape is wrong are reported once and left out, so
 * the rest is still checked. Returns the record read, and the fields reported; null when nothing is left.
 */
function recordShape(value: unknown, add: Add): { r: ParsedRecord; reported: Set<string> } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    add('question', said('import.problem.notObject'));
    return null;
  }
  const reported = new Set<string>();
  let parsed = QuestionRecord.safeParse(value);
  if (parsed.success) return { r: parsed.data, reported };
  const rest: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys' && issue.path.length === 0) {
      for (const key of issue.keys) {
        add(key, said('import.problem.unknownField'));
        delete rest[key];
      }
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        add(`${fieldName(recordField(issue.path))}: ${key}`, said('import.problem.unknownField'));
    } else add(recordField(issue.path), saidText(issue.message));
    const top = String(issue.path[0]);
    reported.add(top);
    delete rest[top];
  }
  parsed = QuestionRecord.safeParse(rest);
  return parsed.success ? { r: parsed.data, reported } : null;
}

/** What a question has none of (or only blanks) comes from the defaults, if any; else it has none. */
function withDefaults(r: ParsedRecord, defaults: CheckOptions['defaults']) {
  const list = (v: string | string[] | undefined, split?: RegExp) =>
    (typeof v === 'string' ? (split ? v.split(split) : [v]) : (v ?? [])).map((t) => t.trim()).filter(Boolean);
  const fileExplanation = list(r.explanation);
  const fileTags = list(r.tags, /[,|]/);
  return {
    explanation: fileExplanation.length ? fileExplanation : list(defaults?.explanation),
    tags: fileTags.length ? fileTags : list(defaults?.tags),
  };
}

/** The editor's schema and rules on the question as it will be sent, each problem named as the file names it. */
function editorProblems(input: ImportedQuestionInput, reported: Set<string>, add: Add) {
  const checked = ImportedQuestionInput.safeParse(input);
  if (checked.success) return;
  for (const issue of checked.error.issues) {
    const field = fieldName(fileField(issue.path));
    if (reported.has(field.split(':')[0]!)) continue;
    // the subject and topic are the placement's: reported above, or said once for the file
    if (field === 'subject' || field === 'topic') continue;
    add(fileField(issue.path), saidText(issue.message));
  }
}

/** The question's image and, for image types, each option's. */
function imagesOf(r: ParsedRecord, options: readonly { value: string }[], opts: CheckOptions, add: Add) {
  const image = r.image?.trim() ? checkImage(r.image.trim(), opts, (m) => add('image', m), true) : null;
  const optionImages: ImageSource[] = [];
  if (hasImageOptions(r.type))
    options.forEach((o, i) => {
      if (!o.value) return;
      const src = checkImage(o.value, opts, (m) => add(optionField(i + 1), m), false);
      if (src) optionImages[i] = src;
    });
  return { image, optionImages };
}

/**
 * Checks one record: the file's own shape, its subject and topic (./placement.ts), the images, then the
 * editor's schema and rules. Returns the prepared question, or every problem found.
 */
export function checkRecord(source: SourceRecord, opts: CheckOptions): CheckedRecord {
  const place: Place = {
    line: source.line,
    ...(source.item ? { item: source.item } : {}),
    ...(source.part ? { part: source.part } : {}),
  };
  const errors: RowError[] = [];
  const add: Add = (field, problem) => {
    const named = typeof field === 'string' ? { field } : field;
    if (!errors.some((e) => e.field === named.field && e.message === problem.message))
      errors.push({ ...place, ...named, ...problem });
  };
  const shape = recordShape(source.value, add);
  if (!shape) return { ok: false, errors };
  const { r, reported } = shape;
  const fib = isTextAnswer(r.type);

  const placement = placeQuestion(opts.subjects, {
    ...(opts.overrides ? { chosen: opts.overrides } : {}),
    named: { ...(r.subject ? { subject: r.subject } : {}), ...(r.topic ? { topic: r.topic } : {}) },
    ...(source.category ? { category: source.category } : {}),
  });
  const subject = placement.ok ? placement.subject : null;
  const topic = placement.ok ? placement.topic : null;
  if (!placement.ok && !placement.unplaced && !reported.has(placement.field))
    add(placement.field, placement.problem);

  const options = r.options.map((o) => ({ value: o.value.trim(), correct: fib || (o.correct ?? false) }));
  if (r.points !== undefined && !fib && !reported.has('points'))
    add('points', said('import.problem.pointsOnlyBlank'));
  if (!fib && !reported.has('options'))
    for (const { index, first } of repeatedOptions(options))
      add(optionField(index + 1), said('import.problem.sameOption', { first: first + 1 }));

  const { explanation, tags } = withDefaults(r, opts.defaults);
  const input: ImportedQuestionInput = {
    question: r.question ?? '',
    questionType: r.type,
    code: r.code?.trim() ? r.code : null,
    questionImagePath: null,
    ...(fib ? { points: r.points ?? 10 } : {}),
    subject: subject?._id ?? null,
    topic: topic?._id ?? null,
    options: withOptionPoints(options.map((o) => ({ value: o.value, isCorrect: o.correct }))),
    explanation: explanation.map((value) => ({ type: 'TEXT' as const, value })),
    tags,
  };
  editorProblems(input, reported, add);
  const images = imagesOf(r, options, opts, add);

  if (errors.length || !subject || !topic)
    return {
      ok: false,
      errors,
      ...(placement.ok || !placement.unplaced
        ? {}
        : { unplaced: { ...place, category: source.category ?? null } }),
    };
  return {
    ok: true,
    question: {
      ...place,
      input,
      image: images.image,
      optionImages: images.optionImages,
      subjectName: subject.name,
      topicName: topic.name,
      ...(source.sourceId ? { sourceId: source.sourceId } : {}),
      ...(source.notes?.length ? { notes: source.notes } : {}),
    },
  };
}
