import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { getEmailPreferencesQueryOptions } from './get-email-preferences';
import type { UpdateEmailPreferencesRequestJson, UpdateEmailPreferencesResponseJson } from './types';

export type UpdateEmailPreferencesBody = Omit<UpdateEmailPreferencesRequestJson, 'categoryId'>;

/** PATCH .../business-data/emailPreferences: the daily business report switch. */
export function updateEmailPreferences(
  categoryId: string,
  body: UpdateEmailPreferencesBody,
): Promise<UpdateEmailPreferencesResponseJson> {
  return http.patch<UpdateEmailPreferencesResponseJson>(categoryPath(categoryId, 'business-data/emailPreferences'), body);
}

export function useUpdateEmailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ categoryId, body }: { categoryId: string; body: UpdateEmailPreferencesBody }) =>
      updateEmailPreferences(categoryId, body),
    onSuccess: (_data, { categoryId }) =>
      queryClient.invalidateQueries({ queryKey: getEmailPreferencesQueryOptions(categoryId).queryKey }),
  });
}
