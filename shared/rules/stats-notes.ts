/**
 * Why a statistic is not given (a question's discrimination, the test's reliability), by a stable code — its
 * key in the message catalogues (decision 048) — beside the English the API's `note`/`discriminationNote`
 * keep. The statistics pages say the code in the reader's language; stats-notes.test.ts holds the English
 * catalogue equal to this table.
 */
export const NOTE_ENGLISH = {
  'stats.note.twoAttempts': 'Needs at least two attempts.',
  'stats.note.restScore': 'Needs attempts that received other questions too (a rest score).',
  'stats.note.sameOnIt': 'Not defined: every taker scored the same on it.',
  'stats.note.sameOnRest': 'Not defined: every taker scored the same on the rest of the test.',
  'stats.note.twoQuestions': 'Needs tests of at least two questions.',
  'stats.note.sameScore': 'Not defined: every attempt had the same score.',
} as const;

export type NoteCode = keyof typeof NOTE_ENGLISH;
export const NOTE_CODES = Object.keys(NOTE_ENGLISH) as [NoteCode, ...NoteCode[]];

/** A note: its code and its English. */
export const noted = (code: NoteCode) => ({ note: NOTE_ENGLISH[code], noteCode: code });
