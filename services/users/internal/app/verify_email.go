package app

import (
	"context"
	"time"

	"uplift.dev/users/internal/domain"
)

// EmailVerifier makes the link that confirms an account's address
// (Firebase Auth's verification link, continuing to the web app).
type EmailVerifier interface {
	EmailVerificationLink(ctx context.Context, email string) (string, error)
}

// VerificationRecorder records EmailVerificationRequested, for the digest
// service to email.
type VerificationRecorder interface {
	RecordEmailVerification(ctx context.Context, userID, email, link string, at time.Time) error
}

// emailVerification is how the app asks a new account to confirm its
// address; nil sends nothing.
type emailVerification struct {
	links  EmailVerifier
	record VerificationRecorder
}

// WithEmailVerification returns the use cases sending every account made
// with a password the email that confirms its address. The web's sign-up
// suppresses the welcome email (spec section 3, suppressWelcomeEmail), and
// a new owner hearing nothing at all cannot tell a typo in their address
// from a quiet product: this is the first email they get.
func (a *App) WithEmailVerification(links EmailVerifier, record VerificationRecorder) *App {
	c := *a
	c.verify = &emailVerification{links: links, record: record}
	return &c
}

// sendEmailVerification asks the digest service to email u the link that
// confirms their address. Sign-up has succeeded by then, so a failure is
// logged, not returned: the account works, and the address can be
// confirmed later.
func (a *App) sendEmailVerification(ctx context.Context, u domain.User) {
	if a.verify == nil {
		return
	}
	link, err := a.verify.links.EmailVerificationLink(ctx, u.Email)
	if err == nil {
		err = a.verify.record.RecordEmailVerification(ctx, u.ID, u.Email, link, a.now())
	}
	if err != nil {
		a.log.ErrorContext(ctx, "sign-up: address verification email not queued", "uid", u.ID, "err", err)
	}
}
