package app

import (
	"context"

	"uplift.dev/users/internal/domain"
)

// DeleteUser removes user id for an admin. The Firebase account goes first
// (an already missing one is fine), then the stored user together with the
// UserDeleted event every other service deletes the user's data on. If the
// second step fails, the call can simply be repeated. The deletion is
// written to the audit log (the admin, the user, their category) in the
// transaction of the second step.
func (a *App) DeleteUser(ctx context.Context, caller domain.Caller, id string) error {
	if err := domain.ValidateID("userId", id); err != nil {
		return err
	}
	if caller.UID == "" || !caller.Admin {
		return domain.ErrPermissionDenied
	}
	if caller.UID == id {
		return domain.ErrDeleteSelf
	}
	u, err := a.repo.Get(ctx, id)
	if err != nil {
		return err
	}
	if err := a.identity.DeleteUser(ctx, id); err != nil {
		return err
	}
	_, err = a.repo.Delete(ctx, id, domain.AuditEntry{ActorID: caller.UID, OnBehalfOfID: id,
		CategoryID: u.OriginalCategoryID, Action: domain.ActionAdminDeleteUser, At: a.now()})
	return err
}
