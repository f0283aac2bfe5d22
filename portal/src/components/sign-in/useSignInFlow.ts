import { ApiError } from '@shared/client/client';
import type { MessageKey } from '@shared/i18n/keys';
import { destinationAfterSignIn } from '@shared/rules/navigation';
import { authMessages } from '@shared/schemas/auth-forms';
import type { Role } from '@shared/schemas/common';
import type { User } from '@shared/schemas/user';
import { extensionReady } from '@widgets/core/extension';
import { pending, TENANT_PORTAL_KEY } from '@widgets/core/pending';
import { toast } from '@widgets/ui/Toast';
import {
  type User as FirebaseUser,
  GoogleAuthProvider,
  OAuthProvider,
  sendEmailVerification,
  signInWithCredential,
  signInWithPopup,
} from 'firebase/auth';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { exchangeToken, isVerifiedIdentity, signOutProvider } from '../../lib/auth';
import { appConfig } from '../../lib/config';
import { firebaseAuth } from '../../lib/firebase';
import { currentTranslator } from '../../lib/i18n';
import type { EmulatedAccount } from './EmulatorProviderDialog';
import { VERIFIED_CONTINUE_PATH } from './paths';

export type Provider = 'google' | 'microsoft';

/** The emulator accepts an unsigned JSON ID token naming the account (emulated provider sign-in). */
export function emulatedCredential(p: Provider, account: EmulatedAccount) {
  const sub = Array.from(new TextEncoder().encode(account.email))
    .reduce((h, c) => (Math.imul(h, 31) + c) >>> 0, 7)
    .toString(36);
  const idToken = JSON.stringify({
    sub: `${p}-${sub}`,
    email: account.email,
    email_verified: p === 'google',
    name: account.name,
  });
  return p === 'google'
    ? GoogleAuthProvider.credential(idToken)
    : new OAuthProvider('microsoft.com').credential({ idToken });
}

export function providerFor(p: Provider) {
  if (p === 'google') return new GoogleAuthProvider();
  const ms = new OAuthProvider('microsoft.com');
  ms.addScope('email');
  return ms;
}

/** The identity provider's errors, by code, in words (message keys). */
const PROVIDER_MESSAGES: Record<string, MessageKey> = {
  'auth/invalid-credential': 'auth.wrongCredentials',
  'auth/wrong-password': 'auth.wrongCredentials',
  'auth/user-not-found': 'auth.wrongCredentials',
  'auth/email-already-in-use': authMessages.emailTaken,
  'auth/too-many-requests': 'auth.tooManyAttempts',
  'auth/popup-closed-by-user': 'auth.popupClosed',
  'auth/popup-blocked': 'auth.popupBlocked',
  'auth/network-request-failed': 'auth.providerUnreachable',
  'auth/user-disabled': 'auth.accountDisabled',
  'auth/weak-password': 'auth.weakPassword',
};

/** A readable message for an identity-provider error, in the reader's language. */
export function providerMessage(err: unknown): string {
  const { t } = currentTranslator();
  const code = (err as { code?: string })?.code ?? '';
  const known = PROVIDER_MESSAGES[code];
  if (known) return t(known);
  if (err instanceof ApiError) return err.message;
  return t('common.somethingWentWrong');
}

/**
 * How a sign-in is made: the role sent when registering (and its tenant), and work to finish once
 * Waymark's session exists, before the person is sent on (claiming a roadmap selected before sign-in).
 */
export interface SignInOptions {
  role?: Role;
  tenantId?: string;
  afterSignIn?: (user: User) => Promise<void>;
}

export interface SignInFlow {
  busy: boolean;
  /**
   * Runs a step of signing in (the provider's, then `complete`) with the flow busy; a failure is said in
   * a toast, under `title` when given.
   */
  attempt: (step: () => Promise<void>, title?: string) => Promise<void>;
  /** The unverified person, while the 'Attention!' dialog is open. */
  unverified: FirebaseUser | null;
  closeAttention: () => Promise<void>;
  resendVerification: () => Promise<void>;
  resent: boolean;
  /** Signs up: the notice to verify is open. */
  signUpNotice: boolean;
  /** After the provider has signed the person in. */
  complete: (user: FirebaseUser, mode: 'login' | 'signup', opts?: SignInOptions) => Promise<void>;
  withProvider: (
    p: Provider,
    mode: 'login' | 'signup',
    opts?: SignInOptions,
  ) => Promise<void> /** On the emulator: the provider whose account chooser is open. */;
  emulatedProvider: Provider | null;
  pickEmulatedAccount: (account: EmulatedAccount) => Promise<void>;
  cancelEmulated: () => void;
}

