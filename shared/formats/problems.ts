/**
 * What the question readers say of a file, each by a stable code — its key in the message catalogues
 * (shared/i18n/messages, decision 048) — with the values it names. The English here is what the CLI prints
 * and the API's `message` keeps; the portal says the code in its reader's language. The English catalogue
 * says each in ICU; problems.unit.test.ts holds the two equal.
 */
import type { MessageKey } from '../i18n/keys';
import type { MessageValues } from '../i18n/translator';
import { QUESTION_TYPES } from '../rules/question-types';
import { editorMessages } from '../schemas/authoring';

/** The English of every problem, by its code. */
const ENGLISH = {
  // the file
  'import.problem.noQuestions': () => 'has no questions',
  'import.problem.binary': () => 'is not a text file (it holds binary data)',
  'import.problem.imageFile': (p: { kind: string }) => `is a ${p.kind} image, not a question file`,
  'import.problem.zipNotFormat': (p: { format: string }) => `is a zip package, not ${p.format}`,
  'import.problem.entityExternal': () =>
    'declares an external entity (<!ENTITY … SYSTEM …>), which could read files of this computer; question files declare no entities',
  'import.problem.entity': () =>
    'declares an entity (<!ENTITY …>); question files declare none, and entities can be made to expand without bound',
  'import.problem.jsonNotArray': () => 'must be an array of questions (or one question per line)',
  'import.problem.csvUnknownColumn': (p: { columns: string }) =>
    `unknown column (the columns are ${p.columns})`,
  'import.problem.csvNoQuestion': () => 'the header row has no question column',
  'import.problem.csvMoreFields': () => 'more fields than the header has columns',
  'import.problem.csvUnclosedQuote': () => 'a quoted field is never closed (a " is missing)',
  'import.problem.csvAfterQuote': () =>
    'unexpected text after a closing quote: use "" for a quote inside a field',
  'import.problem.csvOtherSeparator': (p: { found: string; separator: string }) =>
    `a ${p.found} after a closing quote, but the fields are separated by ${p.separator}s`,
  'import.problem.moodleNoQuiz': () => 'a Moodle XML file holds a <quiz> element',
  'import.problem.qtiNotItem': () =>
    'neither a QTI 2.1 assessmentItem nor a QTI 1.2 questestinterop document',
  'import.problem.packageUnopened': (p: { reason: string }) => `the package cannot be opened: ${p.reason}`,
  'import.problem.manifestMissingFile': () => 'the manifest names a file the package does not hold',
  'import.problem.noItems': () => 'the package holds no QTI items',
  // a question's shape
  'import.problem.notObject': () =>
    'must be an object with question, options, subject, topic, explanation and tags',
  'import.problem.unknownField': () => 'unknown field',
  'import.problem.questionText': () => 'the question must be text',
  'import.problem.subjectText': () => 'the subject must be text',
  'import.problem.topicText': () => 'the topic must be text',
  'import.problem.mustBeText': () => 'must be text',
  'import.problem.mustBeBoolean': () => 'must be true or false',
  'import.problem.optionShape': () => 'must be text or { "value": …, "correct": true }',
  'import.problem.textOrList': () => 'must be text or a list of texts',
  'import.problem.explanationText': () => 'each explanation must be text',
  'import.problem.tagText': () => 'each tag must be text',
  'import.problem.typeOneOf': () => `must be one of ${QUESTION_TYPES.join(', ')}`,
  'import.problem.mustBeList': () => 'must be a list',
  'import.problem.points': () => 'must be a whole number from 1 to 100',
  'import.problem.imageRef': () => 'must be a file path or an http(s) address',
  'import.problem.pointsOnlyBlank': () =>
    'only fill-in-blank questions have points (a correct option is worth 10)',
  'import.problem.sameOption': (p: { first: number }) =>
    `is the same as option ${p.first}; learners could not tell them apart`,
  'import.problem.idTwice': (p: { id: string; place: string }) =>
    `the id “${p.id}” is also the id of the question at ${p.place}, which differs: the ids of one file's questions must differ`,
  // images
  'import.problem.imageAddressLong': (p: { max: number }) =>
    `an image address is at most ${p.max} characters`,
  'import.problem.imageTooLarge': (p: { name: string; megabytes: number }) =>
    `${p.name} is larger than ${p.megabytes} MB`,
  'import.problem.notAnImage': (p: { name: string }) => `${p.name} is not a jpeg, png or webp image`,
  'import.problem.imageSize': (p: { name: string; width: string; height: string }) =>
    `${editorMessages.imageDimension} ${p.name} is ${p.width}×${p.height}.`,
  'import.problem.imageNotCarried': (p: { ref: string }) =>
    `the file names an image it does not carry (${p.ref})`,
  'import.problem.imageNotChosen': (p: { name: string }) =>
    `${p.name} was not chosen: choose it with the question file`,
  'import.problem.imageNotInFile': (p: { image: string }) => `the image ${p.image} is not in the file`,
  // the answers
  'import.problem.giftNoOpen': () => 'a } without its {',
  'import.problem.giftNoClose': () => 'a { without its }',
  'import.problem.giftNotNumber': (p: { value: string }) =>
    `“${p.value}” is not a number (a numerical answer is 3.14, 3.14:0.01 or 1..5)`,
  'import.problem.numericalNoAnswer': () => 'a numerical question needs an answer',
  'import.problem.choiceTwoAnswers': () => 'a multiple-choice question needs at least two answers',
  'import.problem.shortNoAnswer': () => 'a short-answer question needs an answer',
  'import.problem.numericalNotNumber': () => 'a numerical answer is not a number',
  'import.problem.numericNotNumber': () => 'a numeric answer is not a number',
  'import.problem.aikenNoAnswers': () => 'no answers (each is “A. text” or “A) text”)',
  'import.problem.aikenNoAnswerLine': (p: { line: number }) =>
    `no “ANSWER: X” line after the answers (line ${p.line})`,
  'import.problem.aikenNotAnswer': (p: { answer: string; letters: string }) =>
    `${p.answer} is not one of the answers (${p.letters})`,
  // the subject and topic
  'import.problem.noSubjectGuess': (p: { name: string; guess: string }) =>
    `no subject "${p.name}" on the server: did you mean "${p.guess}"?`,
  'import.problem.noSubject': (p: { name: string; subjects: string }) =>
    `no subject "${p.name}" on the server (subjects: ${p.subjects})`,
  'import.problem.noSubjects': (p: { name: string }) =>
    `no subject "${p.name}" on the server (it has no subjects)`,
  'import.problem.notTopicGuess': (p: { name: string; subject: string; guess: string }) =>
    `"${p.name}" is not a topic of ${p.subject}: did you mean "${p.guess}"?`,
  'import.problem.notTopic': (p: { name: string; subject: string; topics: string }) =>
    `"${p.name}" is not a topic of ${p.subject} (topics: ${p.topics})`,
  'import.problem.notTopicElsewhere': (p: { name: string; subject: string; other: string; topics: string }) =>
    `"${p.name}" is not a topic of ${p.subject} (it is one of ${p.other}) (topics: ${p.topics})`,
  'import.problem.noTopicAnywhere': (p: { name: string }) =>
    `no subject of the server has a topic "${p.name}"`,
  'import.problem.topicOfSeveral': (p: { name: string; subjects: string }) =>
    `"${p.name}" is a topic of ${p.subjects}: choose the subject too`,
  // what Waymark cannot hold
  'import.problem.description': () => 'a description has no answer; Waymark holds questions only',
  'import.problem.essay': () => 'an essay is marked by a person; Waymark marks every answer itself',
  'import.problem.fileUpload': () => 'a file upload is marked by a person; Waymark marks every answer itself',
  'import.problem.matching': () => 'a matching question pairs items; Waymark has no such type',
  'import.problem.textOnly': () => 'a text-only item has no answer; Waymark holds questions only',
  'import.problem.blanks': () => 'several blanks in one question; a Waymark fill-in-blank question has one',
  'import.problem.dropdowns': () => 'several drop-downs in one question; Waymark asks one thing per question',
  'import.problem.calculated': () => 'a formula question draws numbers at random; Waymark has no such type',
  'import.problem.ordering': () => 'an ordering question; Waymark has no such type',
  'import.problem.categorization': () => 'a categorization question; Waymark has no such type',
  'import.problem.moodleType': (p: { type: string }) =>
    `Moodle's “${p.type}” question type has no Waymark equivalent`,
  'import.problem.canvasType': (p: { type: string }) =>
    `Canvas's “${p.type}” question type has no Waymark equivalent`,
  'import.problem.qtiInteraction': (p: { name: string }) =>
    `QTI's ${p.name} has no Waymark equivalent (Waymark reads choiceInteraction and textEntryInteraction)`,
  'import.problem.qtiInteractions': (p: { count: number }) =>
    `the item has ${p.count} interactions; a Waymark question asks one thing`,
  'import.problem.qtiNoInteraction': () => 'the item asks nothing (no interaction)',
  'import.problem.units': () => 'the answer takes a unit; Waymark compares plain numbers',
  'import.problem.severalImages': (p: { count: number }) =>
    `the question text has ${p.count} images; a Waymark question has one`,
  'import.problem.lostContent': (p: { what: string }) =>
    `the question text holds ${p.what}, which Waymark's plain-text questions cannot show`,
  'import.problem.mixedOptions': () =>
    'some answers are images and some are text; a Waymark question has one or the other',
  'import.problem.richAnswers': () => 'an answer holds an image or code beside its text',
  'import.problem.partialSingle': (p: { weights: string }) =>
    `answers worth part of the marks (${p.weights}); Waymark's single-answer questions are all or nothing`,
  'import.problem.severalRight': (p: { count: number }) =>
    `${p.count} answers are fully right; a Waymark single-answer question has exactly one`,
  'import.problem.noRight': () => 'no answer is right',
  'import.problem.partialMultiple': (p: { weights: string }) =>
    `the right answers are worth ${p.weights}; Waymark splits the marks equally across the right answers of a multiple-answer question`,
  'import.problem.partialBlank': (p: { weights: string }) =>
    `answers worth ${p.weights} of the marks; every accepted answer of a Waymark fill-in-blank question is fully right`,
  'import.problem.numbersAndWords': (p: { values: string }) =>
    `the accepted answers mix numbers and words (${p.values}); a Waymark fill-in-blank question compares numbers as numbers and words as words, so its answers are all one or the other`,
  'import.problem.numericalRange': (p: { from: number; to: number }) =>
    `any number from ${p.from} to ${p.to} is right; Waymark accepts exact numbers only`,
  'import.problem.numericalTolerance': (p: { value: number; tolerance: number }) =>
    `${p.value} ± ${p.tolerance} is right; Waymark accepts exact numbers only`,
  // notes
  'import.problem.feedbackLeftOut': () =>
    'the feedback of its answers was left out (Waymark has an explanation per question)',
  'import.problem.feedbackNote': (p: { count: number }) =>
    `${p.count} question${p.count === 1 ? ' has' : 's have'} feedback on single answers; Waymark keeps one explanation per question (the general feedback), so that feedback was left out.`,
  'import.problem.csvSeparator': (p: { separator: string }) =>
    `The CSV's fields are separated by ${p.separator}s.`,
  'import.problem.windows1252': () =>
    'The file is not UTF-8; it was read as Windows-1252 (Latin-1). If that looks wrong, save the file as UTF-8 and import it again.',
  'import.problem.windows1252Sample': (p: { sample: string }) =>
    `The file is not UTF-8; it was read as Windows-1252 (Latin-1), so it says “${p.sample}”. If that looks wrong, save the file as UTF-8 and import it again.`,
} satisfies Partial<Record<MessageKey, (p: never) => string>>;

