/**
 * The question formats against their own documentation and independent parsers: fixtures we wrote from
 * Moodle's GIFT, Aiken and Moodle XML pages and the IMS QTI 2.1 guide and Canvas's QTI 1.2 export cover
 * every construct of docs/question-formats.md; property tests (fast-check) write questions of every type and
 * read them back the same; what our GIFT writer writes is parsed by gift-pegjs, and what our XML writers
 * write by libxml2 (xmllint-wasm); the file's encoding and a CSV's separator are detected.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { unzipSync, zipSync } from 'fflate';
import { parse as parseGift } from 'gift-pegjs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { QUESTION_TYPES, type QuestionType } from '../rules/question-types';
import { readAiken, writeAiken } from './aiken';
import { detectDelimiter } from './csv';
import { detectFormat, readQuestionBytes, UNKNOWN_FORMAT } from './detect';
import { readGift } from './gift';
import { writeGift } from './gift-write';
import { htmlToParts, textToHtml } from './html';
import { readMoodleXml, writeMoodleXml } from './moodle-xml';
import { readQti } from './qti';
import { qtiItem, writeQtiPackage } from './qti-write';
import type { BankQuestion, ReadResult } from './record';
import { decodeText } from './text';
import { readRecords, writeRecords } from './waymark';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const kinds = (r: ReadResult) => r.unsupported.map((u) => [u.line, u.kind]);
const values = (r: ReadResult) =>
  r.records.map((x) => {
    const v = x.value as Record<string, unknown> & { options: { value: string; correct: boolean }[] };
    return [x.line, v.type, v.question, v.options.map((o) => `${o.correct ? '*' : ''}${o.value}`)];
  });

describe('Moodle GIFT (fixtures/moodle.gift)', () => {
  const r = readGift(fixture('moodle.gift').toString('utf8'));

  it('reads every kind of question the documentation shows, each with its line', () => {
    expect(values(r)).toEqual([
      [7, 'MCQ', 'Which keyword declares a constant?', ['*const', 'let', 'var']],
      [15, 'MSQ', 'Which are primitive types?', ['*string', '*number', 'object']],
      [23, 'MCQ', 'typeof null is "object".', ['*True', 'False']],
      [26, 'FILL_IN_BLANK', 'Which keyword starts a function declaration?', ['*function', '*FUNCTION']],
      [29, 'FILL_IN_BLANK', 'How many bits are in a byte?', ['*8']],
      [47, 'MCQ', 'The operator == compares _____ { a: b } # ~ \\ done.', ['*loosely', 'strictly', 'never']],
      [50, 'CODE_MCQ', 'What does this print?', ['*object', 'null', 'undefined']],
      [57, 'CODE_MCQ', 'What does this print?', ['*[2, 4]', '[1, 2]']],
      [68, 'FILL_IN_BLANK', 'What is the square root of 16?', ['*4', '*-4']],
    ]);
    expect(r.total).toBe(15);
    expect(r.errors).toEqual([]);
  });

  it('takes the category, general feedback, id, tags and code of each question', () => {
    expect(r.records[0]).toMatchObject({
      sourceId: 'idnumber:js-const',
      category: ['Programming', 'JavaScript'],
      value: {
        explanation: 'const binds a name once; the value itself may still change.',
        tags: ['javascript', 'variables'],
      },
    });
    expect(r.records[6]!.value).toMatchObject({ code: 'console.log(typeof null)' });
    expect(r.records[7]!.value).toMatchObject({ code: '[1, 2].map(n => n * 2)' });
    expect(r.records[8]!.category).toEqual(['Mathematics', 'Algebra']);
  });

  it('reports what Waymark cannot hold with its line and reason, and notes the feedback left out', () => {
    expect(kinds(r)).toEqual([
      [32, 'numerical tolerance'],
      [35, 'numerical range'],
      [38, 'matching'],
      [41, 'essay'],
      [44, 'description'],
      [64, 'partial credit'],
    ]);
    expect(r.unsupported[0]!.reason).toBe('3.14 ± 0.005 is right; Waymark accepts exact numbers only');
    expect(r.notes[0]!.message).toMatch(/^2 questions have feedback on single answers/);
    expect(r.notes[0]).toMatchObject({ code: 'import.problem.feedbackNote', params: { count: 2 } });
  });

  it('names the line of a question whose braces do not close', () => {
    const bad = readGift('::a::Fine {=yes ~no}\n\n::b::Broken {=yes ~no\n');
    expect(bad.errors).toEqual([
      { line: 3, field: 'question', message: 'a { without its }', code: 'import.problem.giftNoClose' },
    ]);
    expect(bad.total).toBe(2);
  });
});

describe('Aiken (fixtures/moodle.aiken.txt)', () => {
  const r = readAiken(fixture('moodle.aiken.txt').toString('utf8'));
  it('reads the documentation’s two questions and names the problems of the others', () => {
    expect(values(r)).toEqual([
      [
        1,
        'MCQ',
        'What is the correct answer to this question?',
        ['Is it this one?', 'Maybe this answer?', 'Possibly this one?', '*Must be this one!'],
      ],
      [8, 'MCQ', 'Which LMS has the most quiz import formats?', ['*Moodle', 'ATutor', 'Claroline']],
    ]);
    expect(r.errors).toEqual([
      {
        line: 14,
        field: 'ANSWER',
        message: 'E is not one of the answers (A, B)',
        code: 'import.problem.aikenNotAnswer',
        params: { answer: 'E', letters: 'A, B' },
      },
      {
        line: 19,
        field: 'ANSWER',
        message: 'no “ANSWER: X” line after the answers (line 22)',
        code: 'import.problem.aikenNoAnswerLine',
        params: { line: 22 },
      },
    ]);
    expect(r.total).toBe(4);
  });
});

describe('Moodle XML (fixtures/moodle.xml)', () => {
  const r = readMoodleXml(fixture('moodle.xml').toString('utf8'));
  it('reads every question type, with category, feedback, id number, tags, code and base64 images', () => {
    expect(values(r)).toEqual([
      [11, 'MCQ', 'Which keyword declares a constant?', ['*const', 'let', 'var']],
      [32, 'MSQ', 'Which are primitive types?', ['*string', '*number', 'object']],
      [
        43,
        'MCQ_IMAGE',
        'Which shape has three sides?',
        ['*embedded:q4/triangle.png', 'embedded:q4/square.png'],
      ],
      [53, 'MCQ', 'typeof null is "object".', ['*True', 'False']],
      [62, 'FILL_IN_BLANK', 'Which keyword starts a function declaration?', ['*function']],
      [71, 'FILL_IN_BLANK', 'How many bits are in a byte?', ['*8']],
      [131, 'MCQ', '3 is a prime number.', ['*True', 'False']],
    ]);
    expect(r.records[0]).toMatchObject({
      sourceId: 'idnumber:js-const',
      category: ['Programming', 'JavaScript'],
      value: {
        image: 'embedded:q2/banner.png',
        explanation: 'const binds a name once.',
        tags: ['javascript', 'variables'],
      },
    });
    expect(r.records[1]!.sourceId).toBe('moodle-question:202');
    expect(r.records[4]!.value).toMatchObject({ code: '___ add(a, b) { return a + b; }' });
    expect(r.records[6]!.category).toEqual(['Mathematics', 'Algebra']);
    const banner = r.files.get('q2/banner.png')!;
    expect([...banner.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
  });
  it('reports matching, essay, description, tolerance and unequal weights', () => {
    expect(kinds(r)).toEqual([
      [80, 'numerical tolerance'],
      [87, 'matching'],
      [95, 'essay'],
      [101, 'description'],
      [107, 'partial credit'],
      // 9 and nine: a test compares numbers as numbers and words as words, so Waymark holds one or the other
      [122, 'numbers and words'],
    ]);
    expect(r.total).toBe(13);
  });
  it('names the line of an XML syntax error', () => {
    const bad = readMoodleXml('<?xml version="1.0"?>\n<quiz>\n<question type="essay">\n</quiz>\n');
    expect(bad.errors[0]).toMatchObject({ line: 4, field: 'XML' });
  });
});

describe('IMS QTI', () => {
  it('reads 2.1 choice, multiple-response and text-entry items, and reports the others', () => {
    const read = (name: string) => readQti(fixture(name));
    expect(values(read('qti21-choice.xml'))).toEqual([
      [
        3,
        'MCQ',
        'Look at the text on the sign at the airport.\n\nWhat does it say?',
        [
          '*You must stay with your luggage at all times.',
          'Do not let someone else look after your luggage.',
          'Remember your luggage when you leave.',
        ],
      ],
    ]);
    expect(read('qti21-choice.xml').records[0]!.sourceId).toBe('qti:luggage');
    const multiple = read('qti21-multiple.xml');
    expect(values(multiple)[0]![3]).toEqual(['*Hydrogen', 'Helium', '*Oxygen', 'Chlorine']);
    expect(multiple.records[0]!.value).toMatchObject({ type: 'MSQ', explanation: 'Water is H2O.' });
    expect(values(read('qti21-text-entry.xml'))[0]).toEqual([
      3,
      'FILL_IN_BLANK',
      "Identify the missing word in this famous quote from Shakespeare's Richard III.\n\nNow is the winter of our discontent\nMade glorious summer by this sun of _____;",
      ['*York', '*york'],
    ]);
    expect(kinds(read('qti21-partial-text.xml'))).toEqual([[3, 'partial credit']]);
    expect(kinds(read('qti21-order.xml'))).toEqual([[3, 'orderInteraction']]);
  });

  it('reads the item body as the parser finds it, whatever comments and feedback say around it', () => {
    // a comment that names <itemBody>, and feedback before the body: the body is the element, not the text
    const item = `<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="sky" title="Sky" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>B</value></correctResponse>
  </responseDeclaration>
  <!-- the <itemBody> below asks one question -->
  <itemBody>
    <p>What colour is a clear sky?</p>
    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">
      <simpleChoice identifier="A">Green</simpleChoice>
      <simpleChoice identifier="B">Blue</simpleChoice>
    </choiceInteraction>
  </itemBody>
  <modalFeedback outcomeIdentifier="FEEDBACK" identifier="B" showHide="show"><p>Rayleigh scattering.</p></modalFeedback>
</assessmentItem>`;
    const read = readQti(item);
    expect(read.errors).toEqual([]);
    expect(values(read)).toEqual([[2, 'MCQ', 'What colour is a clear sky?', ['Green', '*Blue']]]);
    expect(read.records[0]!.value).toMatchObject({ explanation: 'Rayleigh scattering.' });
  });

  it('reads QTI 1.2 as Canvas exports it, alone or in its zip package', () => {
    const xml = fixture('canvas-qti12.xml');
    const expected = [
      [9, 'MCQ', 'What is the capital of France?', ['*Paris', 'Lyon', 'Marseille']],
      [40, 'MCQ', 'The Seine flows through Paris.', ['*True', 'False']],
      [59, 'MSQ', 'Which rivers flow through France?', ['*Loire', '*Rhône', 'Danube']],
      [88, 'FILL_IN_BLANK', 'Name the longest river in France.', ['*Loire', '*La Loire']],
      [104, 'FILL_IN_BLANK', 'How many regions has metropolitan France?', ['*13']],
    ];
    const alone = readQti(xml);
    expect(values(alone)).toEqual(expected);
    expect(alone.records[0]!.value).toMatchObject({ explanation: 'Paris has been the capital since 987.' });
    expect(kinds(alone)).toEqual([
      [120, 'numerical range'],
      [136, 'essay'],
      [145, 'matching'],
    ]);
    const manifest = `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1" identifier="m"><resources>
<resource identifier="g1a2b3c4" type="imsqti_xmlv1p2"><file href="g1a2b3c4/g1a2b3c4.xml"/></resource>
<resource identifier="meta" type="associatedcontent/imscc_xmlv1p1/learning-application-resource" href="g1a2b3c4/assessment_meta.xml"><file href="g1a2b3c4/assessment_meta.xml"/><file href="non_cc_assessments/g1a2b3c4.xml.qti"/></resource>
</resources></manifest>`;
    const zip = zipSync({
      'imsmanifest.xml': new TextEncoder().encode(manifest),
      'g1a2b3c4/g1a2b3c4.xml': xml,
      'g1a2b3c4/assessment_meta.xml': new TextEncoder().encode('<quiz/>'),
      'non_cc_assessments/g1a2b3c4.xml.qti': xml,
    });
    const packaged = readQti(zip);
    expect(values(packaged)).toEqual(expected);
    expect(packaged.records[0]).toMatchObject({ part: 'g1a2b3c4/g1a2b3c4.xml', item: 1 });
  });
});

describe('knowing the file', () => {
  it('tells the format from the content, whatever the name says', () => {
    expect(detectFormat('bank.csv', fixture('moodle.gift').toString())).toBe('gift');
    expect(detectFormat('bank.txt', fixture('moodle.aiken.txt').toString())).toBe('aiken');
    expect(detectFormat('export.xml', fixture('moodle.xml').toString())).toBe('moodle-xml');
    expect(detectFormat('x', fixture('canvas-qti12.xml').toString())).toBe('qti');
    expect(detectFormat('x.txt', '[{"question": "a"}]')).toBe('json');
    expect(detectFormat('x.txt', '{"question": "a"}\n{"question": "b"}')).toBe('ndjson');
    expect(detectFormat('x.txt', 'question;type;options\nA;MCQ;*a | b\n')).toBe('csv');
    expect(detectFormat('notes.txt', 'Just some notes\nwith no questions\n')).toBeNull();
    expect(readQuestionBytes('notes.txt', new TextEncoder().encode('hello\n')).format).toBeNull();
    expect(UNKNOWN_FORMAT).toContain('Moodle GIFT, Aiken, Moodle XML, or IMS QTI');
  });

  it('decodes UTF-8 with and without BOM, UTF-16 both ways, and Windows-1252 with a note', () => {
    const text = 'Zürich – “quoted” €5';
    expect(decodeText(Buffer.from(text))).toMatchObject({ text, encoding: 'utf-8', bom: false });
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toMatchObject({
      text,
      bom: true,
    });
    for (const enc of ['utf-16le', 'utf-16be'] as const) {
      const bytes = iconv.encode(text, enc, { addBOM: true });
      expect(decodeText(bytes)).toMatchObject({ text, encoding: enc, bom: true });
      const bare = iconv.encode(`question,type\n${text},MCQ\n`, enc);
      expect(decodeText(bare)).toMatchObject({ text: `question,type\n${text},MCQ\n`, encoding: enc });
    }
    const cp1252 = decodeText(iconv.encode(text, 'win1252'));
    expect(cp1252).toMatchObject({ text, encoding: 'windows-1252' });
    expect(cp1252.note?.message).toContain('read as Windows-1252 (Latin-1), so it says “Zürich”');
    expect(decodeText(iconv.encode('Café', 'latin1')).text).toBe('Café');
  });

  it("finds a CSV's separator outside quotes, and reads a Windows-1252 ; CSV as Excel writes it", () => {
    expect(detectDelimiter('a,b,c\n')).toBe(',');
    expect(detectDelimiter('"a;b",c,d\n')).toBe(',');
    expect(detectDelimiter('question;type;options\n')).toBe(';');
    expect(detectDelimiter('question\ttype\n')).toBe('\t');
    const csv = iconv.encode(
      'question;type;options;subject;topic;explanation;tags\r\n"Où est Zürich?";MCQ;*Suisse | France;Geography;Europe;"Zürich; en Suisse";géo\r\n',
      'win1252',
    );
    const read = readQuestionBytes('bank.csv', csv);
    expect(read.format).toBe('csv');
    expect(read.result.notes.map((n) => n.message)).toEqual([
      expect.stringContaining('read as Windows-1252'),
      "The CSV's fields are separated by semicolons.",
    ]);
    expect(read.result.records[0]!.value).toMatchObject({
      question: 'Où est Zürich?',
      options: [
        { value: 'Suisse', correct: true },
        { value: 'France', correct: false },
      ],
      explanation: 'Zürich; en Suisse',
      tags: 'géo',
    });
  });
});

describe('HTML', () => {
  it('reads what textToHtml writes as the same text, spaces, tabs and line breaks included', () => {
    fc.assert(
      fc.property(text({ lines: true }), (t) => {
        expect(htmlToParts(textToHtml(t)).text).toBe(t);
      }),
    );
  });
});

// ---- property tests: write → read returns the same questions, for every type

const CHARS = [...'abcxyz ABZ019', ...'{}=~#:\\[]%<>&"\'/->*|;,.!?', 'é', 'ü', '€', '—', '“', '中'];
/** Text as an author types it: no leading or trailing spaces, no blank lines in a row. */
function text(opts: { lines?: boolean; min?: number } = {}) {
  const line = fc
    .array(fc.constantFrom(...CHARS), { minLength: opts.min ?? 1, maxLength: 24 })
    .map((cs) => cs.join('').trim())
    .filter((s) => s.length > 0 && !/^ANSWER:/.test(s) && !/^(T|TRUE|F|FALSE)$/.test(s));
  if (!opts.lines) return line;
  return fc
    .array(fc.tuple(line, fc.constantFrom('\n', '\n\n')), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.map(([l, sep], i) => (i ? sep : '') + l).join(''));
}
const name = fc
  .array(fc.constantFrom(...'abcdefgh XYZ-é'), { minLength: 1, maxLength: 12 })
  .map((cs) => cs.join('').trim())
  .filter((s) => s.length > 0 && s.toLowerCase() !== 'top');
