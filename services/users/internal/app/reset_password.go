package app

import (
	"context"
	"errors"

	"uplift.dev/users/internal/domain"
)

// ResetPassword asks the digest service to email a reset link to email. It
// answers the same whether or not an account exists, and whether or not it
// was rate-limited, so the call cannot be used to find out who has an
// account. Only a malformed email is reported, which reveals nothing.
func (a *App) ResetPassword(ctx context.Context, email string) error {
	email, err := domain.NormalizeEmail(email)
	if err != nil {
		return err
	}
	if _, err := a.repo.GetByEmail(ctx, email); errors.Is(err, domain.ErrNotFound) {
		a.log.InfoContext(ctx, "password reset for unknown email ignored")
		return nil
	} else if err != nil {
		return err
	}
	err = a.repo.RequestPasswordReset(ctx, email, domain.PasswordResetInterval, func(ctx context.Context) (string, error) {
		return a.identity.PasswordResetLink(ctx, email)
	})
	switch {
	case errors.Is(err, domain.ErrRateLimited):
		a.log.InfoContext(ctx, "password reset rate-limited")
		return nil
	case errors.Is(err, domain.ErrNotFound):
		// Stored but without a Firebase account: nothing to reset.
		a.log.WarnContext(ctx, "password reset for a user without a Firebase account")
		return nil
	}
	return err
}