export type ProblemCode = keyof typeof ENGLISH;
type ParamsOf<C extends ProblemCode> = Parameters<(typeof ENGLISH)[C]>;

/** A problem's words: its code, its values, and its English. */
export interface Said {
  code: ProblemCode;
  params?: MessageValues;
  message: string;
}

/** Says problem `code` with its values. */
export function said<C extends ProblemCode>(code: C, ...params: ParamsOf<C>): Said {
  const say = ENGLISH[code] as (p?: MessageValues) => string;
  const values = params[0] as MessageValues | undefined;
  return { code, ...(values ? { params: values } : {}), message: say(values) };
}

/** The kinds of question Waymark cannot hold that have a name in every language (others are the file's terms). */
const KINDS: Readonly<Record<string, MessageKey>> = {
  description: 'import.kind.description',
  essay: 'import.kind.essay',
  matching: 'import.kind.matching',
  'file upload': 'import.kind.fileUpload',
  'text only': 'import.kind.textOnly',
  'fill in multiple blanks': 'import.kind.blanks',
  'multiple dropdowns': 'import.kind.dropdowns',
  calculated: 'import.kind.calculated',
  ordering: 'import.kind.ordering',
  categorization: 'import.kind.categorization',
  'missing image': 'import.kind.missingImage',
  'numerical with units': 'import.kind.units',
  'several interactions': 'import.kind.severalInteractions',
  'no interaction': 'import.kind.noInteraction',
  'several images': 'import.kind.severalImages',
  'mixed options': 'import.kind.mixedOptions',
  'rich answers': 'import.kind.richAnswers',
  'partial credit': 'import.kind.partialCredit',
  'several right answers': 'import.kind.severalRight',
  'no right answer': 'import.kind.noRight',
  'numbers and words': 'import.kind.numbersAndWords',
  'numerical range': 'import.kind.numericalRange',
  'numerical tolerance': 'import.kind.numericalTolerance',
};

