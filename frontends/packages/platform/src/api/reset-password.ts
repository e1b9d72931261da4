import { useMutation } from '@tanstack/react-query';
import { http } from '../http/client';
import type { ResetPasswordRequestJson, ResetPasswordResponseJson } from './types';

/** POST internal/users/resetPassword: emails a reset link (succeeds for unknown emails too). */
export function resetPassword(email: string): Promise<ResetPasswordResponseJson> {
  const body: ResetPasswordRequestJson = { email };
  return http.post<ResetPasswordResponseJson>('internal/users/resetPassword', body);
}

export function useResetPassword() {
  // No toast: the dialogs show the failure in place.
  return useMutation({ mutationFn: resetPassword, meta: { toast: false } });
}
