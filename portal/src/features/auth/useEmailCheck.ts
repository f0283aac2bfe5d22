import { checkEmailExist } from '@shared/contract/auth';
import { authMessages, EMAIL_PATTERN } from '@shared/schemas/auth-forms';
import { client } from '@widgets/core/api';
import type { UseFormReturn } from 'react-hook-form';

/** On blur, asks the server whether the e-mail is registered: sign-up wants it free, login wants it known. */
export function useEmailCheck<T extends { email: string }>(form: UseFormReturn<T>, mode: 'signup' | 'login') {
  return async (email: string) => {
    const value = email.trim();
    if (!EMAIL_PATTERN.test(value)) return;
    try {
      const res = await client.call(checkEmailExist, { body: { email: value } });
      const field = 'email' as Parameters<typeof form.setError>[0];
      if (mode === 'signup' && res.data.isExist)
        form.setError(field, { type: 'server', message: authMessages.emailTaken });
      else if (mode === 'login' && !res.data.isExist)
        form.setError(field, { type: 'server', message: authMessages.emailUnknown });
    } catch {
      // the check is a courtesy; the sign-in itself will tell
    }
  };
}