/** Something Waymark cannot hold: its kind in the file's terms (by its code when it has one), and why. */
export function refusal<C extends ProblemCode>(kind: string, code: C, ...params: ParamsOf<C>) {
  const { message, ...coded } = said(code, ...params);
  const kindCode = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined;
  return { kind, ...(kindCode ? { kindCode } : {}), reason: message, ...coded };
}

/** The codes of the problems that name no value, by their English: how a schema's message finds its code. */
const BY_TEXT = new Map<string, MessageKey>([
  ...(Object.keys(ENGLISH) as ProblemCode[])
    .filter((c) => ENGLISH[c].length === 0)
    .map((c) => [(ENGLISH[c] as () => string)(), c] as const),
  [editorMessages.required, 'editor.required'],
  [editorMessages.oneCorrect, 'editor.oneCorrect'],
  [editorMessages.onlyOneCorrect, 'editor.onlyOneCorrect'],
  [editorMessages.allImages, 'editor.allImages'],
  [editorMessages.answerEmpty, 'editor.answerEmpty'],
  [editorMessages.answerNumber, 'editor.answerNumber'],
  [editorMessages.answerKinds, 'editor.answerKinds'],
  [editorMessages.minOptions, 'editor.minOptions'],
]);

/** A schema's English message with its code when it is one of ours (a library's own words have none). */
export function saidText(message: string): { message: string; code?: MessageKey } {
  const code = BY_TEXT.get(message);
  return code ? { message, code } : { message };
}

/** Every code and its English (for the test that holds the catalogue equal). */
export const englishOf = (code: ProblemCode, params?: MessageValues) =>
  (ENGLISH[code] as (p?: MessageValues) => string)(params);
export const PROBLEM_CODES = Object.keys(ENGLISH) as ProblemCode[];
