import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { getCurrentReportQueryOptions } from './get-current-report';
import { getRecentIdeasQueryOptions } from './get-recent-ideas';
import type { InvalidateCampaignIdeasResponseJson } from '../gen/uplift/categories/v1/categories_service_pb';

/** POST .../business-data/campaign-ideas/invalidate: the ideas are regenerated. */
export function invalidateCampaignIdeas(categoryId: string): Promise<InvalidateCampaignIdeasResponseJson> {
  return http.post<InvalidateCampaignIdeasResponseJson>(categoryPath(categoryId, 'business-data/campaign-ideas/invalidate'), {});
}

export function useInvalidateCampaignIdeas() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (categoryId: string) => invalidateCampaignIdeas(categoryId),
    onSuccess: (_data, categoryId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getRecentIdeasQueryOptions(categoryId).queryKey }),
        queryClient.invalidateQueries({ queryKey: getCurrentReportQueryOptions(categoryId).queryKey }),
      ]),
  });
}
