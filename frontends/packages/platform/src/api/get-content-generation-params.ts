import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { GetContentGenerationParamsResponseJson } from './types';

/**
 * GET .../business-data/contentGenerationParams: the website, the weekly-email
 * switch and the summary (additionalInfo) the service wrote from the website.
 */
export function getContentGenerationParams(categoryId: string): Promise<GetContentGenerationParamsResponseJson> {
  return http.get<GetContentGenerationParamsResponseJson>(
    categoryPath(categoryId, 'business-data/contentGenerationParams'),
  );
}

export function getContentGenerationParamsQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.contentGenerationParams(categoryId),
    queryFn: () => getContentGenerationParams(categoryId),
  });
}

export function useContentGenerationParams(categoryId: string | undefined) {
  return useQuery({ ...getContentGenerationParamsQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}
