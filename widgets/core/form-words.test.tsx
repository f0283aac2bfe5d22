/**
 * Every kind of zod complaint a form shows is said in the reader's language (decision 052): a form on
 * `zodResolver(schema, useFormWords())` and `Field`, in Spanish and Arabic, shows each field's message from
 * the catalogue — never zod's English ('Too small: expected string to have >=3 characters').
 */
import { english, loaders } from 'virtual:wm-messages';
import { zodResolver } from '@hookform/resolvers/zod';
import type { MessageKey } from '@shared/i18n/keys';
import { createTranslator, type Translator } from '@shared/i18n/translator';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Field } from '../ui/Field';
import { useFormWords } from './form-words';
import { I18nProvider } from './i18n';

afterEach(cleanup);

/** One field of each kind, and what the form is given for it. */
const schema = z.object({
  missing: z.string(),
  empty: z.string().trim().min(1),
  short: z.string().min(5),
  long: z.string().max(3),
  exact: z.string().length(4),
  email: z.email(),
  url: z.url(),
  pattern: z.string().regex(/^[A-Z]+$/),
  few: z.array(z.string()).min(2),
  many: z.array(z.string()).max(1),
  low: z.coerce.number().min(18),
  high: z.coerce.number().max(10),
  above: z.coerce.number().gt(0),
  below: z.coerce.number().lt(5),
  whole: z.coerce.number().int(),
  step: z.coerce.number().multipleOf(5),
  choice: z.enum(['a', 'b']),
  number: z.number(),
  own: z.string().min(1, 'Required'),
  ownKey: z.string().min(1, 'auth.emailRequired'),
});
type Values = z.input<typeof schema>;
const given: Record<keyof Values, unknown> = {
  missing: undefined,
  empty: '   ',
  short: 'abc',
  long: 'abcdef',
  exact: 'abc',
  email: 'not-an-address',
  url: 'not a url',
  pattern: 'abc',
  few: ['x'],
  many: ['x', 'y'],
  low: '9',
  high: '11',
  above: '0',
  below: '5',
  whole: '1.5',
  step: '7',
  choice: 'c',
  number: 'twelve',
  own: '',
  ownKey: '',
};
/** The words each field must show: its key and values. */
const expected: Record<keyof Values, [MessageKey, Record<string, string | number>?]> = {
  missing: ['forms.required'],
  empty: ['forms.required'],
  short: ['forms.tooShort', { minimum: 5 }],
  long: ['forms.tooLong', { maximum: 3 }],
  exact: ['forms.exactLength', { length: 4 }],
  email: ['forms.email'],
  url: ['forms.url'],
  pattern: ['forms.format'],
  few: ['forms.tooFew', { minimum: 2 }],
  many: ['forms.tooMany', { maximum: 1 }],
  low: ['forms.atLeast', { minimum: 18 }],
  high: ['forms.atMost', { maximum: 10 }],
  above: ['forms.moreThan', { minimum: 0 }],
  below: ['forms.lessThan', { maximum: 5 }],
  whole: ['forms.invalidType', { expected: 'int' }],
  step: ['forms.multipleOf', { divisor: 5 }],
  choice: ['forms.choose'],
  number: ['forms.invalidType', { expected: 'number' }],
  own: ['forms.required'],
  ownKey: ['auth.emailRequired'],
};
const names = Object.keys(given) as (keyof Values)[];

function Form() {
  const form = useForm<Values>({
    resolver: zodResolver(schema, useFormWords()),
    defaultValues: given as Values,
  });
  return (
    <form onSubmit={form.handleSubmit(() => undefined)} noValidate>
      {names.map((name) => (
        <Field key={name} label={name} error={form.formState.errors[name]?.message}>
          <input readOnly />
        </Field>
      ))}
      <button type="submit">send</button>
    </form>
  );
}

/** zod's English defaults and the catalogue's English: neither may show to a Spanish or Arabic reader. */
const ZOD_ENGLISH = /Too small|Too big|Invalid input|Invalid option|Invalid string|expected|Required/;

async function errorsIn(translator: Translator): Promise<Record<string, string>> {
  render(
    <I18nProvider value={translator}>
      <Form />
    </I18nProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'send' }));
  await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(names.length));
  return Object.fromEntries(
    names
      .map((name) => [name, screen.getByLabelText(name).getAttribute('aria-describedby') ?? ''])
      .map(([name, id]) => [name, document.getElementById(id!)?.textContent ?? '']),
  );
}

const en = createTranslator('en', english);

describe.each(['es', 'ar'] as const)('a form’s complaints in %s', (locale) => {
  it('says each kind of zod issue from the catalogue, with its values', async () => {
    const translator = createTranslator(locale, (await loaders[locale]()).default, english);
    const shown = await errorsIn(translator);
    for (const name of names) {
      const [key, values] = expected[name];
      expect(shown[name], name).toBe(translator.t(key, values));
      expect(shown[name], name).not.toBe(en.t(key, values));
      expect(shown[name], name).not.toMatch(ZOD_ENGLISH);
    }
  });
});

describe('a form’s complaints in Spanish, word for word', () => {
  it('names the length, the bound and the kind', async () => {
    const shown = await errorsIn(createTranslator('es', (await loaders.es()).default, english));
    expect(shown.missing).toBe('Obligatorio');
    expect(shown.short).toBe('Debe tener al menos 5 caracteres');
    expect(shown.long).toBe('Debe tener como máximo 3 caracteres');
    expect(shown.few).toBe('Elige al menos 2 elementos');
    expect(shown.low).toBe('Debe ser como mínimo 18');
    expect(shown.email).toBe('Introduce un correo electrónico válido');
    expect(shown.ownKey).toBe('El correo electrónico es obligatorio*');
  });
});
