package app

import (
	"context"

	"uplift.dev/users/internal/domain"
)

// Unsubscribe opts user id out of email. Only the user themselves may: it
// is their choice, made from a link or their settings. The change
// implies UserUnsubscribed, which the digest and categories services act on;
// repeating it changes and publishes nothing.
func (a *App) Unsubscribe(ctx context.Context, caller domain.Caller, id string) error {
	if err := domain.ValidateID("userId", id); err != nil {
		return err
	}
	if caller.UID == "" || caller.UID != id {
		return domain.ErrPermissionDenied
	}
	now := a.now()
	_, err := a.update(ctx, id, func(u *domain.User) ([]domain.AuditEntry, error) {
		u.Unsubscribe(now)
		return nil, nil
	})
	return err
}
