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
type Identity struct {
	Client *fbauth.Client
	// ResetContinueURL is where the reset page sends the user once the new
	// password is set, and the address verification page once the address
	// is confirmed: the web app (WEB_URL).
	ResetContinueURL string
	// Accounts removes second factors, which Client cannot.
	Accounts *AccountsAPI
}

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

// DeleteUser removes the Firebase account; one already gone is not an error,
// so a repeated delete completes.
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

// UpdateEmail changes the account's email.
func (i Identity) UpdateEmail(ctx context.Context, uid, email string) error {
	_, err := i.Client.UpdateUser(ctx, uid, (&fbauth.UserToUpdate{}).Email(email))
	switch {
	case fbauth.IsEmailAlreadyExists(err):
		return domain.ErrEmailTaken
	case fbauth.IsUserNotFound(err):
		return domain.ErrNotFound
	case err != nil:
		return fmt.Errorf("firebase update email: %w", err)
	}
	return nil
}

// PasswordResetLink generates the reset link with the Admin SDK; Firebase
// hosts the page where the new password is set and then continues to the web.
func (i Identity) PasswordResetLink(ctx context.Context, email string) (string, error) {
	link, err := i.Client.PasswordResetLinkWithSettings(ctx, email, &fbauth.ActionCodeSettings{URL: i.ResetContinueURL})
	switch {
	case fbauth.IsUserNotFound(err) || fbauth.IsEmailNotFound(err):
		return "", domain.ErrNotFound
	case err != nil:
		return "", fmt.Errorf("firebase reset link: %w", err)
	}
	return link, nil
}

// EmailVerificationLink implements app.EmailVerifier: Firebase hosts the
// page that confirms the address, which then continues to the web app.
func (i Identity) EmailVerificationLink(ctx context.Context, email string) (string, error) {
	link, err := i.Client.EmailVerificationLinkWithSettings(ctx, email, &fbauth.ActionCodeSettings{URL: i.ResetContinueURL})
	if err != nil {
		return "", fmt.Errorf("firebase verification link: %w", err)
	}
	return link, nil
}

// SetRole sets or clears role's custom claim, keeping the account's other
// claims (the SDK replaces the whole set).
func (i Identity) SetRole(ctx context.Context, email string, role domain.Role, on bool) (string, error) {
	rec, err := i.Client.GetUserByEmail(ctx, email)
	switch {
	case fbauth.IsUserNotFound(err):
		return "", domain.ErrNotFound
	case err != nil:
		return "", fmt.Errorf("firebase get user: %w", err)
	}
	claims := map[string]any{}
	for k, v := range rec.CustomClaims {
		claims[k] = v
	}
	if on {
		claims[string(role)] = true
	} else {
		delete(claims, string(role))
	}
	if err := i.Client.SetCustomUserClaims(ctx, rec.UID, claims); err != nil {
		return "", fmt.Errorf("firebase set claims: %w", err)
	}
	return rec.UID, nil
}

// RevokeSessions revokes the account's refresh tokens (Firebase's
// validSince): ID tokens issued before now fail VerifyIDTokenAndCheckRevoked.
func (i Identity) RevokeSessions(ctx context.Context, uid string) error {
	if err := i.Client.RevokeRefreshTokens(ctx, uid); err != nil {
		return fmt.Errorf("firebase revoke sessions: %w", err)
	}
	return nil
}

// SecondFactors counts the account's enrolled second factors.
func (i Identity) SecondFactors(ctx context.Context, uid string) (int, error) {
	rec, err := i.Client.GetUser(ctx, uid)
	switch {
	case fbauth.IsUserNotFound(err):
		return 0, domain.ErrNotFound
	case err != nil:
		return 0, fmt.Errorf("firebase get user: %w", err)
	}
	if rec.MultiFactor == nil {
		return 0, nil
	}
	return len(rec.MultiFactor.EnrolledFactors), nil
}

// RemoveSecondFactors unenrols every second factor of the account.
func (i Identity) RemoveSecondFactors(ctx context.Context, uid string) error {
	return i.Accounts.ClearSecondFactors(ctx, uid)
}
