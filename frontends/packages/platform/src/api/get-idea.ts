import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { IdeaJson } from './types';

/** GET .../business-data/ideas/{ideaId}: one campaign idea (the gateway answers with the idea itself). */
export function getIdea(categoryId: string, ideaId: string): Promise<IdeaJson> {
  return http.get<IdeaJson>(categoryPath(categoryId, `business-data/ideas/${encodeURIComponent(ideaId)}`));
}

export function getIdeaQueryOptions(categoryId: string, ideaId: string) {
  return queryOptions({
    queryKey: categoryKeys.idea(categoryId, ideaId),
    queryFn: () => getIdea(categoryId, ideaId),
  });
}

export function useIdea(categoryId: string | undefined, ideaId: string | undefined) {
  return useQuery({
    ...getIdeaQueryOptions(categoryId ?? '', ideaId ?? ''),
    enabled: Boolean(categoryId && ideaId),
  });
}
