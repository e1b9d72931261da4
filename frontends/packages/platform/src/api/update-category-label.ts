import { http } from '../http/client';
import { categoryPath } from './category-path';
import type { UpdateLabelResponseJson } from './types';

/** PUT internal/categories/{categoryId}/label: renames the business. */
export function updateCategoryLabel(categoryId: string, name: string): Promise<UpdateLabelResponseJson> {
  return http.put<UpdateLabelResponseJson>(categoryPath(categoryId, 'label'), { name });
}
