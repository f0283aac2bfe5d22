/**
 * A refusal is said in the language the request asks for (decision 040): its message and the message of
 * the field it names, a key's values filled in; English for logs and for anyone who asks for none.
 */
import { localMessage } from '@shared/i18n/message';
import { AddUserInput } from '@shared/schemas/tenant';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CATALOGUE_MESSAGES } from '../catalogue/learning';
import { translatorFor } from '../lib/i18n';
import { badRequest, fromZod, notFound, parseOptions } from './errors';

describe('a refusal in the reader’s language', () => {
  it('says the message and the field’s message in Spanish, and English to the logs', () => {
    const refusal = badRequest(CATALOGUE_MESSAGES.previewNotFound, 'assignedRoadmapId');
    expect(refusal.message).toBe('This roadmap link is not valid. Please select the roadmap again.');
    const body = refusal.toBody(translatorFor('es'));
    const spanish = translatorFor('es').t(CATALOGUE_MESSAGES.previewNotFound);
    expect(spanish).not.toBe(refusal.message);
    expect(body.message).toBe(spanish);
    expect(body.fields).toEqual({ assignedRoadmapId: spanish });
    expect(refusal.toBody().fields).toEqual({ assignedRoadmapId: refusal.message });
  });

  it('fills in a message’s values in the field’s message too', () => {
    const refusal = badRequest(localMessage('errors.alreadyUsed', { field: 'email' }), 'email');
    const arabic = translatorFor('ar').t('errors.alreadyUsed', { field: 'email' });
    expect(refusal.toBody(translatorFor('ar')).fields).toEqual({ email: arabic });
  });

  it('says a missing roadmap in Arabic', () => {
    const body = notFound(CATALOGUE_MESSAGES.roadmapNotFound).toBody(translatorFor('ar'));
    expect(body.message).toBe(translatorFor('ar').t(CATALOGUE_MESSAGES.roadmapNotFound));
    expect(body.message).toMatch(/[\u0600-\u06FF]/);
  });

  it('says zod’s own complaints by code, in Spanish and Arabic, each field with its code and values', () => {
    const schema = z.object({
      name: z.string().max(3),
      age: z.number().int().min(18),
      email: z.email(),
      tags: z.array(z.string()).min(2),
      level: z.enum(['low', 'high']),
      title: z.string(),
    });
    const parsed = schema.safeParse(
      { name: 'Ada Lovelace', age: 9, email: 'nope', tags: [], level: 'mid' },
      parseOptions(),
    );
    if (parsed.success) throw new Error('expected a failure');
    const refusal = fromZod(parsed.error);
    const english = refusal.toBody(translatorFor('en'));
    expect(english.fields).toEqual({
      name: 'Must be at most 3 characters',
      age: 'Must be at least 18',
      email: 'Enter a valid email address',
      tags: 'Choose at least 2 items',
      level: 'Choose one of the options',
      title: 'Required',
    });
    expect(english.message).toBe('name: Must be at most 3 characters');
    expect(english.fieldCodes).toEqual({
      name: { code: 'forms.tooLong', params: { maximum: 3 } },
      age: { code: 'forms.atLeast', params: { minimum: 18 } },
      email: { code: 'forms.email' },
      tags: { code: 'forms.tooFew', params: { minimum: 2 } },
      level: { code: 'forms.choose' },
      title: { code: 'forms.required' },
    });
    const es = translatorFor('es');
    const spanish = refusal.toBody(es);
    expect(spanish.fields).toEqual({
      name: 'Debe tener como máximo 3 caracteres',
      age: 'Debe ser como mínimo 18',
      email: 'Introduce un correo electrónico válido',
      tags: 'Elige al menos 2 elementos',
      level: 'Elige una de las opciones',
      title: 'Obligatorio',
    });
    expect(spanish.message).toBe('name: Debe tener como máximo 3 caracteres');
    const arabic = refusal.toBody(translatorFor('ar'));
    expect(arabic.fields?.name).toBe('يجب ألا يتجاوز 3 أحرف');
    expect(arabic.fields?.title).toBe('مطلوب');
  });

  it('keeps a schema’s own English for English readers and says it by code to the others', () => {
    const parsed = AddUserInput.safeParse({ email: '' }, parseOptions());
    if (parsed.success) throw new Error('expected a failure');
    const refusal = fromZod(parsed.error);
    expect(refusal.toBody(translatorFor('en')).fields).toEqual({ email: 'Required' });
    expect(refusal.toBody(translatorFor('es')).fields).toEqual({ email: 'Obligatorio' });
    expect(refusal.toBody(translatorFor('es')).fieldCodes).toEqual({ email: { code: 'forms.required' } });
  });
});
