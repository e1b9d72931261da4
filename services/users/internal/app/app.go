// Package app holds the users service's use cases. It talks to the identity
// provider and storage through the narrow interfaces it declares here.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"uplift.dev/platform/clock"
	"uplift.dev/users/internal/domain"
)

// Identity is the account provider (Firebase Auth).
type Identity interface {
	// CreateUser returns the new uid, or domain.ErrEmailTaken.
	CreateUser(ctx context.Context, email, password, displayName string) (string, error)
	// DeleteUser undoes CreateUser when storing the user fails.
	DeleteUser(ctx context.Context, uid string) error
	// SignInToken mints a token the browser signs in with.
	SignInToken(ctx context.Context, uid string) (string, error)
	// UpdateEmail changes the account's sign-in email, or returns
	// domain.ErrEmailTaken or domain.ErrNotFound.
	UpdateEmail(ctx context.Context, uid, email string) error
	// PasswordResetLink returns a one-time link that lets the holder set a
	// new password, or domain.ErrNotFound when no account has email.
	PasswordResetLink(ctx context.Context, email string) (string, error)
	// SetRole sets or clears role's custom claim on the account with email,
	// keeping its other claims, and returns its uid (domain.ErrNotFound
	// when there is none).
	SetRole(ctx context.Context, email string, role domain.Role, on bool) (string, error)
	// RevokeSessions ends every session of the account: its refresh tokens
	// stop working and its ID tokens fail the services' revocation check.
	RevokeSessions(ctx context.Context, uid string) error
	// SecondFactors counts the account's enrolled second factors.
	SecondFactors(ctx context.Context, uid string) (int, error)
	// RemoveSecondFactors unenrols every second factor of the account.
	RemoveSecondFactors(ctx context.Context, uid string) error
}

// Repository stores users. Create and Update also record the events their
// change implies, in the same transaction.
type Repository interface {
	// Create stores a new user, or returns domain.ErrEmailTaken.
	Create(ctx context.Context, u domain.User, suppressWelcomeEmail bool) error
	// Get returns domain.ErrNotFound for an unknown id.
	Get(ctx context.Context, id string) (domain.User, error)
	// Update reads the user for update, applies fn and saves it with the
	// audit entries and events fn returns, atomically, so a change is never
	// without its record.
	Update(ctx context.Context, id string, fn func(*domain.User) (domain.Change, error)) (domain.User, error)
	// GetByEmail finds a user by normalised email, or domain.ErrNotFound.
	GetByEmail(ctx context.Context, email string) (domain.User, error)
	// OwnerOfCategory returns the user whose own category is categoryID, or
	// domain.ErrNotFound.
	OwnerOfCategory(ctx context.Context, categoryID string) (domain.User, error)
	// Search returns up to s.PageSize+1 users in (lower(email), id) order
	// after s.After; the extra one tells the caller another page exists.
	Search(ctx context.Context, s domain.Search) ([]domain.User, error)
	// Delete removes the user and records UserDeleted and the audit
	// entries, atomically, and returns what was deleted (domain.ErrNotFound
	// when nothing).
	Delete(ctx context.Context, id string, audit ...domain.AuditEntry) (domain.User, error)
	// ClaimPasswordReset takes email's reset slot, committed, unless one was
	// taken within interval (domain.ErrRateLimited); it returns when.
	ClaimPasswordReset(ctx context.Context, email string, interval time.Duration) (time.Time, error)
	// ReleasePasswordReset frees a slot claimed at claimed.
	ReleasePasswordReset(ctx context.Context, email string, claimed time.Time) error
	// RecordPasswordReset records PasswordResetRequested with its link.
	RecordPasswordReset(ctx context.Context, email, link string, at time.Time) error
	// RecordSignUpAttempt records SignUpAttempted for the account with
	// email (userID empty when it has no stored user).
	RecordSignUpAttempt(ctx context.Context, userID, email string, at time.Time) error
	// Audit writes entries on their own, for actions whose change lives in
	// another store.
	Audit(ctx context.Context, entries ...domain.AuditEntry) error
	// Record writes a change whose state lives in another store: its audit
	// entries and the events it implies, atomically.
	Record(ctx context.Context, change domain.Change) error
	// AuditLog reads audit rows, newest first (see domain.AuditQuery).
	AuditLog(ctx context.Context, q domain.AuditQuery) ([]domain.AuditRecord, error)
	// PurgeAudit deletes audit rows written before before and says how many.
	PurgeAudit(ctx context.Context, before time.Time) (int64, error)
	// ReplaceRecoveryCodes replaces the user's recovery codes with hashes
	// and writes audit, atomically.
	ReplaceRecoveryCodes(ctx context.Context, userID string, hashes [][]byte, at time.Time, audit domain.AuditEntry) error
	// UseRecoveryCode is one try at the user's codes (see
	// domain.RecoveryAttempt); it returns the codes left, or
	// domain.ErrRecoveryCodeRejected or domain.ErrRecoveryLocked.
	UseRecoveryCode(ctx context.Context, attempt domain.RecoveryAttempt) (int, error)
}

// App is the users service's use cases.
type App struct {
	identity Identity
	repo     Repository
	log      *slog.Logger
	newID    func() string
	now      clock.Clock
	resets   *resetQueue
	// failureFloor replaces recoveryFailureFloor in tests.
	failureFloor *time.Duration
	// verify sends a new account's address verification (WithEmailVerification).
	verify *emailVerification
}

// New returns the use cases over the given adapters.
func New(identity Identity, repo Repository, log *slog.Logger) *App {
	return &App{identity: identity, repo: repo, log: log, newID: func() string { return uuid.NewString() },
		now: clock.Real, resets: newResetQueue()}
}

