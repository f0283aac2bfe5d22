/** The calls <wm-award> makes, without the contract's zod schemas (checked against it by calls.test.ts). */
import type * as Awards from '@shared/contract/awards';
import type * as Credentials from '@shared/contract/credentials';
import { light } from '../embed/calls';

export const awardCalls = {
  certificateInfo: light<typeof Awards.certificateInfo>(
    'GET',
    '/certificate/certificate-info-v2/{id}',
    'optional',
  ),
  credentialStatus: light<typeof Credentials.credentialStatus>('GET', '/credentials/{id}/status', 'optional'),
};
