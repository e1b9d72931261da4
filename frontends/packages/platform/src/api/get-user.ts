import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { userKeys } from './query-keys';
import type { UserJson } from './types';

/** GET internal/users/{userId}. */
export function getUser(userId: string): Promise<UserJson> {
  return http.get<UserJson>(`internal/users/${encodeURIComponent(userId)}`);
}

export function getUserQueryOptions(userId: string) {
  return queryOptions({
    queryKey: userKeys.detail(userId),
    queryFn: () => getUser(userId),
  });
}

export function useUser(userId: string | undefined) {
  return useQuery({ ...getUserQueryOptions(userId ?? ''), enabled: Boolean(userId) });
}
