import { http } from '../http/client';
import type { FinishGoogleAuthRequestJson, FinishGoogleAuthResponseJson } from './types';

/** POST internal/users/finishGoogleAuth: stores the user after the Google popup (idempotent). */
export function finishGoogleAuth(body: FinishGoogleAuthRequestJson): Promise<FinishGoogleAuthResponseJson> {
  return http.post<FinishGoogleAuthResponseJson>('internal/users/finishGoogleAuth', body);
}
