import { useMutation } from '@tanstack/react-query';
import { categoryPath, http, type SendAIEmailDigestResponseJson } from '@uplift/platform';

// Here, not in the platform: only Home's digest button (a chunk of its own)
// calls it, so it stays out of every app's first load.

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
