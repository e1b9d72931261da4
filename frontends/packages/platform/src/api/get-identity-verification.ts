import { useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { userKeys } from './query-keys';
import type { GetIdentityVerificationResponseJson } from './types';

/** The outcomes Stripe's webhooks report; '' when none was recorded. */
export type IdentityVerificationStatus = '' | 'verified' | 'requires_input' | 'canceled';

/**
 * GET internal/billing/identityVerification: the signed-in person's latest
 * identity verification outcome, as billing recorded it from Stripe.
 */
export function getIdentityVerification(): Promise<GetIdentityVerificationResponseJson> {
  return http.get<GetIdentityVerificationResponseJson>('internal/billing/identityVerification');
}

/** While Stripe checks a submission: the outcome arrives by webhook within minutes. */
export const IDENTITY_POLL_MS = 5000;

/** `pollWhile` keeps asking every IDENTITY_POLL_MS while it holds for the latest answer. */
export function useIdentityVerification(
  userId: string | undefined,
  pollWhile?: (latest: GetIdentityVerificationResponseJson | undefined) => boolean,
) {
  return useQuery({
    queryKey: userKeys.identityVerification(userId ?? ''),
    queryFn: getIdentityVerification,
    enabled: Boolean(userId),
    refetchInterval: (query) => (pollWhile?.(query.state.data) ? IDENTITY_POLL_MS : false),
  });
}
