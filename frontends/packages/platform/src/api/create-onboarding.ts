import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../http/client';
import { getProfileQueryOptions } from './get-profile';
import type { CreateOnboardingRequestJson, CreateOnboardingResponseJson } from './types';

export type CreateOnboardingBody = Omit<CreateOnboardingRequestJson, 'userId'>;

/** POST internal/users/{userId}/onboarding: gives the user a profile (category). */
export function createOnboarding(
  userId: string,
  body: CreateOnboardingBody = {},
): Promise<CreateOnboardingResponseJson> {
  return http.post<CreateOnboardingResponseJson>(
    `internal/users/${encodeURIComponent(userId)}/onboarding`,
    body,
  );
}

export function useCreateOnboarding(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateOnboardingBody) => createOnboarding(userId, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: getProfileQueryOptions(userId).queryKey }),
  });
}
