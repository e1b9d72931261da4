import { http } from '../http/client';
import { categoryPath } from './category-path';
import type { InvalidateCampaignIdeasResponseJson } from '../gen/uplift/categories/v1/categories_service_pb';

/** POST .../business-data/campaign-ideas/invalidate: the ideas are regenerated. */
export function invalidateCampaignIdeas(categoryId: string): Promise<InvalidateCampaignIdeasResponseJson> {
  return http.post<InvalidateCampaignIdeasResponseJson>(categoryPath(categoryId, 'business-data/campaign-ideas/invalidate'), {});
}
