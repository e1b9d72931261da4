import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { userKeys } from './query-keys';
import type { GetProfileResponseJson } from './types';

/** GET internal/users/{userId}/profile: the user's current and original category. */
export function getProfile(userId: string): Promise<GetProfileResponseJson> {
  return http.get<GetProfileResponseJson>(`internal/users/${encodeURIComponent(userId)}/profile`);
}

export function getProfileQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...userKeys.detail(userId), 'profile'] as const,
    queryFn: () => getProfile(userId),
  });
}

export function useProfile(userId: string | undefined) {
  return useQuery({ ...getProfileQueryOptions(userId ?? ''), enabled: Boolean(userId) });
}
