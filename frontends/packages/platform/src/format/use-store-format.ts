import { useCategoryId } from '../api/use-category-id';
import { useContentGenerationParams } from '../api/get-content-generation-params';
import { storeFormat, type StoreFormat } from './store-format';

/**
 * The signed-in store's formatter. `timeZone` is the zone of the numbers at
 * hand when a page has one (Analytics' shop zone); otherwise the business
 * profile's zone, which the weekly review and the daily report follow too.
 */
export function useStoreFormat(timeZone?: string): StoreFormat {
  const { categoryId } = useCategoryId();
  const params = useContentGenerationParams(timeZone ? undefined : categoryId);
  return storeFormat(timeZone || params.data?.timeZone);
}
