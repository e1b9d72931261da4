import { useMutation } from '@tanstack/react-query';
import { http } from '../http/client';
import type { CreateIdentityVerificationRequestJson, CreateIdentityVerificationResponseJson } from './types';

/** `?identity=returned`: a hosted verification page led the browser back; the shell opens Account Settings. */
export const IDENTITY_RETURN_PARAM = 'identity';
export const IDENTITY_RETURNED = 'returned';

/** `href` with `?identity=returned`, for a hosted verification page to lead back to. */
export function identityReturnUrl(href: string): string {
  const url = new URL(href);
  url.hash = '';
  url.searchParams.set(IDENTITY_RETURN_PARAM, IDENTITY_RETURNED);
  return url.toString();
}

/**
 * POST internal/billing/createIdentityVerification: a Stripe Identity
 * verification session for the signed-in caller themself; a hosted page
 * (Stripe's, or the local test stack's stand-in) leads back to `returnUrl`.
 */
export function createIdentityVerification(returnUrl?: string): Promise<CreateIdentityVerificationResponseJson> {
  const body: CreateIdentityVerificationRequestJson = returnUrl ? { returnUrl } : {};
  return http.post<CreateIdentityVerificationResponseJson>('internal/billing/createIdentityVerification', body);
}

/** Callers show their own errors. */
export function useCreateIdentityVerification() {
  return useMutation({ mutationFn: createIdentityVerification, meta: { toast: false } });
}
