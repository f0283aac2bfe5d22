import type { QuestionStatsRow, TestFigures } from '@shared/contract/analysis';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nProvider } from '@widgets/core/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { translatorIn } from '../../../testing/render';
import { StatsTable } from './StatsTable';
import { TestSummary } from './TestSummary';

type Row = z.infer<typeof QuestionStatsRow>;
const figures = (over: Partial<Row['figures']> = {}): Row['figures'] => ({
  attempts: 40,
  facility: 0.5,
  discrimination: 0.4,
  discriminationNote: null,
  discriminationNoteCode: null,
  averageSeconds: 30,
  timedAttempts: 40,
  options: null,
  smallSample: false,
  flags: [],
  ...over,
});
const row = (n: number, question: string, over: Partial<Row['figures']> = {}): Row => ({
  questionId: `00000000-0000-4000-8000-00000000000${n}`,
  question,
  questionType: 'MCQ',
  position: n,
  figures: figures(over),
});
const ROWS = [
  row(1, 'Plain question', { facility: 0.61 }),
  row(2, 'Easy question', {
    facility: 0.95,
    flags: [
      {
        code: 'TOO_EASY',
        label: 'Too easy',
        rule: 'Facility above 0.90.',
        detail: 'Facility 0.95.',
        params: { facility: 0.95 },
      },
    ],
  }),
  row(3, 'Miskeyed question', {
    facility: 0.2,
    options: [
      { option: 'a', label: 'Alpha', isKey: true, share: 0.2, upper: 0.1, lower: 0.3 },
      { option: 'b', label: 'Beta', isKey: false, share: 0.7, upper: 0.85, lower: 0.5 },
      { option: 'none', label: 'No answer', isKey: false, share: 0.1, upper: 0.05, lower: 0.2 },
    ],
    flags: [
      {
        code: 'LIKELY_MISKEYED',
        label: 'Likely miskeyed',
        rule: 'A correct option chosen less often than a wrong one by the upper 27 % of takers.',
        detail: 'The upper group chose “Beta” (85 %) more than the key “Alpha” (10 %).',
        params: { beaten: [{ chosen: 'Beta', chosenShare: 0.85, key: 'Alpha', keyShare: 0.1 }] },
      },
    ],
  }),
  row(4, 'New question', { attempts: 3, smallSample: true }),
];
afterEach(cleanup);

/** The questions in the table's order (its own rows, not those of the option tables inside them). */
const order = () =>
  [...screen.getByRole('table', { name: 'Statistics' }).querySelectorAll(':scope > tbody > tr')].map(
    (r) => r.querySelector('summary span')?.textContent,
  );

describe('the question table of item analysis', () => {
  it('lists the questions to fix first — a likely miskeyed one before a weak one — and says why', () => {
    render(<StatsTable rows={ROWS} caption="Statistics" />);
    expect(order()).toEqual(['Miskeyed question', 'Easy question', 'Plain question', 'New question']);
    expect(screen.getByText('Small sample (3 of 30 attempts): no flags yet')).toBeTruthy();
    const miskeyed = screen.getByText('Miskeyed question').closest('details')!;
    fireEvent.click(within(miskeyed).getByText('Miskeyed question'));
    expect(miskeyed.textContent).toContain(
      'Rule: A correct option chosen less often than a wrong one by the upper 27 % of takers.',
    );
    const options = within(miskeyed).getByRole('table', { name: 'How its options were chosen' });
    expect(within(options).getByRole('rowheader', { name: /Alpha/ }).textContent).toContain('Correct');
    expect(options.textContent).toContain('85 %');
  });

  it('sorts by any column from its header button, and says the order', () => {
    render(<StatsTable rows={ROWS} caption="Statistics" />);
    const facility = screen.getByRole('button', { name: 'Facility' });
    fireEvent.click(facility);
    expect(facility.closest('th')!.getAttribute('aria-sort')).toBe('ascending');
    expect(order()).toEqual(['Miskeyed question', 'New question', 'Plain question', 'Easy question']);
    fireEvent.click(facility);
    expect(facility.closest('th')!.getAttribute('aria-sort')).toBe('descending');
    expect(order()[0]).toBe('Easy question');
    expect(screen.getByRole('button', { name: 'Flags' }).closest('th')!.getAttribute('aria-sort')).toBe(
      'none',
    );
  });
});

