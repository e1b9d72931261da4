package domain

import "errors"

// IdentityVerification is a Stripe Identity verification session the
// browser opens: Stripe.js's modal takes the client secret, a browser
// without it goes to the hosted URL. The outcome stays with Stripe (and the
// dashboard); billing does not record it yet.
type IdentityVerification struct {
	ID, ClientSecret, URL string
}

// ErrIdentityUnavailable: Stripe made a session the browser cannot open
// (no client secret and no URL), as stripe-mock's fixture is.
var ErrIdentityUnavailable = errors.New("identity verification session cannot be opened")
