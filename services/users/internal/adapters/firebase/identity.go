// Package firebase is the users service's identity provider: Firebase Auth
// through the Admin SDK (the Auth emulator locally and in tests).
package firebase

import (
	"context"
	"fmt"

	fbauth "firebase.google.com/go/v4/auth"

	"uplift.dev/users/internal/domain"
)

// Identity implements app.Identity.
type Identity struct{ Client *fbauth.Client }

// CreateUser creates the Firebase account.
func (i Identity) CreateUser(ctx context.Context, email, password, displayName string) (string, error) {
	rec, err := i.Client.CreateUser(ctx, (&fbauth.UserToCreate{}).
		Email(email).Password(password).DisplayName(displayName))
	switch {
	case fbauth.IsEmailAlreadyExists(err):
		return "", domain.ErrEmailTaken
	case err != nil:
		return "", fmt.Errorf("firebase create user: %w", err)
	}
	return rec.UID, nil
}

// DeleteUser removes the Firebase account.
func (i Identity) DeleteUser(ctx context.Context, uid string) error {
	if err := i.Client.DeleteUser(ctx, uid); err != nil && !fbauth.IsUserNotFound(err) {
		return fmt.Errorf("firebase delete user: %w", err)
	}
	return nil
}

// SignInToken mints a custom token for signInWithCustomToken.
func (i Identity) SignInToken(ctx context.Context, uid string) (string, error) {
	return i.Client.CustomToken(ctx, uid)
}
