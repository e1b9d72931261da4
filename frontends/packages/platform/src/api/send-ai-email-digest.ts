import { useMutation } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import type { SendAIEmailDigestResponseJson } from '../gen/uplift/categories/v1/categories_service_pb';

/**
 * POST internal/categories/{categoryId}/sendAIEmailDigest: the current
 * insights and ideas go to the owner's account email now (a second request
 * within a minute is a 429 saying so).
 */
export function sendAIEmailDigest(categoryId: string): Promise<SendAIEmailDigestResponseJson> {
  return http.post<SendAIEmailDigestResponseJson>(categoryPath(categoryId, 'sendAIEmailDigest'), {});
}

export function useSendAIEmailDigest() {
  return useMutation({
    mutationFn: (categoryId: string) => sendAIEmailDigest(categoryId),
    // The button says what happened, beside itself.
    meta: { toast: false },
  });
}
