/**
 * Every form's zod complaints in the reader's language (decision 052): the second argument of
 * `zodResolver(schema, useFormWords())`, or of `schema.safeParse(values, useFormWords())`. A field's
 * message is then shown by `Field`, which says a schema's own key or English through the catalogue too.
 */
import { formWordsIn } from '@shared/i18n/form-words';
import { useMemo } from 'react';
import { useI18n } from './i18n';

/** The parse option saying each zod issue of a form in the language the form is shown in. */
export function useFormWords() {
  const translator = useI18n();
  return useMemo(() => formWordsIn(translator), [translator]);
}
