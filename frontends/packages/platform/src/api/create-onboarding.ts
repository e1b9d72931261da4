import { http } from '../http/client';
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
