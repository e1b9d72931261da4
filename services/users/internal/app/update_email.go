package app

import (
	"context"
	"errors"
	"fmt"

	"uplift.dev/users/internal/domain"
)

// UpdateEmail changes user id's email in Firebase and in storage. Firebase
// goes first because it is what people sign in with and it refuses an email
// another account has. If storing then fails (the stored unique index is the
// final word), Firebase is set back to the old email, so the two never stay
// apart. The stored change records UserEmailChanged in its transaction.
//
// Changing the email ends the user's Firebase session, so a user changing
// their own email gets a sign-in token to carry on with; an admin changing
// someone else's gets none (that would let them act as the user), and the
// change is written to the audit log with it.
func (a *App) UpdateEmail(ctx context.Context, caller domain.Caller, id, email string) (string, error) {
	if err := a.updateEmail(ctx, caller, id, email); err != nil {
		return "", err
	}
	if caller.UID != id {
		return "", nil
	}
	token, err := a.identity.SignInToken(ctx, id)
	if err != nil {
		return "", fmt.Errorf("sign-in token: %w", err)
	}
	return token, nil
}

func (a *App) updateEmail(ctx context.Context, caller domain.Caller, id, email string) error {
	if err := domain.ValidateID("userId", id); err != nil {
		return err
	}
	if !caller.CanChange(id) {
		return domain.ErrPermissionDenied
	}
	email, err := domain.NormalizeEmail(email)
	if err != nil {
		return err
	}
	old, err := a.repo.Get(ctx, id)
	if err != nil {
		return err
	}
	if old.Email == email {
		return nil
	}
	if err := a.identity.UpdateEmail(ctx, id, email); err != nil {
		return err
	}
	at := a.now()
	_, err = a.update(ctx, id, func(u *domain.User) ([]domain.AuditEntry, error) {
		u.Email = email
		if caller.UID == id {
			return nil, nil
		}
		return []domain.AuditEntry{{ActorID: caller.UID, OnBehalfOfID: id, CategoryID: u.OriginalCategoryID,
			Action: domain.ActionAdminUpdateEmail, At: at}}, nil
	})
	if err != nil {
		if cerr := a.identity.UpdateEmail(context.WithoutCancel(ctx), id, old.Email); cerr != nil {
			a.log.ErrorContext(ctx, "email differs between Firebase and storage: undo failed",
				"user", id, "err", cerr)
			return errors.Join(err, cerr)
		}
		return err
	}
	return nil
}
