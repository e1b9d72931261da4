import { useMutation } from '@tanstack/react-query';
import { http } from '../http/client';
import type { CreateStripeCheckoutRequestJson, CreateStripeCheckoutResponseJson } from './types';

export type CreateStripeCheckoutBody = Omit<CreateStripeCheckoutRequestJson, 'categoryId'>;

/**
 * POST internal/categories/{categoryId}/createStripeCheckout: a Stripe Checkout
 * session; the browser goes to the returned URL.
 */
export function createStripeCheckout(
  categoryId: string,
  body: CreateStripeCheckoutBody,
): Promise<CreateStripeCheckoutResponseJson> {
  return http.post<CreateStripeCheckoutResponseJson>(
    `internal/categories/${encodeURIComponent(categoryId)}/createStripeCheckout`,
    body,
  );
}

/**
 * Nothing cached changes here: the plan changes only once Stripe's webhook
 * lands, so there is nothing to invalidate. Callers show their own errors.
 */
export function useCreateStripeCheckout() {
  return useMutation({
    mutationFn: ({ categoryId, body }: { categoryId: string; body: CreateStripeCheckoutBody }) =>
      createStripeCheckout(categoryId, body),
    meta: { toast: false },
  });
}