export function useSignInFlow(): SignInFlow {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [unverified, setUnverified] = useState<FirebaseUser | null>(null);
  const [resent, setResent] = useState(false);
  const [signUpNotice, setSignUpNotice] = useState(false);
  const [emulated, setEmulated] = useState<{
    provider: Provider;
    mode: 'login' | 'signup';
    opts?: SignInOptions;
  } | null>(null);

  async function attempt(step: () => Promise<void>, title?: string) {
    setBusy(true);
    try {
      await step();
    } catch (err) {
      toast(providerMessage(err), { kind: 'error', ...(title ? { title } : {}) });
    } finally {
      setBusy(false);
    }
  }

  async function complete(user: FirebaseUser, mode: 'login' | 'signup', opts: SignInOptions = {}) {
    if (mode === 'login' && !isVerifiedIdentity(user)) {
      setUnverified(user);
      return;
    }
    try {
      const waymarkUser = await exchangeToken(
        user,
        mode === 'signup' ? { role: opts.role, tenantId: opts.tenantId } : {},
      );
      // a learner brought in by a mentor's invitation learns in the portal their mentor follows: the
      // stored tenant-portal flag sends the roadmaps they select straight to their copy (mentor §4, §6)
      if (mode === 'signup' && opts.tenantId && waymarkUser.role === 'USER') {
        pending.set(TENANT_PORTAL_KEY, opts.tenantId);
      }
      await opts.afterSignIn?.(waymarkUser);
      const ext =
        waymarkUser.role === 'USER' ? await extensionReady() : { isPresent: false, isLogedIn: false };
      navigate(destinationAfterSignIn(waymarkUser, ext), { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.errorCode === 'EMAIL_NOT_VERIFIED') {
        if (mode === 'signup') {
          setSignUpNotice(true);
          await signOutProvider();
        } else {
          setUnverified(user);
        }
        return;
      }
      await signOutProvider();
      if (err instanceof ApiError && err.errorCode === 'NOT_REGISTERED') {
        toast(currentTranslator().t(authMessages.notRegistered), { kind: 'error', ms: 8000 });
        navigate('/who-i-am');
        return;
      }
      toast(providerMessage(err), {
        kind: 'error',
        title: currentTranslator().t(mode === 'signup' ? 'auth.signUpFailed' : 'auth.signInFailed'),
      });
    }
  }

  return {
    busy,
    attempt,
    unverified,
    resent,
    signUpNotice,
    async closeAttention() {
      setUnverified(null);
      setResent(false);
      await signOutProvider();
    },
    async resendVerification() {
      if (!unverified) return;
      try {
        await sendEmailVerification(unverified, {
          url: `${window.location.origin}${VERIFIED_CONTINUE_PATH}`,
        });
        setResent(true);
        setTimeout(() => {
          setResent(false);
          setUnverified(null);
          void signOutProvider();
        }, 4000);
      } catch (err) {
        toast(providerMessage(err), { kind: 'error' });
      }
    },
    complete,
    emulatedProvider: emulated?.provider ?? null,
    cancelEmulated: () => setEmulated(null),
    async pickEmulatedAccount(account) {
      if (!emulated) return;
      const { provider, mode, opts } = emulated;
      setEmulated(null);
      await attempt(async () => {
        const cred = await signInWithCredential(firebaseAuth(), emulatedCredential(provider, account));
        await complete(cred.user, mode, opts);
      });
    },
    async withProvider(p, mode, opts) {
      if (appConfig().firebase.emulatorHost) {
        setEmulated({ provider: p, mode, opts });
        return;
      }
      await attempt(async () => {
        const cred = await signInWithPopup(firebaseAuth(), providerFor(p));
        await complete(cred.user, mode, opts);
      });
    },
  };
}
