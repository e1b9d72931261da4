import { useMutation } from '@tanstack/react-query';
import { http } from '../http/client';
import type {
  CreateRecoveryCodesResponseJson,
  UseRecoveryCodeRequestJson,
  UseRecoveryCodeResponseJson,
} from './types';

/**
 * POST internal/users/createRecoveryCodes: new two-step recovery codes for
 * the signed-in person, replacing the old ones. The server asks for a sign-in
 * (password and a current code) within the last ten minutes.
 */
export async function createRecoveryCodes(): Promise<string[]> {
  const response = await http.post<CreateRecoveryCodesResponseJson>('internal/users/createRecoveryCodes', {});
  return response.codes ?? [];
}

export function useCreateRecoveryCodes() {
  return useMutation({ mutationFn: createRecoveryCodes, meta: { toast: false } });
}

/**
 * POST internal/users/useRecoveryCode (no sign-in): spends one code of the
 * account with `email` and turns its two-step sign-in off.
 */
export function redeemRecoveryCode(email: string, code: string): Promise<UseRecoveryCodeResponseJson> {
  const body: UseRecoveryCodeRequestJson = { email, code };
  return http.post<UseRecoveryCodeResponseJson>('internal/users/useRecoveryCode', body);
}
