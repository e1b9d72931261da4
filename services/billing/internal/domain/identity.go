package domain

import (
	"errors"
	"time"
)

// IdentityVerification is a Stripe Identity verification session the
// browser opens: Stripe.js's modal takes the client secret, a browser
// without it goes to the hosted URL.
type IdentityVerification struct {
	ID, ClientSecret, URL string
}

// ErrIdentityUnavailable: Stripe made a session the browser cannot open
// (no client secret and no URL), as stripe-mock's fixture is.
var ErrIdentityUnavailable = errors.New("identity verification session cannot be opened")

// Stripe Identity events billing records.
const (
	EventIdentityVerified      = "identity.verification_session.verified"
	EventIdentityRequiresInput = "identity.verification_session.requires_input"
	EventIdentityCanceled      = "identity.verification_session.canceled"
)

// Identity verification outcomes, as Stripe names the session's status.
const (
	IdentityVerified      = "verified"
	IdentityRequiresInput = "requires_input"
	IdentityCanceled      = "canceled"
)

// IdentityStatusFor is the outcome an identity event reports; ok is false
// for any other event. The type, not the object's status, decides: it is
// what Stripe sent the event for.
func IdentityStatusFor(eventType string) (status string, ok bool) {
	switch eventType {
	case EventIdentityVerified:
		return IdentityVerified, true
	case EventIdentityRequiresInput:
		return IdentityRequiresInput, true
	case EventIdentityCanceled:
		return IdentityCanceled, true
	}
	return "", false
}

// IdentityOutcome is a user's latest recorded verification outcome.
type IdentityOutcome struct {
	UserID, SessionID, Status string
	// At is the created time of the event that reported it.
	At time.Time
}

// Supersedes says whether next replaces current (nil: nothing recorded).
// Stripe delivers events late and more than once, with one-second created
// times: a newer event wins; in the same second, within one session, a
// final outcome (verified, canceled) wins over requires_input, which a
// session only reports before it ends.
func (next IdentityOutcome) Supersedes(current *IdentityOutcome) bool {
	switch {
	case current == nil:
		return true
	case next.At.After(current.At):
		return true
	case next.At.Equal(current.At):
		return next.SessionID == current.SessionID && current.Status == IdentityRequiresInput && next.Status != IdentityRequiresInput
	}
	return false
}