// WithClock returns the use cases reading time from now (the service's clock).
func (a *App) WithClock(now clock.Clock) *App {
	c := *a
	c.now = now
	return &c
}

// CreateUserInput is the sign-up form as received.
type CreateUserInput struct {
	Email, Password, Name, Source string
	SuppressWelcomeEmail          bool
}

// CreateUserResult names the new user and how they sign in. Both are empty
// when the email already had an account.
type CreateUserResult struct {
	ID, SignInToken string
}

// CreateUser makes the identity and the stored user, giving the user their
// own new category. If storing fails the identity is removed again, so a
// retry with the same email can succeed.
//
// An email that already has an account is answered as a success too, with
// no id or token, and its owner is told by email (SignUpAttempted) that
// someone tried to sign up with it. A "taken" error let anyone learn which
// emails have accounts; the owner who forgot they had one learns it from
// their inbox instead.
func (a *App) CreateUser(ctx context.Context, in CreateUserInput) (CreateUserResult, error) {
	su, err := domain.NewSignUp(in.Email, in.Password, in.Name, in.Source)
	if err != nil {
		return CreateUserResult{}, err
	}
	uid, err := a.identity.CreateUser(ctx, su.Email, su.Password, su.Name)
	if errors.Is(err, domain.ErrEmailTaken) {
		return a.signUpAttempted(ctx, su.Email)
	}
	if err != nil {
		return CreateUserResult{}, err
	}
	category := a.newID()
	u := domain.User{ID: uid, Email: su.Email, DisplayName: su.Name, SignUpSource: su.Source,
		CategoryID: category, OriginalCategoryID: category}
	if err := a.repo.Create(ctx, u, in.SuppressWelcomeEmail); err != nil {
		if derr := a.identity.DeleteUser(context.WithoutCancel(ctx), uid); derr != nil {
			a.log.ErrorContext(ctx, "could not undo identity after failed store", "uid", uid, "err", derr)
		}
		if errors.Is(err, domain.ErrEmailTaken) {
			return a.signUpAttempted(ctx, su.Email)
		}
		return CreateUserResult{}, err
	}
	a.sendEmailVerification(ctx, u)
	token, err := a.identity.SignInToken(ctx, uid)
	if err != nil {
		return CreateUserResult{}, fmt.Errorf("sign-in token: %w", err)
	}
	return CreateUserResult{ID: uid, SignInToken: token}, nil
}

// signUpAttempted records that someone signed up with email, which has an
// account, so its owner is told, and answers as a sign-up does.
func (a *App) signUpAttempted(ctx context.Context, email string) (CreateUserResult, error) {
	var userID string
	switch u, err := a.repo.GetByEmail(ctx, email); {
	case err == nil:
		userID = u.ID
	case !errors.Is(err, domain.ErrNotFound):
		return CreateUserResult{}, err
	}
	if err := a.repo.RecordSignUpAttempt(ctx, userID, email, a.now()); err != nil {
		return CreateUserResult{}, err
	}
	a.log.InfoContext(ctx, "sign-up with the email of an existing account; the owner is told", "uid", userID)
	return CreateUserResult{}, nil
}

// GetUser returns a user the caller may read.
func (a *App) GetUser(ctx context.Context, caller domain.Caller, id string) (domain.User, error) {
	if err := domain.ValidateID("userId", id); err != nil {
		return domain.User{}, err
	}
	if !caller.CanRead(id) {
		return domain.User{}, domain.ErrPermissionDenied
	}
	return a.repo.Get(ctx, id)
}

// Profile is which category a user sees.
type Profile struct {
	CategoryID, OriginalCategoryID string
}

// GetProfile returns the caller's profile; empty ids mean none yet.
func (a *App) GetProfile(ctx context.Context, caller domain.Caller, id string) (Profile, error) {
	u, err := a.GetUser(ctx, caller, id)
	if err != nil {
		return Profile{}, err
	}
	return Profile{u.CategoryID, u.OriginalCategoryID}, nil
}

// CreateOnboarding gives a user without a profile one, linked to categoryID
// or, when empty, to a new category. It is safe to call again.
func (a *App) CreateOnboarding(ctx context.Context, caller domain.Caller, id, categoryID string) (Profile, error) {
	if err := domain.ValidateID("userId", id); err != nil {
		return Profile{}, err
	}
	if !caller.CanChange(id) {
		return Profile{}, domain.ErrPermissionDenied
	}
	if categoryID == "" {
		categoryID = a.newID()
	} else if err := uuid.Validate(categoryID); err != nil {
		return Profile{}, &domain.ValidationError{Field: "categoryId", Message: "categoryId is not a valid id."}
	}
	u, err := a.update(ctx, id, func(u *domain.User) ([]domain.AuditEntry, error) {
		u.Onboard(categoryID)
		return nil, nil
	})
	if err != nil {
		return Profile{}, err
	}
	return Profile{u.CategoryID, u.OriginalCategoryID}, nil
}

// update applies fn to the stored user and saves it with fn's audit
// entries and the events the change implies (domain.ChangeEvents), in one
// transaction.
func (a *App) update(ctx context.Context, id string, fn func(*domain.User) ([]domain.AuditEntry, error)) (domain.User, error) {
	return a.repo.Update(ctx, id, func(u *domain.User) (domain.Change, error) {
		before := *u
		audit, err := fn(u)
		if err != nil {
			return domain.Change{}, err
		}
		return domain.Change{Audit: audit, Events: append(domain.ChangeEvents(before, *u, a.now()), domain.AuditEvents(audit)...)}, nil
	})
}
