/**
 * "Import questions" with LMS files as they come (issue 25), the same readers and rules as the CLI: a
 * Moodle bank whose categories name no subject of the server is said once, and the selects place every
 * question; two copies of one question are one, the other shown as the same; a file that cannot be read
 * says so, not a count of questions.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { english, loaders } from 'virtual:wm-messages';
import type { CallDef } from '@shared/contract/define';
import type { Locale } from '@shared/i18n/locales';
import { createTranslator } from '@shared/i18n/translator';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { I18nProvider } from '@widgets/core/i18n';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPortal } from '../../../testing/render';
import { fixtureId as id } from '../question.fixture';

const SUBJECTS = [
  {
    _id: id(1),
    name: 'Programming',
    topics: [
      { _id: id(11), name: 'JavaScript' },
      { _id: id(12), name: 'Git' },
    ],
  },
  { _id: id(2), name: 'Mathematics', topics: [{ _id: id(21), name: 'Algebra' }] },
];

// biome-ignore lint/suspicious/noExplicitAny: the scripted server reads whatever was sent
const calls: { path: string; body: any }[] = [];
const call = vi.fn(async (def: CallDef, args?: { body?: Record<string, unknown> }) => {
  calls.push({ path: def.path, body: args?.body });
  switch (def.path) {
    case '/admin/subject/subject-list':
      return { data: SUBJECTS };
    case '/admin/question/import/check':
      return {
        data: (args!.body!.items as { key: string }[]).map((i) => ({
          key: i.key,
          status: 'new',
          questionId: null,
        })),
      };
    case '/admin/question/import':
      return {
        data: (args!.body!.questions as { key: string }[]).map((q, n) => ({
          key: q.key,
          status: 'created',
          questionId: id(500 + n),
        })),
      };
    default:
      throw new Error(`unexpected call ${def.path}`);
  }
});
vi.mock('@widgets/core/api', () => ({ client: { call: (...a: unknown[]) => call(...(a as [CallDef])) } }));

const { ImportQuestionsDialog } = await import('./ImportQuestionsDialog');

// the project's root: import.meta.url is the page's under happy-dom
const fixture = (name: string) => readFileSync(join(process.cwd(), 'shared/formats/fixtures/lms', name));

async function open(name: string, bytes: Uint8Array | string = fixture(name), locale: Locale = 'en') {
  const translator =
    locale === 'en'
      ? createTranslator('en', english)
      : createTranslator(locale, (await loaders[locale]()).default, english);
  renderPortal(
    <I18nProvider value={translator}>
      <ImportQuestionsDialog open onClose={() => {}} />
    </I18nProvider>,
  );
  await waitFor(() => expect(calls.some((c) => c.path === '/admin/subject/subject-list')).toBe(true));
  await screen.findByRole('option', { name: 'Programming' });
  const input = screen.getByLabelText(translator.t('import.file'));
  Object.defineProperty(input, 'files', { value: [new File([bytes as BlobPart], name)], configurable: true });
  await act(async () => fireEvent.change(input));
  return translator;
}

const summary = () => document.querySelector('.import-report [role="status"]')?.textContent ?? '';

afterEach(() => {
  calls.length = 0;
});

describe('importing an LMS file in the portal', () => {
  it('says once which questions have no subject and topic, then places every one where the selects say', async () => {
    await open('categories.moodle.xml');
    await waitFor(() =>
      expect(summary()).toBe(
        "categories.moodle.xml (Moodle XML): 1 of 3 questions has no subject and topic on this server: their categories name none of its subjects and topics: “Iota” (1). Choose the subject and topic above (they are then every question's), or name them in the file's categories. Nothing can be imported until they have a subject and topic.",
      ),
    );
    expect(screen.queryByText(/Required/)).toBeNull();
    expect(screen.getByRole('button', { name: /^Import/ }).hasAttribute('disabled')).toBe(true);
    expect(calls.map((c) => c.path)).not.toContain('/admin/question/import/check');

    fireEvent.change(screen.getByLabelText('Subject'), { target: { value: id(2) } });
    fireEvent.change(screen.getByLabelText('Topic'), { target: { value: id(21) } });
    await waitFor(() =>
      expect(summary()).toBe('categories.moodle.xml (Moodle XML), 3 questions: 3 will be created.'),
    );
    const checked = calls.filter((c) => c.path === '/admin/question/import/check').at(-1)!;
    expect(checked.body.items).toHaveLength(3);
  });

  it('imports two copies of one question once, and says the other is the same', async () => {
    await open('duplicates.gift');
    await waitFor(() =>
      expect(summary()).toBe(
        'duplicates.gift (Moodle GIFT), 4 questions: 2 will be created, 1 the same as another question of the file, 1 cannot be held.',
      ),
    );
    const same = screen.getByText(/^The same as another question of the file/).closest('details')!;
    expect(within(same).getByText('the same as line 7')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import the others' })));
    await waitFor(() =>
      expect(summary()).toBe(
        'duplicates.gift: 2 created, 1 the same as another question of the file (imported once). 1 could not be held and were left out.',
      ),
    );
    const sent = calls.filter((c) => c.path === '/admin/question/import').flatMap((c) => c.body.questions);
    expect(sent).toHaveLength(2);
  });

  it('says a file that cannot be read is not read, with its line', async () => {
    await open('entity.moodle.xml');
    await waitFor(() =>
      expect(summary()).toBe(
        'entity.moodle.xml (Moodle XML): the file could not be read: line 3: XML: declares an external entity (<!ENTITY … SYSTEM …>), which could read files of this computer; question files declare no entities. Nothing can be imported until the problems are fixed.',
      ),
    );
  });
});

describe('the import dialog in the reader’s language', () => {
  // two options alike (a problem of a question) and an essay (what Waymark cannot hold)
  const gift = '$CATEGORY: $course$/top/Programming/Git\n\n::a::Which?{=yes ~yes}\n\n::b::Tell us why.{}\n';

  it('says the problems of the file and of its questions in Spanish', { timeout: 20_000 }, async () => {
    await open('bank.gift', gift, 'es');
    await waitFor(() =>
      expect(summary()).toBe(
        'bank.gift (Moodle GIFT): 2 problemas en 2 de 2 preguntas. No se puede importar nada hasta que se corrijan los problemas.',
      ),
    );
    expect(screen.getByText('Problemas que corregir en el archivo: 1')).toBeTruthy();
    expect(
      screen.getByText('es igual que la opción 1; los estudiantes no podrían distinguirlas'),
    ).toBeTruthy();
    expect(screen.getByText('línea 3').closest('li')!.textContent).toBe(
      'línea 3 · options: opción 2: es igual que la opción 1; los estudiantes no podrían distinguirlas',
    );
    const essay = screen.getByText(/^un ensayo lo corrige/).closest('li')!;
    expect(essay.textContent).toBe(
      'línea 5 · ensayo · «b»un ensayo lo corrige una persona; Waymark corrige cada respuesta por sí mismo',
    );
    expect(
      screen.getByText('un ensayo lo corrige una persona; Waymark corrige cada respuesta por sí mismo'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Importar/ }).hasAttribute('disabled')).toBe(true);
  });

  it('says a file that cannot be read, and its plurals, in Arabic', { timeout: 20_000 }, async () => {
    await open('entity.moodle.xml', fixture('entity.moodle.xml'), 'ar');
    await waitFor(() =>
      expect(summary()).toBe(
        'entity.moodle.xml (Moodle XML): تعذّرت قراءة الملف: السطر 3: XML: يعلن كيانًا خارجيًا (<!ENTITY … SYSTEM …>) قد يقرأ ملفات هذا الحاسوب؛ ملفات الأسئلة لا تعلن أي كيانات. لا يمكن استيراد شيء حتى تُصلح المشكلات.',
      ),
    );
    calls.length = 0;
    cleanup();
    const t = await open('duplicates.gift', fixture('duplicates.gift'), 'ar');
    await waitFor(() =>
      expect(summary()).toBe(
        'duplicates.gift (Moodle GIFT)، 4 أسئلة: سيُنشأ سؤالان، وواحد مطابق لسؤال آخر في الملف، وواحد لا يمكن حفظه.',
      ),
    );
    // each question's type by its name in the reader's language (it was shown as its message key)
    const created = screen.getByText(/^ستُنشأ/).closest('details')!;
    expect(created.textContent).not.toContain('questionType.');
    expect(created.textContent).toContain(t.t('questionType.mcq'));
  });
});