const SUMMARY: z.infer<typeof TestFigures> = {
  attempts: 12,
  takers: 10,
  score: { mean: 64.25, median: 70, sd: 12.5 },
  histogram: [
    { from: 0, to: 50, count: 3 },
    { from: 50, to: 100, count: 9 },
  ],
  reliability: { method: 'KR-20', value: 0.71, sem: 6.5, note: null, noteCode: null },
  passRate: 0.75,
  passPercentage: 60,
  time: { mean: 754, median: 600 },
  drawn: false,
  lastEvaluatedAt: null,
  smallSample: true,
};

describe('item analysis in Spanish and Arabic', () => {
  it('says the table, its flags and their rules in Spanish, numbers with a decimal comma', async () => {
    const es = await translatorIn('es');
    render(
      <I18nProvider value={es}>
        <StatsTable rows={ROWS} caption="Estadísticas" />
      </I18nProvider>,
    );
    expect(screen.getByRole('button', { name: 'Facilidad' })).toBeTruthy();
    expect(screen.getByText('Muestra pequeña (3 de 30 intentos): todavía sin marcas')).toBeTruthy();
    expect(screen.getByText('Probablemente mal marcada')).toBeTruthy();
    expect(screen.getAllByText('· Opción única')).toHaveLength(4);
    const miskeyed = screen.getByText('Miskeyed question').closest('details')!;
    expect(miskeyed.textContent).toContain('Regla: Una opción correcta elegida con menos frecuencia');
    expect(within(miskeyed).getByRole('table', { name: 'Cómo se eligieron sus opciones' })).toBeTruthy();
    expect(screen.getByText('0,61')).toBeTruthy();
  });

  it("says a test's figures in Spanish and in Arabic", async () => {
    const { unmount } = render(
      <I18nProvider value={await translatorIn('es')}>
        <TestSummary figures={SUMMARY} />
      </I18nProvider>,
    );
    expect(screen.getByText('de 10 participantes')).toBeTruthy();
    expect(screen.getByText('64,3 %')).toBeTruthy();
    expect(screen.getByText('Fiabilidad (KR-20)')).toBeTruthy();
    expect(screen.getByText(/Una muestra pequeña: 12 intentos\./)).toBeTruthy();
    expect(screen.getByText(/^intentos obtuvieron de 50 a 100 %$/)).toBeTruthy();
    unmount();
    const ar = await translatorIn('ar');
    render(
      <I18nProvider value={ar}>
        <TestSummary figures={SUMMARY} />
      </I18nProvider>,
    );
    expect(screen.getByText('نسبة النجاح')).toBeTruthy();
    expect(screen.getByText(`${ar.number(75)}٪`)).toBeTruthy();
    expect(screen.getByText(`من ${ar.number(10)} متقدّمين`)).toBeTruthy();
  });
});

describe('why a figure is not given, in the reader’s language (issue 31)', () => {
  // as the server answers: the English note and its code beside it
  const noted = {
    ...SUMMARY,
    reliability: {
      method: 'KR-20' as const,
      value: null,
      sem: null,
      note: 'Not defined: every attempt had the same score.',
      noteCode: 'stats.note.sameScore' as const,
    },
  };
  const flat = row(1, 'Flat question', {
    discrimination: null,
    discriminationNote: 'Not defined: every taker scored the same on it.',
    discriminationNoteCode: 'stats.note.sameOnIt',
  });

  it.each([
    [
      'es',
      'No definida: todos los intentos obtuvieron la misma puntuación.',
      'Discriminación: No definida: todos los participantes obtuvieron la misma puntuación en ella.',
    ],
    [
      'ar',
      'غير معرّف: حصلت كل المحاولات على الدرجة نفسها.',
      'التمييز: غير معرّف: حصل كل المختبَرين على الدرجة نفسها فيه.',
    ],
  ] as const)(
    'says the reliability’s and a discrimination’s note in %s',
    async (locale, reliability, discrimination) => {
      render(
        <I18nProvider value={await translatorIn(locale)}>
          <TestSummary figures={noted} />
          <StatsTable rows={[flat]} caption="Stats" />
        </I18nProvider>,
      );
      expect(screen.getByText(reliability)).toBeTruthy();
      expect(screen.getByText(discrimination)).toBeTruthy();
    },
  );
});

