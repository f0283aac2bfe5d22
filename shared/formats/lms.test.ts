/**
 * Question banks as Moodle and Canvas users bring them (issue 25): fixtures in fixtures/lms/ written from
 * Moodle's GIFT, Aiken and Moodle XML pages, and packages built here. Files with no Waymark subject, topic,
 * tags or explanation; two copies of one question; a construct Waymark cannot hold; Aiken as Moodle reads
 * it; counts that add up; XML that declares entities; zip packages that expand without bound.
 */
import { readFileSync } from 'node:fs';
import { createDeflateRaw } from 'node:zlib';
import fc from 'fast-check';
import { Zip, ZipDeflate, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Client } from '../client/client';
import { planImport } from '../client/question-import';
import type { Subject } from '../schemas/lists';
import { readAiken } from './aiken';
import { readQuestionBytes } from './detect';
import { readGift } from './gift';
import { markdownToParts } from './html';
import { readMoodleXml } from './moodle-xml';
import { checkChoice, describeUnplaced } from './placement';
import { checkFile, problemCount } from './prepare';
import { readQti } from './qti';
import { readZip } from './zip';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/lms/${name}`, import.meta.url));
const text = (name: string) => fixture(name).toString('utf8');

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const subjects: Subject[] = [
  {
    _id: id(1),
    name: 'Programming',
    topics: [
      { _id: id(11), name: 'JavaScript' },
      { _id: id(12), name: 'Git' },
      { _id: id(13), name: 'Basics' },
    ],
  },
  {
    _id: id(2),
    name: 'Mathematics',
    topics: [
      { _id: id(21), name: 'Algebra' },
      { _id: id(22), name: 'Basics' },
    ],
  },
];
const noImages = () => ({ error: 'no images here' });

function checked(name: string, options: Parameters<typeof checkFile>[2] = { images: noImages }) {
  const read = readQuestionBytes(name, fixture(name));
  return { read, ...checkFile(read.result, subjects, options) };
}

describe('a Moodle XML bank with no Waymark subject, topic, tags or explanation', () => {
  it('places each question by its category, and says once which it cannot place', () => {
    const { read, errors, questions, unplaced } = checked('categories.moodle.xml');
    // no "subject/topic/explanation/tags: Required" for every question
    expect(errors).toEqual([]);
    // $course$/top/Default for Version control/Git/Branching: Git is a topic of Programming only
    expect(questions.map((q) => [q.line, q.subjectName, q.topicName])).toEqual([
      [18, 'Programming', 'Git'],
      [50, 'Programming', 'Git'],
    ]);
    expect(questions.map((q) => [q.input.explanation, q.input.tags])).toEqual([
      [[], []],
      [[], []],
    ]);
    expect(unplaced).toEqual([{ line: 86, category: ['Iota'] }]);
    expect(describeUnplaced(unplaced, read.result.total)).toBe(
      '1 of 3 questions has no subject and topic on this server: their categories name none of its subjects and topics: “Iota” (1)',
    );
  });

  it('puts every question where the person says, over the categories of the file', () => {
    const { errors, questions, unplaced } = checked('categories.moodle.xml', {
      images: noImages,
      overrides: { subject: 'Mathematics', topic: 'Algebra' },
    });
    expect([errors, unplaced]).toEqual([[], []]);
    expect(questions.map((q) => `${q.subjectName} / ${q.topicName}`)).toEqual(
      Array(3).fill('Mathematics / Algebra'),
    );
    // a subject alone: the topic is the category's, where it is one of that subject's
    const subjectOnly = checked('categories.moodle.xml', {
      images: noImages,
      overrides: { subject: 'programming' },
    });
    expect(subjectOnly.questions.map((q) => q.topicName)).toEqual(['Git', 'Git']);
    expect(subjectOnly.unplaced.map((u) => u.category)).toEqual([['Iota']]);
  });

  it('checks the person’s choice once, with the names to choose from', () => {
    expect(checkChoice(subjects, { subject: 'Programing' })).toEqual({
      ok: false,
      field: 'subject',
      message: 'no subject "Programing" on the server: did you mean "Programming"?',
    });
    expect(checkChoice(subjects, { topic: 'Git' })).toEqual({ ok: true });
    expect(checkChoice(subjects, { topic: 'Basics' })).toMatchObject({
      ok: false,
      message: '"Basics" is a topic of Programming and Mathematics: choose the subject too',
    });
  });

  it('reads a category written as Moodle 1.9’s page shows it, without <text>', () => {
    const r = readMoodleXml(
      '<?xml version="1.0"?><quiz><question type="category"><category>$course$/Programming/JavaScript</category></question><question type="truefalse"><name><text>t</text></name><questiontext format="plain_text"><text>Yes?</text></questiontext><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question></quiz>',
    );
    expect(r.records[0]!.category).toEqual(['Programming', 'JavaScript']);
  });
});

describe('one GIFT file, read as Moodle reads it', () => {
  const read = readGift(text('duplicates.gift'));

  it('makes a construct Waymark cannot hold a question it cannot hold, not a problem of the file', () => {
    expect(read.errors).toEqual([]);
    expect(read.unsupported.map((u) => [u.line, u.kind])).toEqual([[11, 'numbers and words']]);
    expect(read.unsupported[0]!.reason).toContain('(“four”, “4”)');
    expect(read.total).toBe(4);
  });

  it('plans the second of two identical questions as a duplicate of the first, asking the server once', async () => {
    const { questions } = checkFile(read, subjects, { images: noImages });
    expect(questions).toHaveLength(3);
    const asked: string[][] = [];
    const client = {
      call: async (_def: unknown, args: { body: { items: { key: string }[] } }) => {
        asked.push(args.body.items.map((i) => i.key));
        return { data: args.body.items.map((i) => ({ key: i.key, status: 'new', questionId: null })) };
      },
    } as unknown as Client;
    const sha256 = async (s: Uint8Array | string) => {
      const { createHash } = await import('node:crypto');
      return createHash('sha256').update(s).digest('hex');
    };
    const plan = await planImport(client, questions, sha256);
    expect(plan.map((p) => [p.q.line, p.known])).toEqual([
      [7, 'new'],
      [9, 'duplicate'],
      [13, 'new'],
    ]);
    expect(plan[1]!.duplicateOf).toEqual({ line: 7 });
    expect(plan[1]!.key).toBe(plan[0]!.key);
    expect(asked).toEqual([[plan[0]!.key, plan[2]!.key]]);
    // across the windows of one file, too
    const seen = new Map();
    const first = await planImport(client, questions.slice(0, 1), sha256, undefined, seen);
    const second = await planImport(client, questions.slice(1), sha256, undefined, seen);
    expect([...first, ...second].map((p) => p.known)).toEqual(['new', 'duplicate', 'new']);
  });

  it('refuses two options alike in one question, naming both', () => {
    const { errors, questions } = checkFile(readGift(text('same-options.gift')), subjects, {
      images: noImages,
    });
    expect(errors).toEqual([
      {
        line: 6,
        field: 'options: option 2',
        message: 'is the same as option 1; learners could not tell them apart',
        code: 'import.problem.sameOption',
        params: { first: 1 },
        fieldCode: 'import.field.option',
        fieldParams: { n: 2 },
      },
    ]);
    expect(questions.map((q) => q.line)).toEqual([8]);
  });

  it('reads [markdown] text as the text it says, without its marks', () => {
    const [md] = readGift(text('markdown.gift')).records;
    expect(md!.value).toMatchObject({
      question: 'What does git rebase do to the commits it moves, and what does git_log show?',
      options: [
        { value: 'It rewrites them', correct: true },
        { value: 'It keeps them', correct: false },
      ],
    });
    expect(
      markdownToParts(
        '# Title\n\nA *b* and __c__ with snake_case_name and 2 * 3 * 4.\nSame paragraph, [a link](https://x.example) and \\*stars\\*.\n\n- one\n- **two**\n\n> quoted',
      ).text,
    ).toBe(
      'Title\n\nA b and c with snake_case_name and 2 * 3 * 4. Same paragraph, a link and *stars*.\n\n- one\n- two\n\nquoted',
    );
  });
});

describe('Aiken as Moodle reads it', () => {
  it('takes answers written without a space after the letter (A)text), as qformat_aiken does', () => {
    const r = readAiken(text('no-space.aiken.txt'));
    expect(r.errors).toEqual([]);
    expect(
      r.records.map((x) => (x.value as { options: { value: string; correct: boolean }[] }).options),
    ).toEqual([
      [
        { value: 'Incorrect: git status', correct: false },
        { value: 'git log', correct: true },
        { value: 'git stash', correct: false },
      ],
      [
        { value: '.gitignore', correct: true },
        { value: '.gitattributes', correct: false },
      ],
    ]);
  });
});

/** The file's problems as the CLI and the dialog say them. */
function said(name: string, bytes: Uint8Array | string) {
  const read = readQuestionBytes(name, typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes);
  const c = checkFile(read.result, subjects, { images: noImages });
  const problems = [...c.errors, ...c.unsupported.map((u) => ({ ...u, field: u.kind, message: u.reason }))];
  return problems.length ? problemCount(problems, read.result.total) : 'fine';
}

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0,
  1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
]);

describe('counts that add up', () => {
  it('says a file that cannot be read is not read, not a count of questions', () => {
    expect(said('bank.json', '[{"question": "a",')).toMatch(/^the file could not be read: line 1: JSON: /);
    expect(said('bank.csv', '')).toBe('the file has no questions');
    expect(said('bank.csv', 'question,options\n"never closed')).toBe(
      'the file could not be read: line 2: CSV: a quoted field is never closed (a " is missing)',
    );
    expect(said('bank.csv', PNG)).toBe(
      'the file could not be read: line 1: file: is a png image, not a question file',
    );
    expect(said('bank.csv', 'colour,shape\nred,square\n')).toBe(
      'the file could not be read: line 1: question: the header row has no question column (and 2 more problems)',
    );
  });

  it('counts each question once, lines that are not JSON among them', () => {
    const good = JSON.stringify({ question: 'Fine?', options: [{ value: 'y', correct: true }, 'n'] });
    const text = ['{"question": ', good.replace('"y"', '"n"'), '{oops', good].join('\n');
    // two lines unread, one question with two options alike, one without a subject and topic
    expect(said('bank.ndjson', text)).toBe('3 problems in 3 of 4 questions');
    expect(said('bank.csv', 'question,colour\nA?,red\n')).toBe(
      '1 problem with the file and 2 in 1 of 1 question',
    );
  });

  it('never counts more questions with problems than the file has, whatever the file', () => {
    const names = ['q.csv', 'q.json', 'q.ndjson', 'q.gift', 'q.txt', 'q.xml'];
    const pieces = fc.constantFrom(
      '\n',
      '\n\n',
      ',',
      ';',
      '"',
      '{',
      '}',
      '[',
      ']',
      '=a',
      '~b',
      '::n::',
      'question,options,subject',
      '{"question":"q"}',
      'ANSWER: A',
      'A. x',
      '<quiz>',
      '<question type="truefalse">',
      '</question>',
      '$CATEGORY: x/y',
      '#',
      'T',
      '%50%',
      'text',
    );
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.array(pieces, { maxLength: 40 }), (name, parts) => {
        const phrase = said(name, parts.join(''));
        const m = /(\d+) of (\d+) question/.exec(phrase);
        if (m) expect(Number(m[1])).toBeLessThanOrEqual(Number(m[2]));
        else
          expect(phrase).toMatch(
            /^(fine|the file could not be read: |the file has no questions|\d+ problems? with the file$)/,
          );
      }),
      { numRuns: 400 },
    );
  });
});

describe('XML that declares entities', () => {
  it('is a problem of the file, with its line, never read and never thrown', () => {
    const external = readMoodleXml(text('entity.moodle.xml'));
    expect(external.errors).toEqual([
      {
        line: 3,
        field: 'XML',
        scope: 'file',
        message:
          'declares an external entity (<!ENTITY … SYSTEM …>), which could read files of this computer; question files declare no entities',
        code: 'import.problem.entityExternal',
      },
    ]);
    expect(said('entity.moodle.xml', fixture('entity.moodle.xml'))).toBe(
      'the file could not be read: line 3: XML: declares an external entity (<!ENTITY … SYSTEM …>), which could read files of this computer; question files declare no entities',
    );
    const laughs = readMoodleXml(text('laughs.moodle.xml'));
    expect(laughs.errors).toMatchObject([{ line: 3, field: 'XML', scope: 'file' }]);
    expect(laughs.errors[0]!.message).toMatch(/^declares an entity/);
    // the same in a QTI item
    const qti = readQti(text('entity.moodle.xml').replace(/quiz/g, 'assessmentItem'));
    expect(qti.errors).toMatchObject([{ line: 3, field: 'XML', scope: 'file' }]);
  });

  it('is read when an entity is only named in a question about XML', () => {
    const r = readMoodleXml(
      '<?xml version="1.0"?>\n<quiz><question type="truefalse"><name><text>xml</text></name><questiontext format="plain_text"><text><![CDATA[Is <!ENTITY x "y"> a declaration?]]></text></questiontext><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question></quiz>',
    );
    expect(r.errors).toEqual([]);
    expect(r.records).toHaveLength(1);
  });
});

/**
 * A zip of one entry holding `megabytes` MB of zeros: its deflate stream from node's zlib (fed a megabyte
 * at a time, so the zeros are never held), in a container written by the APPNOTE (local header, central
 * directory, end record).
 */
async function zeros(megabytes: number, name = 'items/bomb.xml', declared = megabytes * 1024 * 1024) {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const mb = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++)
    if (!deflate.write(mb)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await done;
  const data = Buffer.concat(chunks);
  const file = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(file.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + file.length, 12);
  end.writeUInt32LE(30 + file.length + data.length, 16);
  return new Uint8Array(Buffer.concat([local, file, data, central, file, end]));
}

const used = () => process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;

describe('a zip package', () => {
  it('that expands without bound is refused while it is inflated, the memory never spent', async () => {
    const bomb = await zeros(300);
    expect(bomb.length).toBeLessThan(400_000);
    const before = used();
    const started = performance.now();
    const r = readQti(bomb);
    const took = performance.now() - started;
    const grew = used() - before;
    expect(r.errors).toEqual([
      {
        line: 1,
        field: 'zip',
        scope: 'file',
        message: expect.stringMatching(
          /^the package cannot be opened: it expands to more than [\d.]+ MB \(a package may expand to 100 times its own size, at most 256 MB\)$/,
        ),
        code: 'import.problem.packageUnopened',
        params: { reason: expect.stringMatching(/^it expands to more than/) },
      },
    ]);
    expect(took).toBeLessThan(2000);
    expect(grew).toBeLessThan(80 * 1024 * 1024);
  }, 30_000);

  it('that says it is smaller than it is is stopped when it passes what it said', async () => {
    const honest = await zeros(1, 'item.xml');
    expect(readZip(honest)).toMatchObject({ ok: true });
    // it says 100 bytes, and holds a megabyte (inflated at once, being small)
    const lying = await zeros(1, 'item.xml', 100);
    expect(readZip(lying)).toEqual({
      ok: false,
      message: 'the entry item.xml is larger than the package says',
    });
    // it says a megabyte, and holds 300 (inflated a step at a time, and stopped at the first)
    const large = await zeros(300, 'large.xml', 1024 * 1024);
    const before = used();
    expect(readZip(large)).toEqual({
      ok: false,
      message: 'the entry large.xml is larger than the package says',
    });
    expect(used() - before).toBeLessThan(40 * 1024 * 1024);
  });

  it('with more files than the limit is refused before any is inflated', () => {
    const files = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.xml`, new Uint8Array(1)]));
    expect(readZip(zipSync(files), { entries: 10, expanded: 1e9, ratio: 100 })).toEqual({
      ok: false,
      message: 'it holds 11 files; a package may hold at most 10',
    });
  });

  it('written with data descriptors (a streaming zip) is read like any other', () => {
    const item =
      '<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="i1" title="t"><responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>a</value></correctResponse></responseDeclaration><itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><prompt>Which?</prompt><simpleChoice identifier="a">A</simpleChoice><simpleChoice identifier="b">B</simpleChoice></choiceInteraction></itemBody></assessmentItem>';
    const out: Uint8Array[] = [];
    const zip = new Zip((err, chunk) => {
      if (err) throw err;
      out.push(chunk);
    });
    const file = new ZipDeflate('items/i1.xml');
    zip.add(file);
    file.push(new TextEncoder().encode(item), true);
    zip.end();
    const bytes = new Uint8Array(out.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of out) {
      bytes.set(c, at);
      at += c.length;
    }
    const r = readQti(bytes);
    expect(r.errors).toEqual([]);
    expect(r.records.map((x) => (x.value as { question: string }).question)).toEqual(['Which?']);
  });
});
