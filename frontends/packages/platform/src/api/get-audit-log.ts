import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { userKeys } from './query-keys';
import type { ListAuditLogResponseJson } from './types';

/**
 * Which side of the audit log: 'subject', what others did on the user's
 * behalf; 'actor', what the user did on behalf of others.
 */
export type AuditLogRole = 'subject' | 'actor';

/** GET internal/users/{userId}/auditLog?role=: the last 90 days, newest first. */
export function getAuditLog(userId: string, role: AuditLogRole): Promise<ListAuditLogResponseJson> {
  return http.get<ListAuditLogResponseJson>(
    `internal/users/${encodeURIComponent(userId)}/auditLog?role=${encodeURIComponent(role)}`,
  );
}

export function getAuditLogQueryOptions(userId: string, role: AuditLogRole) {
  return queryOptions({
    queryKey: userKeys.auditLog(userId, role),
    queryFn: () => getAuditLog(userId, role),
  });
}

export function useAuditLog(userId: string | undefined, role: AuditLogRole) {
  return useQuery({ ...getAuditLogQueryOptions(userId ?? '', role), enabled: Boolean(userId) });
}

/** Audit actions in words a store owner reads; unknown ones are shown as written. */
const ACTION_WORDS: Record<string, string> = {
  switch_metrics_category: "Switched to the business ('View as')",
  UpdateLabel: 'Changed the business name',
  UpdateContentGenerationParams: 'Changed the website or weekly review email',
  UpdateEmailPreferences: 'Changed email preferences',
  DisableBusinessReport: 'Turned off the daily business report',
  InvalidateCampaignIdeas: 'Asked for new campaign ideas',
  SendAIEmailDigest: 'Sent the AI email digest',
  admin_update_email: 'Changed the sign-in email',
  admin_delete_user: 'Deleted the account',
  set_billing: 'Set the plan by hand',
  grant_uplifter: 'Granted uplifter rights',
  revoke_uplifter: 'Revoked uplifter rights',
  grant_admin: 'Granted admin rights',
  revoke_admin: 'Revoked admin rights',
};

export function auditActionText(action: string | undefined): string {
  return (action && ACTION_WORDS[action]) || action || 'Unknown action';
}