describe('what raised each flag, in the reader’s language (issue 31)', () => {
  const flagged = row(5, 'Flagged question', {
    facility: 0.05,
    discrimination: -0.12,
    options: [
      { option: 'a', label: 'Alpha', isKey: true, share: 0.9, upper: 0.1, lower: 0.9 },
      { option: 'b', label: 'Beta', isKey: false, share: 0.04, upper: 0.85, lower: 0 },
      { option: 'c', label: 'Gamma', isKey: false, share: 0.012, upper: 0.05, lower: 0.1 },
      { option: 'none', label: 'No answer', isKey: false, share: 0.048, upper: 0, lower: 0 },
    ],
    flags: [
      { code: 'TOO_HARD', label: 'Too hard', rule: '', detail: 'Facility 0.05.', params: { facility: 0.05 } },
      {
        code: 'NEGATIVE_DISCRIMINATION',
        label: 'Negative discrimination',
        rule: '',
        detail: 'Discrimination -0.12.',
        params: { discrimination: -0.12 },
      },
      {
        code: 'RARE_DISTRACTOR',
        label: 'Distractor nobody picks',
        rule: '',
        detail: '“Beta” chosen by 4.0 % and “Gamma” chosen by 1.2 %.',
        params: {
          options: [
            { label: 'Beta', share: 0.04 },
            { label: 'Gamma', share: 0.012 },
          ],
        },
      },
      {
        code: 'LIKELY_MISKEYED',
        label: 'Likely miskeyed',
        rule: '',
        detail: 'The upper group chose “Beta” (85 %) more than the key “Alpha” (10 %).',
        params: { beaten: [{ chosen: 'Beta', chosenShare: 0.85, key: 'Alpha', keyShare: 0.1 }] },
      },
      {
        code: 'POSSIBLY_LEAKED',
        label: 'Possibly leaked',
        rule: '',
        detail:
          'Facility rose from 0.33 (40 attempts before 3rd Mar 2026) to 0.88 (1,200 attempts from then on); the rest of the test did not rise.',
        params: {
          rise: {
            from: '2026-03-03',
            before: 0.325,
            beforeAttempts: 40,
            after: 0.875,
            afterAttempts: 1200,
            restRise: 0,
          },
        },
      },
    ],
  });
  const details = () => [...document.querySelectorAll('.flag-reasons li')].map((li) => li.textContent);

  it('in Spanish: decimal commas, the options joined with “y”, the date as Spanish writes it', async () => {
    render(
      <I18nProvider value={await translatorIn('es')}>
        <StatsTable rows={[flagged]} caption="Estadísticas" />
      </I18nProvider>,
    );
    const said = details().join('\n');
    expect(said).toContain('Facilidad 0,05.');
    expect(said).toContain('Discriminación -0,12.');
    expect(said).toContain('«Beta», elegida por el 4,0 % y «Gamma», elegida por el 1,2 %.');
    expect(said).toContain('El grupo superior eligió «Beta» (85 %) más que la clave «Alpha» (10 %).');
    expect(said).toContain(
      'La facilidad subió de 0,33 (40 intentos antes del 3 mar 2026) a 0,88 (1200 intentos desde entonces); el resto de la prueba no subió.',
    );
    expect(said).not.toMatch(/chosen|Facility|upper group/);
    expect(screen.getByRole('rowheader', { name: 'Sin respuesta' })).toBeTruthy();
  });

  it('in Arabic: Arabic digits and separators, the options joined with “و”', async () => {
    const ar = await translatorIn('ar');
    render(
      <I18nProvider value={ar}>
        <StatsTable rows={[flagged]} caption="الإحصاءات" />
      </I18nProvider>,
    );
    const said = details().join('\n');
    const two = (n: number) => ar.number(n, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const one = (n: number) => ar.number(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    expect(said).toContain(`السهولة ${two(0.05)}.`);
    expect(said).toContain(`التمييز ${two(-0.12)}.`);
    expect(said).toContain(`«Beta» اختاره ${one(4)}٪ و«Gamma» اختاره ${one(1.2)}٪.`);
    expect(said).toContain(
      `اختارت المجموعة العليا «Beta» (${ar.number(85)}٪) أكثر من المفتاح «Alpha» (${ar.number(10)}٪).`,
    );
    expect(said).toContain(`ارتفعت السهولة من ${two(0.325)} (${ar.number(40)} محاولة قبل`);
    expect(said).toContain(`${ar.number(1200)} محاولة منذ ذلك الحين)؛ ولم ترتفع بقية الاختبار.`);
    // no English word but the options' own labels
    expect(said.replace(/Alpha|Beta|Gamma/g, '')).not.toMatch(/[a-z]{3,}/i);
    expect(screen.getByRole('rowheader', { name: 'بلا إجابة' })).toBeTruthy();
  });
});
