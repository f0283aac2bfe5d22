/**
 * A question as a file holds it, whatever the file's format: the record every reader produces (Waymark's
 * own JSON and CSV hold it as it is; GIFT, Aiken, Moodle XML and QTI are converted to it), where it sits in
 * the file, and what a reader found that it could not turn into one.
 *
 *   { "question": "…", "type": "MCQ", "options": [{ "value": "…", "correct": true }, "…"],
 *     "points": 10, "subject": "Programming", "topic": "JavaScript", "explanation": "…",
 *     "tags": ["…"], "code": "…", "image": "images/q1.png" }
 */
import { z } from 'zod';
import type { MessageKey } from '../i18n/keys';
import type { MessageValues } from '../i18n/translator';
import { DEFAULT_QUESTION_TYPE, QUESTION_TYPES, type QuestionType } from '../rules/question-types';

/** Where a question sits in its file: the line it starts on, and its number in a JSON array. */
export interface Place {
  line: number;
  /** 1-based position in a JSON array (or in a package of several files). */
  item?: number;
  /** The file inside a package (a QTI zip), when there is one. */
  part?: string;
}

/**
 * What a problem says, for the reader's language: its message key (the stable code the API and the portal
 * carry, ./problems.ts) and the values it names; `message`/`reason` beside it stay English (the CLI, logs).
 */
export interface Coded {
  code?: MessageKey;
  params?: MessageValues;
}

/** Something said of a question or of the file on its way in (an encoding guessed, feedback left out). */
export interface Note extends Coded {
  message: string;
}

/**
 * One problem: where, which field (as the file names it), what is wrong. Most are of one question; those
 * of the file itself (it cannot be parsed, a CSV header names an unknown column, a package lacks a part)
 * say `scope: 'file'`, and are not counted as problems of a question.
 */
export interface RowError extends Place, Coded {
  field: string;
  /** The field's words for the reader's language, where they are not the file's own ("option 2"). */
  fieldCode?: MessageKey;
  fieldParams?: MessageValues;
  message: string;
  scope?: 'file';
}

export const describePlace = (p: Place) =>
  `${p.part ? `${p.part}: ` : ''}${p.item ? `line ${p.line} (item ${p.item})` : `line ${p.line}`}`;
export const describeRowError = (e: RowError) => `${describePlace(e)}: ${e.field}: ${e.message}`;

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
  /** The question's id where the file has one (Waymark's export writes it): the import's source identity. */
  id: z.string().optional(),
  question: text('the question').optional(),
  type: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
      z.enum(QUESTION_TYPES, { error: `must be one of ${QUESTION_TYPES.join(', ')}` }),
    )
    .optional()
    .default(DEFAULT_QUESTION_TYPE),
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
export type ParsedRecord = z.output<typeof QuestionRecord>;

/** One question read from a file, before it is checked. */
export interface SourceRecord extends Place {
  value: unknown;
  /**
   * The file's own id of the question (a GIFT `[id:…]`, a Moodle XML idnumber, a QTI identifier, the id
   * Waymark's export writes), prefixed by its kind: `waymark:…`, `moodle:…`, `qti:…`, `gift:…`.
   */
  sourceId?: string;
  /** Said of the question on its way in (a per-answer feedback left out, …). */
  notes?: Note[];
  /**
   * The category the file puts the question in, outermost first, without Moodle's `$course$` and `top`
   * (GIFT's `$CATEGORY:`, Moodle XML's category questions, a QTI manifest's taxon path): the subject and
   * topic are found in it (check.ts).
   */
  category?: string[];
}

/** A construct Waymark cannot hold, reported per question and never imported in a changed form. */
export interface Unsupported extends Place, Coded {
  /** What it is in the file's terms: "essay", "matching", "numerical with a tolerance". */
  kind: string;
  /** The kind's message key, when it has a name in every language (./problems.ts). */
  kindCode?: MessageKey;
  /** Why Waymark cannot hold it. */
  reason: string;
  /** The question's name or the start of its text, to recognise it by. */
  title?: string;
}

/** An image a file carries inside it (Moodle XML base64 `<file>`, a file in a QTI package). */
export const EMBEDDED = 'embedded:';
export const isEmbedded = (ref: string) => ref.startsWith(EMBEDDED);

/** What reading a file gave: its questions, what could not come over, and problems with the file. */
export interface ReadResult {
  records: SourceRecord[];
  unsupported: Unsupported[];
  errors: RowError[];
  /** How many questions the file has, whatever became of them (for "3 problems in 2 of 9 questions"). */
  total: number;
  /** Images carried inside the file, by the name its questions use after `embedded:`. */
  files: Map<string, Uint8Array>;
  /** Said of the whole file (the encoding guessed, the CSV separator). */
  notes: Note[];
}

export const emptyResult = (): ReadResult => ({
  records: [],
  unsupported: [],
  errors: [],
  total: 0,
  files: new Map(),
  notes: [],
});

/** The first words of a text, on one line, to name a question by. */
export function shorten(s: string, n = 60): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

/** A question of the bank as the writers take it: subject and topic by name, images as addresses. */
export interface BankQuestion {
  /** Waymark's id, written where the format has a place for one. */
  id?: string;
  question: string;
  type: QuestionType;
  options: { value: string; correct: boolean }[];
  /** Fill-in-blank only. */
  points?: number;
  subject: string;
  topic: string;
  explanation: string[];
  tags: string[];
  code?: string | null;
  image?: string | null;
}

/** The key a question keeps in a file written by Waymark: `waymark:<id>`. */
export const waymarkSourceId = (id: string) => `waymark:${id}`;

/** A record's own Waymark id (export writes it, in JSON and CSV alike) is its source identity. */
export const withSourceId = (r: SourceRecord): SourceRecord => {
  const id = (r.value as { id?: unknown } | null)?.id;
  return typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)
    ? { ...r, sourceId: waymarkSourceId(id.toLowerCase()) }
    : r;
};
