import { useMutation } from '@tanstack/react-query';
import { http } from '../http/client';
import type { CreateIdentityVerificationResponseJson } from './types';

/**
 * POST internal/billing/createIdentityVerification: a Stripe Identity
 * verification session for the signed-in caller themself.
 */
export function createIdentityVerification(): Promise<CreateIdentityVerificationResponseJson> {
  return http.post<CreateIdentityVerificationResponseJson>('internal/billing/createIdentityVerification', {});
}

/** Callers show their own errors. */
export function useCreateIdentityVerification() {
  return useMutation({ mutationFn: createIdentityVerification, meta: { toast: false } });
}
