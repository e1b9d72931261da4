package app

import (
	"context"

	"uplift.dev/users/internal/domain"
)

// DeleteUser removes user id for an admin. The Firebase account goes first
// (an already missing one is fine), then the stored user together with the
// UserDeleted event every other service deletes the user's data on. If the
// second step fails, the call can simply be repeated.
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
	if _, err := a.repo.Get(ctx, id); err != nil {
		return err
	}
	if err := a.identity.DeleteUser(ctx, id); err != nil {
		return err
	}
	_, err := a.repo.Delete(ctx, id)
	return err
}
