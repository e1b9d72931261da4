import { http } from '../http/client';
import type { CreateCategoryRequestJson, CreateCategoryResponseJson } from './types';

/** POST internal/categories: creates the user's business, optionally linked to Shopify. */
export function createCategory(body: CreateCategoryRequestJson): Promise<CreateCategoryResponseJson> {
  return http.post<CreateCategoryResponseJson>('internal/categories', body);
}
