// Package domain holds what a user is and the rules about users, with no I/O.
package domain

import (
	"errors"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"uplift.dev/platform/validation"
)

// Sentinel errors the transport maps to statuses.
var (
	ErrNotFound         = errors.New("user not found")
	ErrEmailTaken       = errors.New("an account with this email already exists")
	ErrPermissionDenied = errors.New("permission denied")
	// ErrRateLimited means the same request came too soon after the last
	// one; callers that must not reveal it (reset password) swallow it.
	ErrRateLimited = errors.New("too many requests")
	// ErrDeleteSelf stops an admin deleting their own account through the
	// admin call, so the last admin cannot lock everyone out by mistake.
	ErrDeleteSelf = errors.New("an admin cannot delete their own account here")
	// ErrEmailNotVerified means the caller's ID token carries no email that
	// Firebase marks verified, so it cannot name the account's address.
	ErrEmailNotVerified = errors.New("the sign-in carries no verified email")
)

// ValidationError is a client's mistake in one field: the platform's one
// type (validation.Error), so every service maps it to 400 the same way.
type ValidationError = validation.Error

// MinPasswordLength is Firebase Auth's own minimum.
const MinPasswordLength = 6

// Bounds that keep stored text sane: the platform's, one per kind of field.
const (
	maxEmailLength    = validation.MaxEmailRunes
	maxPasswordLength = validation.MaxPasswordRunes
	maxNameLength     = validation.MaxNameRunes
	maxSourceLength   = validation.MaxKeywordRunes
)

// User is a store owner's account.
type User struct {
	ID                 string
	Email              string
	DisplayName        string
	SignUpSource       string
	CategoryID         string
	OriginalCategoryID string
	IsUplifter         bool
	Billing            *BillingInfo
	// UnsubscribedAt is when the user opted out of email; nil while they
	// still receive it.
	UnsubscribedAt *time.Time
	CreatedAt      time.Time
}

// BillingInfo is the user's plan; nil until they have one.
type BillingInfo struct {
	Tier          string
	IsManuallySet bool
}

// HasProfile reports whether the user is linked to a category yet.
func (u User) HasProfile() bool { return u.OriginalCategoryID != "" }

// SignUp is a validated sign-up form.
type SignUp struct {
	Email    string
	Password string
	Name     string
	Source   string
}

// NewSignUp checks a sign-up form and fills its defaults: the name is the
// part of the email before '@' and the source is "web".
func NewSignUp(email, password, name, source string) (SignUp, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return SignUp{}, err
	}
	if utf8.RuneCountInString(password) < MinPasswordLength {
		return SignUp{}, &ValidationError{Field: "password", Message: "Password must be at least 6 characters."}
	}
	if utf8.RuneCountInString(password) > maxPasswordLength {
		return SignUp{}, &ValidationError{Field: "password", Message: "Password is too long."}
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = DefaultName(email)
	}
	if utf8.RuneCountInString(name) > maxNameLength {
		return SignUp{}, &ValidationError{Field: "name", Message: "Name is too long."}
	}
	source = strings.TrimSpace(source)
	if source == "" {
		source = "web"
	}
	if utf8.RuneCountInString(source) > maxSourceLength {
		return SignUp{}, &ValidationError{Field: "metricsSignUpSource", Message: "Sign-up source is too long."}
	}
	return SignUp{Email: email, Password: password, Name: name, Source: source}, nil
}

// NormalizeEmail trims and lower-cases an address and checks it is a plain
// address with a dotted domain.
func NormalizeEmail(email string) (string, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	bad := &ValidationError{Field: "email", Message: "Please enter a valid email address."}
	if email == "" || len(email) > maxEmailLength {
		return "", bad
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" {
		return "", bad
	}
	_, domain, _ := strings.Cut(email, "@")
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", bad
	}
	return email, nil
}

// DefaultName is the part of the email before '@'.
func DefaultName(email string) string {
	local, _, _ := strings.Cut(email, "@")
	return local
}

// Caller is who is asking.
type Caller struct {
	UID string
	// Email is the address in the caller's ID token; empty when the token
	// has none (anonymous sign-in, a phone number).
	Email string
	// EmailVerified is the token's email_verified claim: Firebase (or the
	// identity provider, Google) has proved the caller owns Email.
	EmailVerified bool
	Admin         bool
	Uplifter      bool
	// AuthTime is when the caller last signed in (with every factor).
	AuthTime time.Time
	// Backend names another team's program calling as itself (no person:
	// UID is empty). Its grant (grpcport.Backends) decides which methods it
	// reaches at all.
	Backend string
}

// CanRead reports whether caller may see user id: themselves, an uplifter
// (who acts on behalf of store owners), an admin, or a backend granted the
// read.
func (c Caller) CanRead(id string) bool {
	return c.Backend != "" || c.UID != "" && (c.UID == id || c.Admin || c.Uplifter)
}

// CanChange reports whether caller may change user id's own records:
// themselves or an admin.
func (c Caller) CanChange(id string) bool {
	return c.UID != "" && (c.UID == id || c.Admin)
}

// Onboard links a user with no profile to categoryID (both current and
// original). A user who already has a profile keeps it, so a retried
// onboarding changes nothing.
func (u *User) Onboard(categoryID string) {
	if u.HasProfile() {
		return
	}
	u.CategoryID, u.OriginalCategoryID = categoryID, categoryID
}

// BillingChange is a user's new plan as published by the billing service.
type BillingChange struct {
	UserID        string
	Tier          string
	IsManuallySet bool
	SourceTime    time.Time
}

// ShouldApplyBilling reports whether change is at least as new as the state
// stored at storedSource (nil when none), so an older event never
// overwrites a newer one.
func ShouldApplyBilling(storedSource *time.Time, change BillingChange) bool {
	return change.Tier != "" && (storedSource == nil || !change.SourceTime.Before(*storedSource))
}
