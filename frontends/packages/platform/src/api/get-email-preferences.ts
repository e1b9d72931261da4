import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { GetEmailPreferencesResponseJson } from './types';

/** GET internal/categories/{categoryId}/emailPreferences: read for disableBusinessReport. */
export function getEmailPreferences(categoryId: string): Promise<GetEmailPreferencesResponseJson> {
  return http.get<GetEmailPreferencesResponseJson>(categoryPath(categoryId, 'emailPreferences'));
}

export function getEmailPreferencesQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.emailPreferences(categoryId),
    queryFn: () => getEmailPreferences(categoryId),
  });
}

export function useEmailPreferences(categoryId: string | undefined) {
  return useQuery({ ...getEmailPreferencesQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}
