package app

import (
	"context"
	"errors"
	"unicode/utf8"

	"uplift.dev/users/internal/domain"
)

// FinishGoogleAuthInput is what the app uses of the body the browser sends
// after the Google popup. The body's email is not part of it: the account's
// email comes only from the verified ID token.
type FinishGoogleAuthInput struct {
	Name, IDFromGoogleAuth string
	SuppressWelcomeEmail   bool
}

// FinishGoogleAuth stores the signed-in caller as a user, with their own new
// category, the first time they come through Google. The uid and email are
// always the token's (never the body's), and the email must be one Firebase
// marks verified (domain.ErrEmailNotVerified otherwise), so nobody can create
// a user for someone else or claim an address they do not own.
// Calling it again returns the same id and changes nothing, which makes the
// browser's retries and every later Google sign-in safe.
func (a *App) FinishGoogleAuth(ctx context.Context, caller domain.Caller, in FinishGoogleAuthInput) (string, error) {
	if caller.UID == "" {
		return "", domain.ErrPermissionDenied
	}
	if utf8.RuneCountInString(in.IDFromGoogleAuth) > domain.MaxIDLength {
		return "", &domain.ValidationError{Field: "idFromGoogleAuth", Message: "idFromGoogleAuth is too long."}
	}
	if u, err := a.repo.Get(ctx, caller.UID); err == nil {
		return u.ID, nil
	} else if !errors.Is(err, domain.ErrNotFound) {
		return "", err
	}
	g, err := domain.NewGoogleSignUp(caller, in.Name)
	if err != nil {
		return "", err
	}
	category := a.newID()
	u := domain.User{ID: caller.UID, Email: g.Email, DisplayName: g.Name, SignUpSource: "google",
		CategoryID: category, OriginalCategoryID: category}
	err = a.repo.Create(ctx, u, in.SuppressWelcomeEmail)
	if errors.Is(err, domain.ErrEmailTaken) {
		// A concurrent call for the same uid may have won the insert: that
		// is success. Otherwise another account owns the email.
		if u, gerr := a.repo.Get(ctx, caller.UID); gerr == nil {
			return u.ID, nil
		}
	}
	if err != nil {
		return "", err
	}
	return u.ID, nil
}
