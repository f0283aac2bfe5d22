/**
 * Checking a question a file holds, whatever its format, before anything is written: the record's own
 * shape, its subject and topic against the server's (names or ids, with "did you mean"), its images, then
 * the editor's schema and rules (shared/schemas/authoring.ts QuestionInput, mentor §5). Every problem is
 * named with its field; nothing is half-accepted.
 *
 * Images are looked up through the caller (the CLI reads files beside the question file; the portal has
 * only what the file carries): an http(s) address is used as it is.
 */

import { hasImageOptions, isTextAnswer } from '../rules/question-types';
import {
  DROPZONE_HEIGHT,
  DROPZONE_WIDTH,
  editorMessages,
  QuestionInput,
  withOptionPoints,
} from '../schemas/authoring';
import type { Subject } from '../schemas/lists';
import { type ImageKind, imageInfo } from './image';
import { isEmbedded, type Place, QuestionRecord, type RowError, type SourceRecord } from './record';

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
  input: QuestionInput;
  /** The question's image, if any. */
  image: ImageSource | null;
  /** For image types: each option's image (the option values are replaced by the uploaded paths). */
  optionImages: ImageSource[];
  subjectName: string;
  topicName: string;
  /** The file's own id of the question, when it has one. */
  sourceId?: string;
  notes?: string[];
}

/** Finds the bytes of an image the file names: its bytes, or why it cannot be had. */
export type ImageLookup = (ref: string) => { bytes: Uint8Array; load?: () => Uint8Array } | { error: string };

export interface CheckOptions {
  /** The server's subjects with their topics (GET /admin/subject/subject-list). */
  subjects: readonly Subject[];
  /** Where images that are not http(s) addresses come from. */
  images: ImageLookup;
  /** Used for a question whose file gives none (Aiken has none; GIFT may not). */
  defaults?: { subject?: string; topic?: string; tags?: string[]; explanation?: string };
  /** Given by the person, it replaces what the file says. */
  overrides?: { subject?: string; topic?: string };
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
  const found = opts.images(ref);
  if ('error' in found) {
    add(found.error);
    return null;
  }
  const { bytes } = found;
  const name = isEmbedded(ref) ? ref.slice(ref.indexOf(':') + 1) : ref;
  if (bytes.length > MAX_IMAGE_BYTES) {
    add(`${name} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
    return null;
  }
  const info = imageInfo(bytes);
  if (!info) {
    add(`${name} is not a jpeg, png or webp image`);
    return null;
  }
  if (exactSize && (info.width !== DROPZONE_WIDTH || info.height !== DROPZONE_HEIGHT)) {
    add(`${editorMessages.imageDimension} ${name} is ${info.width ?? '?'}×${info.height ?? '?'}.`);
    return null;
  }
  return { kind: 'bytes', ref, fileType: info.kind, size: bytes.length, load: found.load ?? (() => bytes) };
}

/**
 * Checks one record: the file's own shape, the subject and topic against the server's, the images, then the
 * editor's schema and rules. Returns the prepared question, or every problem found.
 */
export function checkRecord(
  source: SourceRecord,
  opts: CheckOptions,
): { ok: true; question: PreparedQuestion } | { ok: false; errors: RowError[] } {
  const place: Place = {
    line: source.line,
    ...(source.item ? { item: source.item } : {}),
    ...(source.part ? { part: source.part } : {}),
  };
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
  const fib = isTextAnswer(type);
  const image = hasImageOptions(type);

  const subjectRef = opts.overrides?.subject ?? r.subject ?? opts.defaults?.subject;
  const topicRef = opts.overrides?.topic ?? r.topic ?? opts.defaults?.topic;
  const { subject, topic } = resolveSubject(opts.subjects, subjectRef, topicRef, add);

  const options = r.options.map((o) => ({ value: o.value.trim(), correct: fib || (o.correct ?? false) }));
  if (r.points !== undefined && !fib && !reported.has('points')) {
    add('points', 'only fill-in-blank questions have points (a correct option is worth 10)');
  }

  const givenExplanation = r.explanation ?? opts.defaults?.explanation;
  const explanation = (typeof givenExplanation === 'string' ? [givenExplanation] : (givenExplanation ?? []))
    .map((v) => v.trim())
    .filter((v, i) => i === 0 || v !== '');
  const givenTags = r.tags ?? opts.defaults?.tags;
  const tags = (typeof givenTags === 'string' ? givenTags.split(/[,|]/) : (givenTags ?? []))
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
      if (field === 'subject' && subjectRef?.trim()) continue;
      if (field === 'topic' && (topicRef?.trim() || (subjectRef?.trim() && !subject))) continue;
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
      ...(source.sourceId ? { sourceId: source.sourceId } : {}),
      ...(source.notes?.length ? { notes: source.notes } : {}),
    },
  };
}
