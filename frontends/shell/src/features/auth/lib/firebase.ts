import { initializeApp } from 'firebase/app';
import { connectAuthEmulator, getAuth, type Auth } from 'firebase/auth';
import type { Env } from '@uplift/platform';

/** Creates the Firebase app and Auth; points Auth at the emulator when configured. */
export function initFirebase(env: Env): Auth {
  const app = initializeApp({
    apiKey: env.firebaseApiKey,
    authDomain: `${env.firebaseProjectId}.firebaseapp.com`,
    projectId: env.firebaseProjectId,
    appId: env.firebaseAppId,
    measurementId: env.firebaseMeasurementId,
  });
  const auth = getAuth(app);
  if (env.authEmulatorUrl) connectAuthEmulator(auth, env.authEmulatorUrl, { disableWarnings: true });
  return auth;
}
