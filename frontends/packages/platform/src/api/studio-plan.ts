import { queryOptions, useQuery } from '@tanstack/react-query';
import { categoryKeys, categoryPath, http } from '@uplift/platform';
import type { GetStudioPlanResponseJson } from './types';

/** GET .../studio/plan: what the store's plan allows in the studio (the server decides). */
export function getStudioPlan(categoryId: string): Promise<GetStudioPlanResponseJson> {
  return http.get<GetStudioPlanResponseJson>(categoryPath(categoryId, 'studio/plan'));
}

export function getStudioPlanQueryOptions(categoryId: string) {
  return queryOptions({ queryKey: categoryKeys.studioPlan(categoryId), queryFn: () => getStudioPlan(categoryId) });
}

export function useStudioPlan(categoryId: string | undefined) {
  return useQuery({ ...getStudioPlanQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}
