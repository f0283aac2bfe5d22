/**
 * No form shows a Spanish reader English (decision 052): each form outside the question editor (whose own
 * test, QuestionEditor.test.tsx, says its rules and zod's bounds in Spanish), sent
 * with its required fields empty, shows every complaint in Spanish — neither zod's English defaults nor a
 * schema's own English ('Required', 'Assessment name cannot be empty.') nor any English of the catalogue.
 */
import { english } from 'virtual:wm-messages';
import { ApiError } from '@shared/client/client';
import { fieldTextsOf } from '@shared/i18n/form-words';
import type { Translator } from '@shared/i18n/translator';
import { editorMessages } from '@shared/schemas/authoring';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { FeedbackDialog } from '@widgets/assessments/FeedbackDialog';
import type { ReactNode } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderPortal, translatorIn } from './testing/render';

const call = vi.fn(async (_def: unknown) => ({ data: [] as unknown }));
vi.mock('@widgets/core/api', () => ({ client: { call: (def: unknown) => call(def) } }));
vi.mock('./lib/firebase', () => ({ firebaseAuth: () => ({}) }));

const { default: SorryPage } = await import('./features/activity/SorryPage');
const { default: SupportPage } = await import('./features/public/SupportPage');
const { default: DeletePage } = await import('./features/profile/DeletePage');
const { default: ManageAssessmentPage } = await import('./features/authoring/ManageAssessmentPage');
const { SubjectTestDialog } = await import('./features/assessments/SubjectTestDialog');
const { AddUserDialog, addUserError } = await import('./features/tenant/users/AddUserDialog');
const { default: LoginPage } = await import('./features/auth/LoginPage');
const { LearnerSignUpPage } = await import('./features/auth/SignUpPage');

/** zod's English defaults, word for word as zod 4 writes them. */
const ZOD_ENGLISH = /Too small|Too big|Invalid input|Invalid option|Invalid string|expected \w+, received/;

/** Every English text of the catalogue that Spanish says otherwise, and the schemas' own English. */
let englishTexts: Set<string>;
let spanish: Translator;
beforeAll(async () => {
  spanish = await translatorIn('es');
  const catalogue = english as Record<string, unknown>;
  englishTexts = new Set(
    Object.entries(catalogue)
      .filter(([k, v]) => typeof v === 'string' && spanish.t(k as never) !== v)
      .map(([, v]) => v as string),
  );
  for (const text of [...Object.values(editorMessages), 'Required', 'Invalid email address'])
    englishTexts.add(text);
});

const nothing = () => undefined;

/** Each form, and how it is sent empty. */
const FORMS: [string, () => ReactNode, (() => void)?][] = [
  ['the uninstall survey', () => <SorryPage />],
  ['the support form', () => <SupportPage />],
  ['the account deletion', () => <DeletePage />],
  ['the login', () => <LoginPage />],
  ['the sign-up', () => <LearnerSignUpPage />],
  [
    'a question’s feedback',
    () => <FeedbackDialog open about="question 3" onClose={nothing} onSend={async () => undefined} />,
  ],
  ['a subject test', () => <SubjectTestDialog open onClose={nothing} onCreated={nothing} />],
  [
    'adding a learner',
    () => <AddUserDialog open onClose={nothing} onAdded={nothing} onPaymentRequired={nothing} />,
  ],
  [
    'a new assessment',
    () => <ManageAssessmentPage />,
    () => fireEvent.click(screen.getAllByRole('button')[0]!),
  ],
];

describe('every form in Spanish, sent empty', () => {
  it.each(FORMS)('%s says its complaints in Spanish', async (_name, ui, open) => {
    renderPortal(ui(), { translator: spanish });
    open?.();
    const form = await waitFor(() => {
      const found = document.querySelector('form');
      if (!found) throw new Error('no form yet');
      return found;
    });
    await act(async () => {
      fireEvent.submit(form);
    });
    const alerts = await waitFor(() => {
      const shown = [...document.querySelectorAll('.field-error')].map((e) => e.textContent ?? '');
      expect(shown.length).toBeGreaterThan(0);
      return shown;
    });
    for (const text of alerts) {
      expect(text).not.toMatch(ZOD_ENGLISH);
      expect(englishTexts.has(text), `English shown: ${text}`).toBe(false);
    }
  });
});

describe('a server’s 400 shown by its fields’ codes', () => {
  const refusal = (fields: Record<string, string>, fieldCodes: Record<string, unknown>) =>
    new ApiError(400, { statusCode: 400, error: 'Bad Request', message: '', fields, fieldCodes } as never);

  it('says each field from the catalogue by code, in the reader’s language', async () => {
    const arabic = await translatorIn('ar');
    const body = {
      fields: { name: 'Must be at most 3 characters', email: 'Invalid email address', other: 'as sent' },
      fieldCodes: {
        name: { code: 'forms.tooLong', params: { maximum: 3 } },
        email: { code: 'forms.email' },
        other: { code: 'forms.fromANewerServer' },
      },
    };
    expect(fieldTextsOf(spanish, body)).toEqual({
      name: 'Debe tener como máximo 3 caracteres',
      email: 'Introduce un correo electrónico válido',
      other: 'as sent',
    });
    expect(fieldTextsOf(arabic, body).name).toBe('يجب ألا يتجاوز 3 أحرف');
  });

  it('puts an address the server refuses under the field in Spanish', () => {
    const err = refusal({ email: 'Invalid email address' }, { email: { code: 'forms.email' } });
    expect(addUserError(err, spanish).message).toBe('Introduce un correo electrónico válido');
  });
});
