import { auditActionText, type AuditLogRole } from '../api/get-audit-log';
import type { AuditLogEntryJson } from '../api/types';
import { useStoreFormat } from '../format/use-store-format';

/**
 * The audit log as a list a person reads: when, who (the other person: the
 * actor for 'subject', the owner for 'actor'), and what they did. Used by
 * Account Settings (owner) and the uplifter's dashboard.
 */
export function AuditLogList({
  entries,
  role,
  emptyText,
}: {
  entries: AuditLogEntryJson[];
  role: AuditLogRole;
  emptyText: string;
}) {
  const format = useStoreFormat();
  if (entries.length === 0) return <p className="u-muted">{emptyText}</p>;
  return (
    <ul className="audit-log">
      {entries.map((entry, index) => {
        const when = entry.createTime ? new Date(entry.createTime) : undefined;
        const other =
          role === 'subject'
            ? entry.actorEmail || 'A deleted user'
            : entry.ownerEmail || (entry.ownerId ? 'A deleted user' : 'Nobody in particular');
        return (
          <li key={`${entry.createTime}-${index}`} className="audit-log__entry">
            <span className="audit-log__what">{auditActionText(entry.action)}</span>
            {entry.detail && <span className="audit-log__detail"> ({entry.detail})</span>}
            <span className="audit-log__who">
              {role === 'subject' ? 'by ' : 'for '}
              {other}
            </span>
            {when && !Number.isNaN(when.getTime()) && (
              <time className="audit-log__when u-muted" dateTime={when.toISOString()}>
                {format.moment(when)}
              </time>
            )}
          </li>
        );
      })}
    </ul>
  );
}
