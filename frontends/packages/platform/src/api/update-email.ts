import { useMutation } from '@tanstack/react-query';
import { http } from '../http/client';
import type { UpdateEmailRequestJson, UpdateEmailResponseJson } from './types';

/** POST internal/users/{userId}/updateEmail: changes the sign-in email. */
export function updateEmail(userId: string, email: string): Promise<UpdateEmailResponseJson> {
  const body: UpdateEmailRequestJson = { email };
  return http.post<UpdateEmailResponseJson>(`internal/users/${encodeURIComponent(userId)}/updateEmail`, body);
}

export function useUpdateEmail(userId: string) {
  // No cache to invalidate: success reloads the whole app (spec section 4).
  return useMutation({ mutationFn: (email: string) => updateEmail(userId, email), meta: { toast: false } });
}
