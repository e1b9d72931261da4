import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { GetLabelResponseJson } from './types';

/** GET internal/categories/{categoryId}/label: the business name. */
export function getCategoryLabel(categoryId: string): Promise<GetLabelResponseJson> {
  return http.get<GetLabelResponseJson>(categoryPath(categoryId, 'label'));
}

export function getCategoryLabelQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.label(categoryId),
    queryFn: () => getCategoryLabel(categoryId),
  });
}

export function useCategoryLabel(categoryId: string | undefined) {
  return useQuery({ ...getCategoryLabelQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}