const tag = fc
  .array(fc.constantFrom(...'abcdefgh-_ é1'), { minLength: 1, maxLength: 10 })
  .map((cs) => cs.join('').trim())
  .filter((s) => s.length > 0);
const url = fc
  .integer({ min: 1, max: 999 })
  .map((n) => `https://cdn.example.com/questions/q${n}/img-${n}.png`);
const number = fc.oneof(
  fc.integer({ min: -999, max: 9999 }).map(String),
  fc.integer({ min: 0, max: 9999 }).map((n) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`),
);

function question(type: QuestionType): fc.Arbitrary<BankQuestion> {
  const base = fc.record({
    id: fc.uuid({ version: 4 }),
    question: text({ lines: true }),
    subject: name,
    topic: name,
    explanation: text({ lines: true }).map((e) => [e]),
    tags: fc.uniqueArray(tag, { minLength: 1, maxLength: 3 }),
  });
  const choices = (value: fc.Arbitrary<string>, multiple: boolean) =>
    fc
      .uniqueArray(value, { minLength: 2, maxLength: 6 })
      .chain((vs) =>
        (multiple
          ? fc.uniqueArray(fc.integer({ min: 0, max: vs.length - 1 }), { minLength: 1, maxLength: vs.length })
          : fc.integer({ min: 0, max: vs.length - 1 }).map((i) => [i])
        ).map((right) => vs.map((v, i) => ({ value: v, correct: right.includes(i) }))),
      );
  const extra: Record<QuestionType, fc.Arbitrary<Partial<BankQuestion>>> = {
    MCQ: fc.record({ options: choices(text(), false) }),
    MSQ: fc.record({
      options: choices(text(), true),
      code: fc.option(text({ lines: true }), { nil: undefined }),
    }),
    CODE_MCQ: fc.record({ options: choices(text(), false), code: text({ lines: true }) }),
    MCQ_IMAGE: fc.record({ options: choices(url, false), image: fc.option(url, { nil: undefined }) }),
    MSQ_IMAGE: fc.record({ options: choices(url, true) }),
    FILL_IN_BLANK: fc.record({
      options: fc
        .oneof(
          fc.uniqueArray(number, { minLength: 1, maxLength: 3 }),
          // all numbers or all words (QuestionInput's answerKinds rule)
          fc.uniqueArray(
            text().filter((t) => !Number.isFinite(Number(t))),
            { minLength: 1, maxLength: 3 },
          ),
        )
        .map((vs) => vs.map((value) => ({ value, correct: true }))),
      points: fc.integer({ min: 1, max: 100 }),
    }),
  };
  return fc.tuple(base, extra[type]).map(([b, e]) => ({ ...b, type, ...e }) as BankQuestion);
}
const anyQuestion = fc.constantFrom(...QUESTION_TYPES).chain(question);
const bank = fc.array(anyQuestion, { minLength: 1, maxLength: 6 });

/** A read record in the writers' terms, to compare with what was written. */
function asBank(r: ReadResult): Omit<BankQuestion, 'id'>[] {
  return r.records.map((x) => {
    const v = x.value as Record<string, unknown> & { options: { value: string; correct?: boolean }[] };
    return {
      question: v.question as string,
      type: v.type as QuestionType,
      options: v.options.map((o) => ({ value: o.value, correct: o.correct ?? false })),
      ...(v.type === 'FILL_IN_BLANK' ? { points: (v.points as number | undefined) ?? 10 } : {}),
      // the writers put the subject and topic in the category: the last two names of its path
      subject: x.category?.at(-2) as string,
      topic: x.category?.at(-1) as string,
      explanation: [v.explanation as string],
      tags: v.tags as string[],
      code: (v.code as string | undefined) ?? null,
      image: (v.image as string | undefined) ?? null,
    };
  });
}
const written = (qs: BankQuestion[]) =>
  qs.map(({ id: _, ...q }) => ({
    ...q,
    ...(q.type === 'FILL_IN_BLANK' ? { points: q.points ?? 10 } : {}),
    code: q.code ?? null,
    image: q.image ?? null,
  }));

describe('write → read returns the same questions, for every type', () => {
  it('GIFT, and gift-pegjs (an independent parser) reads what we write', () => {
    fc.assert(
      fc.property(bank, (qs) => {
        const gift = writeGift(qs, { header: 'A test bank' });
        const back = readGift(gift);
        expect(back.errors).toEqual([]);
        expect(back.unsupported).toEqual([]);
        expect(asBank(back)).toEqual(written(qs));
        expect(back.records.map((r) => r.sourceId)).toEqual(qs.map((q) => `waymark:${q.id}`));
        const theirs = parseGift(gift).filter((q) => q.type !== 'Category');
        expect(theirs.map((q) => q.type)).toEqual(
          qs.map((q) =>
            q.type === 'FILL_IN_BLANK'
              ? q.options.every((o) => Number.isFinite(Number(o.value)))
                ? 'Numerical'
                : 'Short'
              : q.type === 'MCQ' && q.options.map((o) => o.value).join('|') === 'True|False'
                ? 'TF'
                : 'MC',
          ),
        );
        theirs.forEach((t, i) => {
          expect((t as { id: string | null }).id).toBe(`waymark:${qs[i]!.id}`);
          expect((t as { tags: string[] | null }).tags).toEqual(qs[i]!.tags);
          if (t.type === 'MC')
            expect(t.choices.map((c) => c.isCorrect || (c.weight ?? 0) > 0)).toEqual(
              qs[i]!.options.map((o) => o.correct),
            );
        });
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('Moodle XML, well formed for libxml2', async () => {
    const samples: string[] = [];
    fc.assert(
      fc.property(bank, (qs) => {
        const xml = writeMoodleXml(qs);
        samples.push(xml);
        const back = readMoodleXml(xml);
        expect(back.errors).toEqual([]);
        expect(back.unsupported).toEqual([]);
        expect(asBank(back)).toEqual(written(qs));
        expect(back.records.map((r) => r.sourceId)).toEqual(qs.map((q) => `waymark:${q.id}`));
      }),
      { numRuns: 150 },
    );
    const lint = await validateXML({
      xml: samples.slice(0, 20).map((contents, i) => ({ fileName: `q${i}.xml`, contents })),
      normalization: 'format',
    });
    expect(lint.errors).toEqual([]);
    // the checker itself sees a broken document
    const broken = await validateXML({
      xml: { fileName: 'b.xml', contents: '<quiz><question></quiz>' },
      normalization: 'format',
    });
    expect(broken.valid).toBe(false);
  }, 60_000);

  it('QTI 2.1 packages, each item well formed for libxml2', async () => {
    const items: string[] = [];
    fc.assert(
      fc.property(bank, (qs) => {
        const zip = writeQtiPackage(qs);
        const back = readQti(zip);
        expect(back.errors).toEqual([]);
        expect(back.unsupported).toEqual([]);
        expect(asBank(back)).toEqual(written(qs));
        expect(back.records.map((r) => r.sourceId)).toEqual(qs.map((q) => `waymark:${q.id}`));
        items.push(qtiItem(qs[0]!));
        expect(Object.keys(unzipSync(zip))).toContain('imsmanifest.xml');
      }),
      { numRuns: 100 },
    );
    const lint = await validateXML({
      xml: items.slice(0, 20).map((contents, i) => ({ fileName: `i${i}.xml`, contents })),
      normalization: 'format',
    });
    expect(lint.errors).toEqual([]);
  }, 60_000);

  it('Aiken, for the single-answer questions it holds', () => {
    fc.assert(
      fc.property(fc.array(question('MCQ'), { minLength: 1, maxLength: 5 }), (qs) => {
        const single = qs.map((q) => ({ ...q, question: q.question.replace(/\n+/g, ' ') }));
        const back = readAiken(writeAiken(single));
        expect(back.errors).toEqual([]);
        expect(back.records.map((r) => r.value)).toEqual(
          single.map((q) => ({ type: 'MCQ', question: q.question, options: q.options })),
        );
      }),
    );
  });

  it("Waymark's own JSON, NDJSON and CSV", () => {
    fc.assert(
      fc.property(bank, (qs) => {
        for (const format of ['json', 'ndjson', 'csv'] as const) {
          const records = qs.map((q) => ({
            id: q.id,
            question: q.question,
            type: q.type,
            options: q.options,
            ...(q.type === 'FILL_IN_BLANK' ? { points: q.points } : {}),
            subject: q.subject,
            topic: q.topic,
            explanation: q.explanation[0]!,
            tags: q.tags,
            ...(q.code ? { code: q.code } : {}),
            ...(q.image ? { image: q.image } : {}),
          }));
          const back = readRecords(writeRecords(records, format), format);
          expect(back.errors).toEqual([]);
          expect(back.records.map((r) => r.sourceId)).toEqual(qs.map((q) => `waymark:${q.id}`));
        }
      }),
      { numRuns: 50 },
    );
  });
});
