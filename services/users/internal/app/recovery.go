package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"uplift.dev/users/internal/domain"
)

// recoveryFailureFloor is the least time a failed recovery takes to answer.
// An unknown email is answered without touching the codes table, a wrong
// code for a real account after a transaction; waiting out the same floor
// keeps the answer's timing from telling the two apart.
const recoveryFailureFloor = 300 * time.Millisecond

// CreateRecoveryCodes makes new recovery codes for the caller's own account,
// replacing any earlier ones, and returns them: the only time they are seen.
// The caller must have two-step sign-in on and have signed in (password and
// a current code) within domain.RecoveryFreshSignIn.
func (a *App) CreateRecoveryCodes(ctx context.Context, caller domain.Caller) ([]string, error) {
	if caller.UID == "" {
		return nil, domain.ErrPermissionDenied
	}
	now := a.now()
	if caller.AuthTime.IsZero() || now.Sub(caller.AuthTime) > domain.RecoveryFreshSignIn {
		return nil, domain.ErrSignInNotFresh
	}
	factors, err := a.identity.SecondFactors(ctx, caller.UID)
	if err != nil {
		return nil, err
	}
	if factors == 0 {
		return nil, domain.ErrNoSecondFactor
	}
	codes, err := domain.NewRecoveryCodes(rand.Reader)
	if err != nil {
		return nil, err
	}
	hashes := make([][]byte, len(codes))
	for i, c := range codes {
		norm, _ := domain.NormalizeRecoveryCode(c)
		hashes[i] = domain.HashRecoveryCode(caller.UID, norm)
	}
	audit := domain.AuditEntry{ActorID: caller.UID, OnBehalfOfID: caller.UID, Action: domain.ActionNewRecoveryCodes,
		Detail: fmt.Sprintf("%d new recovery codes; earlier codes no longer work", len(codes)), At: now}
	if err := a.repo.ReplaceRecoveryCodes(ctx, caller.UID, hashes, now, audit); err != nil {
		return nil, err
	}
	return codes, nil
}

// UseRecoveryCode lets the owner of email in with their password alone: a
// matching unused code is spent and the account's second factors are
// removed, so they set two-step sign-in up again. Every failure is
// domain.ErrRecoveryCodeRejected, answered no sooner than
// recoveryFailureFloor, whether the email has an account or not. client is
// the caller's address (clientaddr): wrong codes pause recovery for the
// client that sent them, so a stranger's guesses do not lock the owner out.
func (a *App) UseRecoveryCode(ctx context.Context, email, code, client string) (err error) {
	email, err = domain.NormalizeEmail(email)
	if err != nil {
		return err // a malformed address says nothing about any account
	}
	start := a.now()
	defer func() {
		if errors.Is(err, domain.ErrRecoveryCodeRejected) {
			a.sleepUntil(ctx, start.Add(a.recoveryFloor()))
		}
	}()
	norm, ok := domain.NormalizeRecoveryCode(code)
	if !ok {
		return domain.ErrRecoveryCodeRejected
	}
	u, err := a.repo.GetByEmail(ctx, email)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.ErrRecoveryCodeRejected
	}
	if err != nil {
		return err
	}
	left, err := a.repo.UseRecoveryCode(ctx, domain.RecoveryAttempt{
		UserID: u.ID, Client: client, Hash: domain.HashRecoveryCode(u.ID, norm), At: start,
		Audit: domain.AuditEntry{ActorID: u.ID, OnBehalfOfID: u.ID, Action: domain.ActionUseRecoveryCode, At: start},
		Detail: func(remaining int) string {
			return fmt.Sprintf("two-step sign-in turned off with a recovery code; %d codes left", remaining)
		},
		Then: func(ctx context.Context) error { return a.identity.RemoveSecondFactors(ctx, u.ID) },
	})
	switch {
	case errors.Is(err, domain.ErrRecoveryLocked):
		a.log.WarnContext(ctx, "recovery code refused: too many wrong codes for the account", "uid", u.ID, "client", client)
		return domain.ErrRecoveryCodeRejected
	case errors.Is(err, domain.ErrRecoveryCodeRejected):
		a.log.InfoContext(ctx, "wrong recovery code", "uid", u.ID)
		return err
	case err != nil:
		return err
	}
	a.log.InfoContext(ctx, "recovery code used: two-step sign-in turned off", "uid", u.ID, "codesLeft", left)
	return nil
}

func (a *App) recoveryFloor() time.Duration {
	if a.failureFloor != nil {
		return *a.failureFloor
	}
	return recoveryFailureFloor
}

// sleepUntil waits until t by the wall clock, or until ctx ends.
func (a *App) sleepUntil(ctx context.Context, t time.Time) {
	d := time.Until(t)
	if d <= 0 {
		return
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}
