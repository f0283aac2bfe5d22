/**
 * The question readers' problems carry a stable code (their message key) and the values they name beside
 * their English (issue 31): the English the CLI prints is the English catalogue's text with those values,
 * and the portal says the same code in Spanish or Arabic.
 */
import { english, loaders } from 'virtual:wm-messages';
import { describe, expect, it } from 'vitest';
import source from '../i18n/messages/en.json';
import { createTranslator } from '../i18n/translator';
import { checkRecord } from './check';
import { readGift } from './gift';
import { readMoodleXml } from './moodle-xml';
import { UNKNOWN_FORMAT } from './names';
import { englishOf, PROBLEM_CODES } from './problems';

const en = createTranslator('en', english);
const subjects = [{ _id: 's1', name: 'Programming', topics: [{ _id: 't1', name: 'JavaScript' }] }];
const noImages = () => ({ error: 'no images here' });

/** A value for each argument an English message names: numbers for counts and the like, else text. */
const NUMERIC = new Set(['count', 'first', 'line', 'max', 'megabytes', 'from', 'to', 'tolerance', 'more']);
/** Problems whose count is never one (several images, several interactions, several right answers). */
const SEVERAL = new Set([
  'import.problem.severalImages',
  'import.problem.qtiInteractions',
  'import.problem.severalRight',
]);

function samples(code: string): Record<string, string | number>[] {
  const text = (source as Record<string, string>)[code]!;
  const names = [...new Set([...text.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]!))];
  return (SEVERAL.has(code) ? [2, 7] : [1, 7]).map((n) =>
    Object.fromEntries(names.map((name) => [name, NUMERIC.has(name) ? n : `‹${name}›`])),
  );
}

describe('the readers’ problems, by code', () => {
  it('say in the English catalogue exactly what the CLI prints, for every code and value', () => {
    expect(PROBLEM_CODES.length).toBeGreaterThan(90);
    for (const code of PROBLEM_CODES) {
      expect(source, code).toHaveProperty([code]);
      for (const params of samples(code)) expect(en.t(code, params), code).toBe(englishOf(code, params));
    }
    // the portal says a file no reader knows as the CLI does
    expect(en.t('import.unknownFormat', { file: 'notes.docx' })).toBe(`notes.docx ${UNKNOWN_FORMAT}.`);
    // and the catalogue has no problem the readers never say
    const catalogued = Object.keys(source).filter((k) => k.startsWith('import.problem.'));
    expect(catalogued.sort()).toEqual([...PROBLEM_CODES].sort());
  });

  it('carry their code and values from the file to the reader, in Spanish and Arabic too', async () => {
    const es = createTranslator('es', (await loaders.es()).default, english);
    const ar = createTranslator('ar', (await loaders.ar()).default, english);
    const gift = readGift('::a::Broken {=yes ~no\n\n::b::Essay {}\n');
    expect(gift.errors[0]).toMatchObject({ line: 1, code: 'import.problem.giftNoClose' });
    expect(es.t(gift.errors[0]!.code!)).toBe('una { sin su }');
    const essay = gift.unsupported[0]!;
    expect(essay).toMatchObject({
      line: 3,
      kind: 'essay',
      kindCode: 'import.kind.essay',
      code: 'import.problem.essay',
    });
    expect([en.t(essay.kindCode!), es.t(essay.kindCode!)]).toEqual(['essay', 'ensayo']);

    const same = checkRecord(
      {
        line: 4,
        value: {
          question: 'Which?',
          options: [{ value: 'A', correct: true }, 'A'],
          subject: 'Programing',
          topic: 'JavaScript',
          explanation: 'x',
          tags: ['t'],
        },
      },
      { subjects, images: noImages },
    );
    expect(same.ok).toBe(false);
    const errors = same.ok ? [] : same.errors;
    const option = errors.find((e) => e.field === 'options: option 2')!;
    expect(option).toMatchObject({ code: 'import.problem.sameOption', params: { first: 1 } });
    expect(option).toMatchObject({ fieldCode: 'import.field.option', fieldParams: { n: 2 } });
    expect([
      en.t(option.fieldCode!, option.fieldParams),
      es.t(option.fieldCode!, option.fieldParams),
    ]).toEqual(['options: option 2', 'options: opción 2']);
    expect(es.t(option.code!, option.params)).toBe(
      'es igual que la opción 1; los estudiantes no podrían distinguirlas',
    );
    const subject = errors.find((e) => e.field === 'subject')!;
    expect(subject).toMatchObject({
      code: 'import.problem.noSubjectGuess',
      params: { name: 'Programing', guess: 'Programming' },
      message: 'no subject "Programing" on the server: did you mean "Programming"?',
    });
    expect(ar.t(subject.code!, subject.params)).toBe(
      'لا توجد مادة "Programing" على الخادم: هل تقصد "Programming"؟',
    );
  });

  it('give a schema’s own messages their code, and plurals their language’s forms', async () => {
    const ar = createTranslator('ar', (await loaders.ar()).default, english);
    const bad = checkRecord({ line: 1, value: { question: 5, points: 'x' } }, { subjects, images: noImages });
    const errors = bad.ok ? [] : bad.errors;
    expect(errors.find((e) => e.field === 'question')).toMatchObject({ code: 'import.problem.questionText' });
    expect(errors.find((e) => e.field === 'points')).toMatchObject({ code: 'import.problem.points' });

    const xml = readMoodleXml(
      '<quiz><question type="multichoice"><questiontext format="html"><text><![CDATA[<p>Pick <img src="a.png"> <img src="b.png"></p>]]></text></questiontext>' +
        '<answer fraction="100"><text>A</text><feedback><text>well done</text></feedback></answer><answer fraction="0"><text>B</text></answer></question></quiz>',
    );
    const several = xml.unsupported[0]!;
    expect(several).toMatchObject({ code: 'import.problem.severalImages', params: { count: 2 } });
    expect(ar.t(several.code!, several.params)).toBe('في نص السؤال صورتان؛ سؤال Waymark له صورة واحدة');
  });
});
