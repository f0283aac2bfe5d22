import { ApiError } from '@shared/client/client';
import { fieldTextsOf } from '@shared/i18n/form-words';
import { profileMessages } from '@shared/schemas/user';
import { toast } from '@widgets/ui/Toast';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { currentTranslator } from '../../lib/i18n';

/** Puts a refused save on the right field: 11000 on phoneNumber, ERR001 on name, 400 on each named field. */
export function showProfileError<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>) {
  if (err instanceof ApiError) {
    if (err.code === 11000 && err.field === 'phoneNumber') {
      setError(
        'phoneNumber' as Path<T>,
        { type: 'server', message: profileMessages.mobileUsed },
        { shouldFocus: true },
      );
      return;
    }
    if (err.code === 'ERR001') {
      setError('name' as Path<T>, { type: 'server', message: err.message }, { shouldFocus: true });
      return;
    }
    if (err.status === 400 && err.body.fields) {
      // each field's refusal said from the catalogue by its code, in the reader's language
      for (const [field, message] of Object.entries(fieldTextsOf(currentTranslator(), err.body)))
        setError(field as Path<T>, { type: 'server', message });
      return;
    }
    toast(err.message, { kind: 'error' });
    return;
  }
  toast(currentTranslator().t('profile.saveFailed'), { kind: 'error' });
}
