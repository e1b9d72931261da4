package app

import (
	"context"
	"time"

	"uplift.dev/users/internal/domain"
)

// ListAuditLog returns the last domain.AuditLogWindow of userID's audit log,
// newest first: with domain.AuditAsSubject what others did on their behalf,
// with domain.AuditAsActor what they did for others. A user reads only
// their own log; admins read anyone's.
func (a *App) ListAuditLog(ctx context.Context, caller domain.Caller, userID, role string) ([]domain.AuditRecord, error) {
	if err := domain.ValidateID("userId", userID); err != nil {
		return nil, err
	}
	r, err := domain.ParseAuditRole(role)
	if err != nil {
		return nil, err
	}
	if caller.UID == "" || (caller.UID != userID && !caller.Admin) {
		return nil, domain.ErrPermissionDenied
	}
	return a.repo.AuditLog(ctx, domain.AuditQuery{
		UserID: userID, Role: r, Since: a.now().Add(-domain.AuditLogWindow), Limit: domain.AuditLogLimit,
	})
}

// PurgeAuditLog deletes audit rows older than retention. The rows outlive
// the users and data they describe until then.
func (a *App) PurgeAuditLog(ctx context.Context, retention time.Duration) (int64, error) {
	return a.repo.PurgeAudit(ctx, a.now().Add(-retention))
}

// RunAuditRetention purges expired audit rows now and then every interval
// until ctx ends. A failed purge is logged and tried again next time.
func (a *App) RunAuditRetention(ctx context.Context, retention, interval time.Duration) error {
	for {
		n, err := a.PurgeAuditLog(ctx, retention)
		if err != nil && ctx.Err() == nil {
			a.log.WarnContext(ctx, "audit retention purge failed", "err", err)
		} else if n > 0 {
			a.log.InfoContext(ctx, "audit rows past retention deleted", "rows", n)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}
