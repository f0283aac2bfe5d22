import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QuestionFileFormat } from '@shared/formats/detect';
import { describeRowError } from '@shared/formats/record';
import { toRecord, writeRecords } from '@shared/formats/waymark';
import { joinCell, splitCell } from '@shared/formats/waymark-csv';
import { arrayItemLines } from '@shared/formats/waymark-json';
import type { Question } from '@shared/schemas/assessment';
import type { Subject } from '@shared/schemas/lists';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../test/images';
import { bankQuestion } from '../../test/questions';
import { checkQuestionFile, readQuestionFile } from './question-file';

const subjects: Subject[] = [
  {
    _id: '11111111-1111-4111-8111-111111111111',
    name: 'Programming',
    topics: [
      { _id: '21111111-1111-4111-8111-111111111111', name: 'JavaScript' },
      { _id: '31111111-1111-4111-8111-111111111111', name: 'Git' },
    ],
  },
  {
    _id: '12222222-2222-4222-8222-222222222222',
    name: 'Mathematics',
    topics: [{ _id: '22222222-2222-4222-8222-222222222222', name: 'Algebra' }],
  },
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-qfile-'));
  writeFileSync(join(dir, 'banner.png'), png(1200, 400));
  writeFileSync(join(dir, 'small.png'), png(300, 200));
  writeFileSync(join(dir, 'notes.txt'), 'not an image');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Checks a file's text as if it were saved at dir/name. */
function check(name: string, text: string, format?: QuestionFileFormat) {
  const file = readQuestionFile(join(dir, name), Buffer.from(text), format);
  return { format: file.format, ...checkQuestionFile(file, subjects) };
}

const base = {
  subject: 'Programming',
  topic: 'JavaScript',
  explanation: 'Because.',
  tags: ['js'],
};

const everyType = [
  {
    question: 'Which keyword declares a constant?',
    type: 'MCQ',
    options: [{ value: 'const', correct: true }, 'let', 'var'],
    ...base,
  },
  {
    question: 'Which are primitive types?',
    type: 'MSQ',
    options: [{ value: 'string', correct: true }, { value: 'number', correct: true }, 'object'],
    ...base,
  },
  {
    question: 'What does this print?',
    type: 'CODE_MCQ',
    code: 'console.log(typeof null)',
    options: [{ value: 'object', correct: true }, 'null'],
    ...base,
  },
  {
    question: 'Which logo is JavaScript?',
    type: 'MCQ_IMAGE',
    options: [{ value: 'small.png', correct: true }, 'banner.png'],
    image: 'banner.png',
    ...base,
  },
  {
    question: 'Which are squares?',
    type: 'MSQ_IMAGE',
    options: [
      { value: 'small.png', correct: true },
      { value: 'https://cdn.example.com/b.png', correct: true },
    ],
    ...base,
  },
  {
    question: 'What is 2 ** 10?',
    type: 'FILL_IN_BLANK',
    options: ['1024'],
    points: 5,
    ...base,
  },
];

describe('a JSON file', () => {
  it('prepares every question type with the editor payload, subject and topic resolved by name', () => {
    const { format, questions, errors } = check('q.json', JSON.stringify(everyType, null, 2));
    expect(format).toBe('json');
    expect(errors).toEqual([]);
    expect(questions.map((q) => q.input.questionType)).toEqual([
      'MCQ',
      'MSQ',
      'CODE_MCQ',
      'MCQ_IMAGE',
      'MSQ_IMAGE',
      'FILL_IN_BLANK',
    ]);
    const [mcq, , code, image, msqImage, fib] = questions;
    expect(mcq!.input).toMatchObject({
      question: 'Which keyword declares a constant?',
      subject: subjects[0]!._id,
      topic: subjects[0]!.topics[0]!._id,
      options: [
        { value: 'const', isCorrect: true, points: 10 },
        { value: 'let', isCorrect: false, points: 0 },
        { value: 'var', isCorrect: false, points: 0 },
      ],
      explanation: [{ type: 'TEXT', value: 'Because.' }],
      tags: ['js'],
    });
    expect(mcq!.line).toBe(2);
    expect(mcq!.item).toBe(1);
    expect(code!.input.code).toBe('console.log(typeof null)');
    expect(image!.image).toMatchObject({ kind: 'bytes', ref: 'banner.png', fileType: 'png' });
    expect(image!.optionImages).toMatchObject([
      { kind: 'bytes', ref: 'small.png', fileType: 'png' },
      { kind: 'bytes', ref: 'banner.png', fileType: 'png' },
    ]);
    const banner = image!.image!;
    expect(banner.kind === 'bytes' && Buffer.from(banner.load()).equals(png(1200, 400))).toBe(true);
    expect(msqImage!.optionImages[1]).toEqual({ kind: 'url', url: 'https://cdn.example.com/b.png' });
    expect(fib!.input).toMatchObject({ points: 5, options: [{ value: '1024', isCorrect: true }] });
  });

  it('reports every bad question with its line, item and field, and prepares none of them', () => {
    const bad = [
      { question: '', options: ['a', { value: 'b', correct: true }], ...base },
      { question: 'No correct option', options: ['a', 'b'], ...base },
      {
        question: 'Two correct for a single answer',
        options: [
          { value: 'a', correct: true },
          { value: 'b', correct: true },
        ],
        ...base,
      },
      { question: 'Empty option', options: [{ value: 'a', correct: true }, ''], ...base },
      { question: 'Blank answer', type: 'FILL_IN_BLANK', options: [''], ...base },
      { question: 'Mixed answers', type: 'FILL_IN_BLANK', options: ['7', 'seven'], ...base },
      { question: 'Points on MCQ', points: 5, options: [{ value: 'a', correct: true }, 'b'], ...base },
      {
        question: 'Unknown subject',
        options: [{ value: 'a', correct: true }, 'b'],
        ...base,
        subject: 'Astrology',
      },
      {
        question: 'Topic elsewhere',
        options: [{ value: 'a', correct: true }, 'b'],
        ...base,
        topic: 'Algebra',
      },
      { question: 'Typos', options: [{ value: 'a', correct: true }, 'b'], ...base, subject: 'Programing' },
      { question: 'Topic typo', options: [{ value: 'a', correct: true }, 'b'], ...base, topic: 'Javascrpt' },
      { question: 'Nothing else', options: [{ value: 'a', correct: true }, 'b'] },
      { question: 'Typo', optoins: [], ...base },
      { question: 'Bad type', type: 'ESSAY', ...base },
      {
        question: 'Images',
        type: 'MCQ_IMAGE',
        options: [{ value: 'missing.png', correct: true }, 'notes.txt'],
        image: 'small.png',
        ...base,
      },
      { question: 'One option', options: [{ value: 'a', correct: true }], ...base },
    ];
    const { questions, errors, unplaced } = check('bad.json', JSON.stringify(bad, null, 2));
    expect(questions).toEqual([]);
    // no subject and topic is said once for the file, not per question; explanation and tags may be left
    // out of an imported question (decision 032)
    expect(unplaced.map((u) => u.item)).toEqual([12]);
    const lines = errors.map(describeRowError);
    const itemLines = arrayItemLines(JSON.stringify(bad, null, 2));
    const where = (item: number) => `line ${itemLines[item - 1]} (item ${item})`;
    expect(lines).toEqual([
      `${where(1)}: question: Required`,
      `${where(2)}: options: At least one answer should be correct`,
      `${where(3)}: options: Only one answer can be correct for this type of question`,
      `${where(4)}: options: option 2: Required`,
      `${where(5)}: options: Answer should not be empty`,
      `${where(6)}: options: Accepted answers must all be numbers or all be text`,
      `${where(7)}: points: only fill-in-blank questions have points (a correct option is worth 10)`,
      `${where(8)}: subject: no subject "Astrology" on the server (subjects: Programming, Mathematics)`,
      `${where(9)}: topic: "Algebra" is not a topic of Programming (it is one of Mathematics) (topics: JavaScript, Git)`,
      `${where(10)}: subject: no subject "Programing" on the server: did you mean "Programming"?`,
      `${where(11)}: topic: "Javascrpt" is not a topic of Programming: did you mean "JavaScript"?`,
      `${where(13)}: optoins: unknown field`,
      // the rest of the question is still checked
      `${where(13)}: options: A question needs at least two options`,
      `${where(13)}: options: At least one answer should be correct`,
      `${where(14)}: type: must be one of MCQ, MSQ, CODE_MCQ, MCQ_IMAGE, MSQ_IMAGE, FILL_IN_BLANK`,
      `${where(14)}: options: A question needs at least two options`,
      `${where(14)}: options: At least one answer should be correct`,
      `${where(15)}: image: Image dimension should be 1200*400 pixels. small.png is 300×200.`,
      `${where(15)}: options: option 1: no such file: missing.png`,
      `${where(15)}: options: option 2: notes.txt is not a jpeg, png or webp image`,
      `${where(16)}: options: A question needs at least two options`,
    ]);
  });

  it('names the line of a syntax error, and refuses a file that is not a list of questions', () => {
    const broken = check('q.json', '[\n  { "question": "a" },\n  { "question": "b", }\n]');
    expect(broken.errors.map(describeRowError)).toEqual([
      'line 3: JSON: Expected double-quoted property name',
    ]);
    expect(check('q.json', '{"question": 1}', 'json').errors.map(describeRowError)).toEqual([
      'line 1: JSON: must be an array of questions (or one question per line)',
    ]);
    expect(check('q.json', '[]').errors.map(describeRowError)).toEqual(['line 1: file: has no questions']);
  });

  it('finds the line of each item of an array, past strings with brackets and line breaks', () => {
    const text = '[\n{"a": "[x]",\n "b": {"c": [1,\n2]}},\n\n  "next", {"d": "\\"}"}\n]';
    expect(arrayItemLines(text)).toEqual([2, 6, 6]);
  });
});

describe('an NDJSON file', () => {
  it('reads one question per line and names the line of each problem', () => {
    const line = (q: object) => JSON.stringify(q);
    const text = [
      line(everyType[0]!),
      '',
      '{"question": "broken"',
      line({ ...everyType[0]!, question: ' ' }),
    ].join('\n');
    const { format, questions, errors } = check('q.ndjson', text);
    expect(format).toBe('ndjson');
    expect(questions).toHaveLength(1);
    expect(errors.map((e) => [e.line, e.item, e.field])).toEqual([
      [3, undefined, 'JSON'],
      [4, undefined, 'question'],
    ]);
  });

  it('is recognised in a .json file that does not start with [', () => {
    expect(check('q.json', `${JSON.stringify(everyType[5])}\n`).format).toBe('ndjson');
  });
});

describe('a CSV file', () => {
  const header = 'question,type,options,points,subject,topic,explanation,tags,code,image';

  it('reads the documented columns: starred correct options, lists split on |, code across lines', () => {
    const text = [
      header,
      'Which keyword declares a constant?,,*const | let | var,,Programming,JavaScript,Because.,"js, basics",,',
      '"What does this print?",code_mcq,"*object|null",,Programming,JavaScript,Because.,js,"const x = 1;',
      'console.log(typeof null)",',
      'What is 2 ** 10?,FILL_IN_BLANK,1024,5,Programming,JavaScript,Because.,js,,',
      'Pick the bar,MCQ,"*a \\| b|c\\\\d|\\*star",,Programming,JavaScript,Because.,js,,',
    ].join('\r\n');
    const { format, questions, errors } = check('q.csv', text);
    expect(format).toBe('csv');
    expect(errors).toEqual([]);
    expect(questions.map((q) => q.line)).toEqual([2, 3, 5, 6]);
    expect(questions[0]!.input).toMatchObject({
      questionType: 'MCQ',
      options: [
        { value: 'const', isCorrect: true },
        { value: 'let', isCorrect: false },
        { value: 'var', isCorrect: false },
      ],
      tags: ['js', 'basics'],
    });
    expect(questions[1]!.input).toMatchObject({
      questionType: 'CODE_MCQ',
      code: 'const x = 1;\nconsole.log(typeof null)',
    });
    expect(questions[2]!.input).toMatchObject({
      questionType: 'FILL_IN_BLANK',
      points: 5,
      options: [{ value: '1024', isCorrect: true }],
    });
    expect(questions[3]!.input.options.map((o) => [o.value, o.isCorrect])).toEqual([
      ['a | b', true],
      ['c\\d', false],
      ['*star', false],
    ]);
  });

  it('names the line and column of every problem, counting lines inside quoted cells', () => {
    const text = [
      `${header},colour`,
      '"A question',
      'on two lines",MCQ,a|b,,Programming,JavaScript,Because.,js,,,red',
      'Second,MCQ,*a|b,ten,Programming,JavaScript,,js,,,',
      'Third,MCQ,*a|b,,Programming,JavaScript,Because.,js,,,,surplus',
    ].join('\n');
    const { errors } = check('q.csv', text);
    expect(errors.map(describeRowError)).toEqual([
      'line 1: colour: unknown column (the columns are id, question, type, options, points, subject, topic, explanation, tags, code, image)',
      'line 2: options: At least one answer should be correct',
      'line 4: points: must be a whole number from 1 to 100',
      'line 5: CSV: more fields than the header has columns',
    ]);
  });

  it('names the line where a quote is left open', () => {
    const { errors } = check('q.csv', `${header}\nok,MCQ,*a|b\n"never closed,MCQ\n`);
    expect(errors.map(describeRowError)).toEqual([
      'line 3: CSV: a quoted field is never closed (a " is missing)',
    ]);
  });
});

describe('option cells', () => {
  it('split on bars, with stars for correct options and backslash escapes', () => {
    expect(splitCell(' *Paris | London|  Berlin ')).toEqual([
      { value: 'Paris', starred: true },
      { value: 'London', starred: false },
      { value: 'Berlin', starred: false },
    ]);
    expect(splitCell('')).toEqual([]);
  });

  it('join back into what they were split from', () => {
    const items = [
      { value: 'a | b', starred: true },
      { value: 'c\\d', starred: false },
      { value: '*star', starred: false },
      { value: 'ends with \\', starred: true },
      { value: 'regex \\| \\\\ \\*', starred: false },
    ];
    expect(splitCell(joinCell(items))).toEqual(items);
  });
});

describe('exported questions', () => {
  const question = (over: Partial<Question>): Question =>
    bankQuestion({
      subject: subjects[0]!._id,
      topic: subjects[0]!.topics[1]!._id,
      explanation: [{ type: 'TEXT', value: 'Why, "quoted"\nand | barred' }],
      tags: ['git', 'basics'],
      ...over,
    });
  const opt = (value: string, isCorrect: boolean, i: number) => ({
    _id: `5111111${i}-1111-4111-8111-111111111111`,
    value,
    isCorrect,
    points: isCorrect ? 10 : 0,
  });
  const exported = [
    question({
      options: [opt('*rebase | merge', true, 1), opt('c:\\path', false, 2)],
      code: 'git log\n--oneline',
    }),
    question({
      _id: '42222222-2222-4222-8222-222222222222',
      questionType: 'FILL_IN_BLANK',
      points: 7,
      options: [opt('1024', true, 1), opt('1024.0', true, 2)],
    }),
    question({
      _id: '43333333-3333-4333-8333-333333333333',
      questionType: 'MSQ_IMAGE',
      questionImagePath: '/files/questions/q.png',
      options: [opt('/files/questions/a.png', true, 1), opt('https://cdn.example.com/b.png', true, 2)],
    }),
  ];

  it.each(['json', 'ndjson', 'csv'] as const)('read back as the same questions (%s)', (format) => {
    const records = exported.map((q) => toRecord(q, subjects, 'http://127.0.0.1:8080'));
    expect(records[2]).toMatchObject({
      image: 'http://127.0.0.1:8080/files/questions/q.png',
      options: [
        { value: 'http://127.0.0.1:8080/files/questions/a.png' },
        { value: 'https://cdn.example.com/b.png' },
      ],
    });
    const text = writeRecords(records, format);
    const { questions, errors } = check(`export.${format}`, text);
    expect(errors).toEqual([]);
    expect(questions.map((q) => q.input)).toEqual(
      exported.map((q) => ({
        question: q.question,
        questionType: q.questionType,
        code: q.code,
        questionImagePath: null,
        ...(q.questionType === 'FILL_IN_BLANK' ? { points: q.points } : {}),
        subject: q.subject,
        topic: q.topic,
        options: q.options.map((o) => ({
          value: o.value.startsWith('/') ? `http://127.0.0.1:8080${o.value}` : o.value,
          isCorrect: o.isCorrect,
          points: o.isCorrect ? 10 : 0,
        })),
        explanation: q.explanation,
        tags: q.tags,
      })),
    );
    expect(questions[2]!.image).toEqual({ kind: 'url', url: 'http://127.0.0.1:8080/files/questions/q.png' });
  });
});
