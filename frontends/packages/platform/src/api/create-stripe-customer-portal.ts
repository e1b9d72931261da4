import { useMutation } from '@tanstack/react-query';
import { http } from '../http/client';
import type { CreateStripeCustomerPortalResponseJson } from './types';

/**
 * POST internal/categories/{categoryId}/createStripeCustomerPortal: a Stripe
 * customer portal session that returns to redirectUrl.
 */
export function createStripeCustomerPortal(
  categoryId: string,
  redirectUrl: string,
): Promise<CreateStripeCustomerPortalResponseJson> {
  return http.post<CreateStripeCustomerPortalResponseJson>(
    `internal/categories/${encodeURIComponent(categoryId)}/createStripeCustomerPortal`,
    { redirectUrl },
  );
}

/** Only yields a URL to leave for; callers show their own errors. */
export function useCreateStripeCustomerPortal() {
  return useMutation({
    mutationFn: ({ categoryId, redirectUrl }: { categoryId: string; redirectUrl: string }) =>
      createStripeCustomerPortal(categoryId, redirectUrl),
    meta: { toast: false },
  });
}
