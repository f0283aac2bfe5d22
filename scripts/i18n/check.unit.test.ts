/**
 * No string left behind (issue 31): the repository passes the catalogue check, and the check fails on
 * each kind of mistake it exists for.
 */
import { describe, expect, it } from 'vitest';
import { PSEUDO_LOCALE } from '../../shared/i18n/locales';
import { checkCatalogues } from './catalogues';
import { keyUses, literalTextInHtml, literalTextInJsx, physicalCss, runCheck } from './check';
import { PSEUDO_LOCALE as BUILD_PSEUDO } from './sources.mjs';

const kinds = (problems: { kind: string; message: string }[]) =>
  problems.map((p) => `${p.kind}: ${p.message}`);

describe('the catalogue check', () => {
  it('passes on the repository: every key used exists and is used, translated whole, no text left behind', () => {
    expect(kinds(runCheck())).toEqual([]);
  }, 60_000);

  it('fails on a missing translation and on a key English lacks', () => {
    const problems = checkCatalogues({
      en: { 'a.one': 'One', 'a.two': 'Two' },
      es: { 'a.one': 'Uno' },
      ar: { 'a.one': 'واحد', 'a.two': 'اثنان', 'a.three': 'ثلاثة' },
    });
    expect(kinds(problems)).toEqual([
      'missing-translation: a.two is not translated',
      'not-in-english: a.three is not a key of en.json',
    ]);
  });

  it('fails on a translation that drops or adds an argument or a tag', () => {
    const problems = checkCatalogues({
      en: { greet: 'Hello {name}, see <0>this</0>' },
      es: { greet: 'Hola, mira <0>esto</0>' },
      ar: { greet: 'مرحبًا {name} {other}' },
    });
    expect(kinds(problems)).toEqual([
      'argument: greet drops {name}',
      'argument: greet adds {other}, which English does not have',
      'tag: greet has tags <>, English <0>',
    ]);
  });

  it('fails on an Arabic plural without its six categories, and on a category the language lacks', () => {
    const en = { n: '{count, plural, one {# day} other {# days}}' };
    const problems = checkCatalogues({
      en,
      es: { n: '{count, plural, one {# día} two {# días} other {# días}}' },
      ar: { n: '{count, plural, one {يوم} other {# يوم}}' },
    });
    expect(kinds(problems)).toEqual([
      'plural: n: {count, plural} has two, not a category of es',
      'plural: n: {count, plural} lacks zero, two, few, many',
    ]);
  });

  it("fails on a select without English's cases, and on text that is not ICU MessageFormat", () => {
    const problems = checkCatalogues({
      en: { s: '{role, select, USER {learner} TENANT {mentor} other {person}}', bad: 'fine' },
      es: { s: '{role, select, USER {estudiante} other {persona}}', bad: 'roto {' },
      ar: { s: '{role, select, USER {متعلّم} TENANT {مرشد} other {شخص}}', bad: 'سليم' },
    });
    expect(kinds(problems).map((p) => p.split(':').slice(0, 2).join(':'))).toEqual([
      'syntax: bad',
      'select: s',
    ]);
  });

  it('fails on a key used in code that no catalogue has, and on a key put together from pieces', () => {
    const keys = new Set(['catalogue.heading']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under check, as text
    const code = "t('catalogue.heading'); t('catalogue.headline'); t(`catalogue.${part}`);";
    const { used, problems } = keyUses('widgets/x.tsx', code, keys);
    expect([...used]).toEqual(['catalogue.heading']);
    expect(kinds(problems)).toEqual([
      'unknown-key: catalogue.headline is not in en.json',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the checker's message quotes the code
      'key-from-pieces: a key put together: `catalogue.${part}` (write each key whole)',
    ]);
  });

  it('reads message names in the extension as the browsers write them', () => {
    const keys = new Set(['extension.name', 'extension.popup.pause']);
    const { used, problems } = keyUses(
      'extension/popup.html',
      '<span data-i18n="extension.popup.pause"></span> __MSG_extension_name__ __MSG_extension_nope__',
      keys,
    );
    expect([...used].sort()).toEqual(['extension.name', 'extension.popup.pause']);
    expect(kinds(problems)).toEqual(['unknown-key: __MSG_extension_nope__ names no message']);
  });

  it('finds text in JSX and in the attributes people read, and nothing else', () => {
    const code = `
      export const A = ({ n, ok }: { n: number; ok: boolean }) => (
        <section aria-label="Settings" className="x" data-state="open">
          <h1>Welcome back</h1>
          <p>{t('a.b')} · {n} — Waymark</p>
          <img alt="" src="/a.png" />
          <input placeholder={ok ? 'Search' : t('a.c')} />
          <p>{ok ? 'Yes' : null}</p>
          <Loader text="Loading…" />
        </section>
      );`;
    const found = literalTextInJsx('portal/src/A.tsx', code).map((p) => `${p.line} ${p.message}`);
    expect(found).toEqual([
      '3 aria-label: "Settings"',
      '4 text: Welcome back',
      "7 placeholder: 'Search'",
      "8 text: 'Yes'",
      '9 text: "Loading…"',
    ]);
  });

  it('finds text in JSX given as a prop (actions, intro) and ignores HTML entities', () => {
    const code = `export const A = () => (
  <Detail
    actions={<button type="button">Assign now</button>}
    intro={<>
      <p>A path through a subject</p>
    </>}
    label={<span>Inner words</span>}
  >
    <span>&nbsp;</span>
  </Detail>
);`;
    const found = literalTextInJsx('portal/src/A.tsx', code).map((p) => `${p.line} ${p.message}`);
    expect(found).toEqual(['3 text: Assign now', '5 text: A path through a subject', '7 text: Inner words']);
  });

  it('finds physical left and right in style sheets, where the layout must mirror right to left', () => {
    const css = `.a {
  margin-left: 4px;
  padding-inline-start: 4px;
  left: 0;
  inset-inline-end: 0;
  text-align: right;
  text-align: start;
  padding: 0 4px 0 8px;
  padding: 0 4px;
  border-radius: 0 8px 8px 0;
  border-start-end-radius: 8px;
  transform: translateX(-16px);
  border-right-color: red;
  left: 50%; /* physical: centred, the same either way */
}`;
    expect(physicalCss('x.css', css).map((p) => `${p.line} ${p.message.split(' (')[0]}`)).toEqual([
      '2 margin-left',
      '4 left:',
      '6 text-align: right',
      '8 padding: 0 4px 0 8px',
      '10 border-radius: 0 8px 8px 0',
      '12 translateX(-16px)',
      '13 border-right-color',
    ]);
  });

  it("finds text of the extension's popup that no data-i18n supplies", () => {
    const html = `<!doctype html><main><h1 data-i18n="extension.popup.title"></h1><p>Loose words</p>
      <p data-i18n="extension.popup.x"><span>inside is fine</span></p><img alt="An icon"></main>`;
    expect(literalTextInHtml('extension/popup.html', html).map((p) => p.message)).toEqual([
      'text: Loose words',
      'alt: An icon',
    ]);
  });

  it('names the pseudo-locale the same in the build and in the code', () => {
    expect(BUILD_PSEUDO).toBe(PSEUDO_LOCALE);
  });
});
