import { http } from '../http/client';
import { categoryPath } from './category-path';
import type { UpdateEmailPreferencesRequestJson, UpdateEmailPreferencesResponseJson } from './types';

export type UpdateEmailPreferencesBody = Omit<UpdateEmailPreferencesRequestJson, 'categoryId'>;

/** PATCH .../business-data/emailPreferences: the daily business report switch. */
export function updateEmailPreferences(
  categoryId: string,
  body: UpdateEmailPreferencesBody,
): Promise<UpdateEmailPreferencesResponseJson> {
  return http.patch<UpdateEmailPreferencesResponseJson>(categoryPath(categoryId, 'business-data/emailPreferences'), body);
}
