import { http } from '../http/client';
import { categoryPath } from './category-path';
import type { UpdateContentGenerationParamsRequestJson, UpdateContentGenerationParamsResponseJson } from './types';

/**
 * The editable inputs. The summary (additionalInfo) is written by the service,
 * so the client never sends it; an empty website goes out as null (spec section 5).
 */
export type UpdateContentGenerationParamsBody = Pick<UpdateContentGenerationParamsRequestJson, 'disableWeeklyEmail'> & {
  siteUrl: string | null;
};

/** PATCH .../business-data/contentGenerationParams. */
export function updateContentGenerationParams(
  categoryId: string,
  body: UpdateContentGenerationParamsBody,
): Promise<UpdateContentGenerationParamsResponseJson> {
  return http.patch<UpdateContentGenerationParamsResponseJson>(
    categoryPath(categoryId, 'business-data/contentGenerationParams'),
    body,
  );
}

/** A blank or whitespace-only website means "no website": null on the wire. */
export function siteUrlForWire(input: string): string | null {
  const trimmed = input.trim();
  return trimmed === '' ? null : trimmed;
}
