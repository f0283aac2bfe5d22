/**
 * The identity provider's SDK (Firebase Auth), set up on first use from the server's public settings.
 * Only the pages that sign people in, sign them up or invite them import this module, so the SDK is not
 * part of what every page loads (docs/PERFORMANCE.md, the landing page's initial JavaScript).
 */

import { interfaceLanguage } from '@widgets/core/language';
import { type FirebaseApp, initializeApp } from 'firebase/app';
import { type Auth, connectAuthEmulator, getAuth, signOut } from 'firebase/auth';
import { appConfig } from './config';

let auth: Auth | null = null;

export function firebaseAuth(): Auth {
  if (auth) return auth;
  const config = appConfig();
  const app: FirebaseApp = initializeApp({
    apiKey: config.firebase.apiKey,
    authDomain: config.firebase.authDomain,
    projectId: config.firebase.projectId,
  });
  auth = getAuth(app);
  // the provider's own mail (verification, sign-in links) in the language the person reads
  auth.languageCode = interfaceLanguage.peek();
  interfaceLanguage.subscribe((locale) => {
    if (auth) auth.languageCode = locale;
  });
  if (config.firebase.emulatorHost) {
    connectAuthEmulator(auth, `http://${config.firebase.emulatorHost}`, { disableWarnings: true });
  }
  return auth;
}

/** Signs out of the identity provider (it keeps its own session in the browser). */
export async function signOutOfProvider(): Promise<void> {
  await signOut(firebaseAuth());
}
