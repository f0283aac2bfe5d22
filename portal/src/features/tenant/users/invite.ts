/**
 * Inviting someone without an account (mentor §4, §7 "Auth provider: sends an e-mail sign-in link"): the
 * server records the invitation and gives the return URL (the sign-up page with tenantId and email); the
 * identity provider sends the e-mail sign-in link to it.
 */
import { sendSignInLinkToEmail } from 'firebase/auth';
import { firebaseAuth } from '../../../lib/firebase';

export type SendInviteLink = (email: string, continueUrl: string) => Promise<void>;

export const sendFirebaseInviteLink: SendInviteLink = (email, continueUrl) =>
  sendSignInLinkToEmail(firebaseAuth(), email, { url: continueUrl, handleCodeInApp: true });
