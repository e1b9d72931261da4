import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../http/client';
import { getUserQueryOptions } from './get-user';
import type { SetBillingRequestJson, SetBillingResponseJson } from './types';

/** POST internal/metricsUsers/setBilling (admin): sets a tier by hand (isManuallySet). */
export function setBilling(body: SetBillingRequestJson): Promise<SetBillingResponseJson> {
  return http.post<SetBillingResponseJson>('internal/metricsUsers/setBilling', body);
}

export function useSetBilling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBilling,
    // The user's billingInfo is what changed.
    onSuccess: (_data, body) =>
      body.userId
        ? queryClient.invalidateQueries({ queryKey: getUserQueryOptions(body.userId).queryKey })
        : undefined,
  });
}
