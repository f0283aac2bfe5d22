import type { CallDef } from '@shared/contract/define';
import type { Question, QuestionType } from '@shared/schemas/assessment';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toasts } from '@widgets/ui/Toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPortal, translatorIn } from '../../testing/render';
import { authoredQuestion, fixtureId } from './question.fixture';

const id = fixtureId;
const QID = id(1);
const SUBJECT = id(50);
const TOPIC = id(51);
const LANGUAGE = id(60);

type Opt = { value: string; isCorrect: boolean };
const question = (type: QuestionType, options: Opt[], extra: Partial<Question> = {}) =>
  authoredQuestion(type, options, {
    subject: SUBJECT,
    topic: TOPIC,
    explanation: [{ type: 'TEXT', value: 'Primes have two divisors.' }],
    tags: ['maths'],
    ...extra,
  });

const fourOptions = (correct: number[]): Opt[] =>
  ['2', '3', '4', '6'].map((value, i) => ({ value, isCorrect: correct.includes(i) }));

let stored: Question = question('MSQ', fourOptions([0, 1]));
const calls: { path: string; body?: unknown }[] = [];
const call = vi.fn(async (def: CallDef, args?: { body?: Record<string, unknown> }) => {
  calls.push({ path: def.path, body: args?.body });
  switch (def.path) {
    case '/admin/question/{id}':
      if (def.method === 'PUT') return { data: { ...stored, status: 'PUBLISH' } };
      return { data: stored };
    case '/admin/subject/subject-list':
      return { data: [{ _id: SUBJECT, name: 'Maths', topics: [{ _id: TOPIC, name: 'Primes' }] }] };
    case '/languages/list':
      return { data: [{ _id: LANGUAGE, name: 'English' }] };
    case '/admin/question/{id}/change-type': {
      const to = args!.body!.questionType as QuestionType;
      const keeps = (['MCQ', 'MSQ'] as string[]).includes(to) && ['MCQ', 'MSQ'].includes(stored.questionType);
      stored = keeps
        ? question(
            to,
            stored.options.map((o) => ({ value: o.value, isCorrect: false })),
          )
        : question(to, to === 'FILL_IN_BLANK' ? [{ value: '', isCorrect: false }] : fourOptions([]));
      return { data: stored };
    }
    case '/admin/question/{id}/remove-option/{optionId}':
      return { data: { ok: true } };
    default:
      throw new Error(`unexpected call ${def.path}`);
  }
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { QuestionEditor } = await import('./QuestionEditor');

const onSaved = vi.fn();
async function renderEditor(q: Question) {
  stored = q;
  renderPortal(<QuestionEditor questionId={QID} onSaved={onSaved} />, { toasts: true });
  await screen.findByRole('group', { name: /Options|Accepted answer/ });
  // the subject list has arrived, so the topic select shows the question's topic
  await waitFor(() => expect((screen.getByLabelText('Topic') as HTMLSelectElement).value).toBe(TOPIC));
}

const optionRows = () => within(screen.getByRole('list')).getAllByRole('listitem');
const pointsShown = () => optionRows().map((row) => row.querySelector('.check .muted')?.textContent);
const correctBox = (i: number) => optionRows()[i]!.querySelector<HTMLInputElement>('.check input')!;
const lastSaved = () =>
  calls.filter((c) => c.path === '/admin/question/{id}' && c.body).at(-1)?.body as {
    questionType: string;
    options: { value: string; isCorrect: boolean; points: number }[];
  };

afterEach(() => {
  cleanup();
  calls.length = 0;
  onSaved.mockReset();
  toasts.value = [];
});

describe('the question editor (mentor §2.8)', () => {
  it("shows a multi-select option's share of the 10 points, as it is scored (decision 005)", async () => {
    await renderEditor(question('MSQ', fourOptions([0, 1])));
    expect(pointsShown()).toEqual(['(5 points)', '(5 points)', '(0 points)', '(0 points)']);
    fireEvent.click(correctBox(3));
    expect(pointsShown()).toEqual(['(3.33 points)', '(3.33 points)', '(0 points)', '(3.33 points)']);
    fireEvent.click(correctBox(0));
    fireEvent.click(correctBox(1));
    expect(pointsShown()).toEqual(['(0 points)', '(0 points)', '(0 points)', '(10 points)']);
  });

  it('shows the whole 10 points on the one correct option of a single-choice question', async () => {
    await renderEditor(question('MCQ', fourOptions([1])));
    expect(correctBox(0).type).toBe('radio');
    expect(pointsShown()).toEqual(['(0 points)', '(10 points)', '(0 points)', '(0 points)']);
    fireEvent.click(correctBox(2));
    expect(optionRows().map((_, i) => correctBox(i).checked)).toEqual([false, false, true, false]);
  });

  it('switches MSQ to MCQ keeping the options, and to fill-in-blank only once confirmed', async () => {
    await renderEditor(question('MSQ', fourOptions([0, 1])));
    fireEvent.change(screen.getByLabelText('Question'), {
      target: { value: 'Which one is even and prime?' },
    });
    fireEvent.click(screen.getByRole('radio', { name: 'Single choice' }));
    await waitFor(() => expect(correctBox(0).type).toBe('radio'));
    expect(calls.filter((c) => c.path.endsWith('/change-type')).map((c) => c.body)).toEqual([
      { questionType: 'MCQ' },
    ]);
    expect(optionRows().map((row) => (within(row).getByRole('textbox') as HTMLInputElement).value)).toEqual([
      '2',
      '3',
      '4',
      '6',
    ]);
    expect(optionRows().map((_, i) => correctBox(i).checked)).toEqual([false, false, false, false]);
    // what was typed and that the switch does not touch stays
    expect((screen.getByLabelText('Question') as HTMLTextAreaElement).value).toBe(
      'Which one is even and prime?',
    );

    fireEvent.click(screen.getByRole('radio', { name: 'Fill in the blank' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(
      within(dialog).getByText('All option details will be lost. Do you want to continue?'),
    ).toBeTruthy();
    expect(calls.filter((c) => c.path.endsWith('/change-type'))).toHaveLength(1);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Change type' })));
    await screen.findByRole('group', { name: 'Accepted answer' });
    expect(screen.getByLabelText('Points')).toBeTruthy();
    expect(calls.filter((c) => c.path.endsWith('/change-type')).at(-1)?.body).toEqual({
      questionType: 'FILL_IN_BLANK',
    });
  });

  it('names each missing field on save, and saves the whole question once it is complete', async () => {
    await renderEditor(question('MSQ', fourOptions([])));
    fireEvent.change(screen.getByLabelText('Question'), { target: { value: '  ' } });
    fireEvent.change(within(optionRows()[2]!).getByRole('textbox'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: /Save question/ }));
    expect(await screen.findByText('At least one answer should be correct')).toBeTruthy();
    expect(screen.getAllByText('Required').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByLabelText('Question').getAttribute('aria-invalid')).toBe('true');
    expect(within(optionRows()[2]!).getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
    expect(lastSaved()).toBeUndefined();

    fireEvent.change(screen.getByLabelText('Question'), { target: { value: 'Which are prime?' } });
    fireEvent.change(within(optionRows()[2]!).getByRole('textbox'), { target: { value: '5' } });
    fireEvent.click(correctBox(0));
    fireEvent.click(correctBox(2));
    expect(screen.queryByText('At least one answer should be correct')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Save question/ })));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(lastSaved()).toMatchObject({
      question: 'Which are prime?',
      questionType: 'MSQ',
      subject: SUBJECT,
      topic: TOPIC,
      language: LANGUAGE,
      explanation: [{ type: 'TEXT', value: 'Primes have two divisors.' }],
      tags: ['maths'],
      options: [
        { _id: id(100), value: '2', isCorrect: true },
        { _id: id(101), value: '3', isCorrect: false },
        { _id: id(102), value: '5', isCorrect: true },
        { _id: id(103), value: '6', isCorrect: false },
      ],
    });
  });

  it("says the editor's rules in Spanish and Arabic, the length limits too", async () => {
    stored = question('MSQ', fourOptions([]));
    renderPortal(<QuestionEditor questionId={QID} onSaved={onSaved} />, {
      translator: await translatorIn('es'),
    });
    await screen.findByRole('group', { name: 'Opciones' });
    await waitFor(() => expect((screen.getByLabelText('Tema') as HTMLSelectElement).value).toBe(TOPIC));
    fireEvent.change(within(optionRows()[1]!).getByRole('textbox'), { target: { value: 'x'.repeat(2001) } });
    fireEvent.change(screen.getByLabelText('Pregunta'), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: /Guardar pregunta/ }));
    expect(await screen.findByText('Al menos una respuesta debe ser correcta')).toBeTruthy();
    expect(screen.getByText('debe tener como máximo 2000 caracteres')).toBeTruthy();
    expect(screen.getByText('Obligatorio')).toBeTruthy();
    expect(lastSaved()).toBeUndefined();
    cleanup();

    const ar = await translatorIn('ar');
    renderPortal(<QuestionEditor questionId={QID} onSaved={onSaved} />, { translator: ar });
    await screen.findByRole('group', { name: ar.t('editor.options') });
    await waitFor(() =>
      expect((screen.getByLabelText(ar.t('editor.topic')) as HTMLSelectElement).value).toBe(TOPIC),
    );
    fireEvent.change(within(optionRows()[1]!).getByRole('textbox'), { target: { value: 'x'.repeat(2001) } });
    fireEvent.click(screen.getByRole('button', { name: new RegExp(ar.t('editor.save')) }));
    expect(await screen.findByText('يجب ألا يتجاوز 2000 حرف')).toBeTruthy();
  });

  it("says zod's own complaint about the points in Spanish, on the points field, and saves nothing", async () => {
    stored = question('FILL_IN_BLANK', [{ value: 'Paris', isCorrect: true }]);
    const es = await translatorIn('es');
    renderPortal(<QuestionEditor questionId={QID} onSaved={onSaved} />, { translator: es });
    const points = await screen.findByLabelText(es.t('editor.points'));
    await waitFor(() => expect((screen.getByLabelText('Tema') as HTMLSelectElement).value).toBe(TOPIC));
    const saves = calls.filter((c) => c.path === '/admin/question/{id}' && c.body).length;
    fireEvent.change(points, { target: { value: '150' } });
    fireEvent.click(screen.getByRole('button', { name: /Guardar pregunta/ }));
    // the schema's bound has no words of its own: zod's complaint, said from the catalogue's forms.*
    expect(await screen.findByText(es.t('forms.atMost', { maximum: 100 }))).toBeTruthy();
    expect(points.getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.path === '/admin/question/{id}' && c.body)).toHaveLength(saves);
  });

  it('adds options, and removes one once confirmed', async () => {
    await renderEditor(question('MSQ', fourOptions([0])));
    fireEvent.click(screen.getByRole('button', { name: 'Add option' }));
    expect(optionRows()).toHaveLength(5);
    fireEvent.click(screen.getByRole('button', { name: 'Remove option 2' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('This option will be removed.')).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' })));
    await waitFor(() => expect(optionRows()).toHaveLength(4));
    expect(calls.some((c) => c.path.endsWith('/remove-option/{optionId}'))).toBe(true);
    expect(optionRows().map((row) => (within(row).getByRole('textbox') as HTMLInputElement).value)).toEqual([
      '2',
      '4',
      '6',
      '',
    ]);
  });

  it('takes accepted answers and points for a fill-in-blank question', async () => {
    await renderEditor(question('FILL_IN_BLANK', [{ value: '7', isCorrect: true }], { points: 25 }));
    expect((screen.getByLabelText('Points') as HTMLInputElement).value).toBe('25');
    expect((screen.getByLabelText('Answer') as HTMLInputElement).value).toBe('7');
    fireEvent.click(screen.getByRole('button', { name: 'Add another accepted answer' }));
    fireEvent.change(screen.getByLabelText('Also accepted (2)'), { target: { value: 'seven' } });
    fireEvent.click(screen.getByRole('button', { name: /Save question/ }));
    expect(await screen.findByText('Accepted answers must all be numbers or all be text')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Also accepted (2)'), { target: { value: '7.0' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Save question/ })));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(lastSaved()).toMatchObject({
      questionType: 'FILL_IN_BLANK',
      points: 25,
      options: [
        { value: '7', isCorrect: true },
        { value: '7.0', isCorrect: true },
      ],
    });
  });
});
