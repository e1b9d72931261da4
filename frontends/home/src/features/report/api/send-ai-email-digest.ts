import { useMutation, useMutationState } from '@tanstack/react-query';
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

const digestKey = (categoryId: string) => ['sendAIEmailDigest', categoryId] as const;

/**
 * The button's ask and its latest outcome. The outcome is read from the
 * mutation cache, not the hook's own state: Home redraws its ideas card when
 * the website review finishes, and the owner who asked just before must
 * still read that the digest went.
 */
export function useSendAIEmailDigest(categoryId: string) {
  const send = useMutation({
    mutationKey: digestKey(categoryId),
    mutationFn: () => sendAIEmailDigest(categoryId),
    // The button says what happened, beside itself.
    meta: { toast: false },
  });
  const last = useMutationState({
    filters: { mutationKey: digestKey(categoryId) },
    select: (m) => ({ status: m.state.status, error: m.state.error }),
  }).at(-1);
  return {
    send: () => send.mutate(),
    isPending: last?.status === 'pending',
    isSuccess: last?.status === 'success',
    isError: last?.status === 'error',
    error: last?.error,
  };
}
