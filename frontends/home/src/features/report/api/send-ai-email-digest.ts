import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

const sentKey = (categoryId: string) => ['sendAIEmailDigest', 'sent', categoryId] as const;

/**
 * The button's ask and its outcome. That it went is also kept in the query
 * cache: Home redraws its ideas card when the website review finishes, and
 * the owner who asked just before must still read that the digest went.
 * (Only hooks the shell's shared copy of react-query already carries.)
 */
export function useSendAIEmailDigest(categoryId: string) {
  const client = useQueryClient();
  const send = useMutation({
    mutationFn: () => sendAIEmailDigest(categoryId),
    onSuccess: () => client.setQueryData(sentKey(categoryId), true),
    // The button says what happened, beside itself.
    meta: { toast: false },
  });
  const sent = useQuery({ queryKey: sentKey(categoryId), queryFn: () => false, enabled: false }).data === true;
  return {
    send: () => send.mutate(),
    isPending: send.isPending,
    isSuccess: send.isSuccess || (sent && send.isIdle),
    isError: send.isError,
    error: send.error,
  };
}
