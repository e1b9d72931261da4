import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { getCategoryLabelQueryOptions } from './get-category-label';
import type { UpdateLabelResponseJson } from './types';

/** PUT internal/categories/{categoryId}/label: renames the business. */
export function updateCategoryLabel(categoryId: string, name: string): Promise<UpdateLabelResponseJson> {
  return http.put<UpdateLabelResponseJson>(categoryPath(categoryId, 'label'), { name });
}

export function useUpdateCategoryLabel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ categoryId, name }: { categoryId: string; name: string }) => updateCategoryLabel(categoryId, name),
    onSuccess: (_data, { categoryId }) =>
      queryClient.invalidateQueries({ queryKey: getCategoryLabelQueryOptions(categoryId).queryKey }),
  });
}
