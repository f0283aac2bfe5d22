import type { PublicConfig } from '@shared/contract/system';
import { type FirebaseApp, initializeApp } from 'firebase/app';
import { type Auth, connectAuthEmulator, getAuth } from 'firebase/auth';

let auth: Auth | null = null;

export function initFirebase(config: PublicConfig): Auth {
  if (auth) return auth;
  const app: FirebaseApp = initializeApp({
    apiKey: config.firebase.apiKey,
    authDomain: config.firebase.authDomain,
    projectId: config.firebase.projectId,
  });
  auth = getAuth(app);
  if (config.firebase.emulatorHost) {
    connectAuthEmulator(auth, `http://${config.firebase.emulatorHost}`, { disableWarnings: true });
  }
  return auth;
}

export function firebaseAuth(): Auth {
  if (!auth) throw new Error('Firebase is not initialised yet');
  return auth;
}
