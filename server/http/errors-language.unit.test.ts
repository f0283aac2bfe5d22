/**
 * A refusal is said in the language the request asks for (decision 040): its message and the message of
 * the field it names, a key's values filled in; English for logs and for anyone who asks for none.
 */
import { localMessage } from '@shared/i18n/message';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_MESSAGES } from '../catalogue/learning';
import { translatorFor } from '../lib/i18n';
import { badRequest, notFound } from './errors';

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
});
