/**
 * The portal decides what a tenant call's refusal means by the code the server sends (errorCode), never by
 * its English message: reworded messages change nothing, and the words shown are the catalogue's, in the
 * reader's language (issue 31).
 */
import { ApiError } from '@shared/client/client';
import { TENANT_ERROR_CODES } from '@shared/schemas/tenant';
import { describe, expect, it } from 'vitest';
import { translatorIn } from '../../testing/render';
import { assignFailure } from './user-detail/UserRoadmapPage';
import { addUserError } from './users/AddUserDialog';

const refusal = (statusCode: number, body: Record<string, unknown>) =>
  new ApiError(statusCode, {
    statusCode,
    error: 'Error',
    message: 'Something else entirely (reworded)',
    ...body,
  });

describe("a tenant call's refusal, by its code", () => {
  it('offers Invite for an unknown address whatever the English message says, in Spanish and Arabic', async () => {
    const err = refusal(404, { errorCode: TENANT_ERROR_CODES.emailNotFound, isAllowToInvite: true });
    expect(addUserError(err, await translatorIn('es'))).toEqual({
      message: 'El usuario no existe; invítalo',
      invite: true,
    });
    const ar = await translatorIn('ar');
    expect(addUserError(err, ar)).toEqual({ message: ar.t('users.inviteThem'), invite: true });
    expect(ar.t('users.inviteThem')).not.toBe('User does not exist, please invite them');
    const noInvite = refusal(404, { errorCode: TENANT_ERROR_CODES.emailNotFound, isAllowToInvite: false });
    expect(addUserError(noInvite, await translatorIn('es')).invite).toBe(false);
  });

  it('says the two-roadmaps limit from its code, not from the message it starts with', async () => {
    const es = await translatorIn('es');
    const err = refusal(400, { errorCode: TENANT_ERROR_CODES.roadmapLimit, field: 'userId' });
    expect(assignFailure(err, es)).toBe(es.t('userRoadmap.limit'));
    // the English text the old comparison looked for, without the code, is just a message
    const wordsOnly = refusal(400, { message: 'Already two Roadmaps are assigned' });
    expect(assignFailure(wordsOnly, es)).toBe('Already two Roadmaps are assigned');
  });
});
