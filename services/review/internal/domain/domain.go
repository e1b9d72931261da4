// Package domain is the review service's own vocabulary for its calls: why
// a website could not be read, and the photo that was too large. The
// review's vocabulary itself (score, checks, findings, speed, insights,
// ideas) is the module's public `domain` package, which categories stores
// reviews in.
package domain

import (
	"errors"

	review "uplift.dev/review/domain"
)

// UnreadableError is a website that could not be read: which kind of
// failure it was and why, in words for the site's owner.
type UnreadableError struct {
	Problem review.SiteProblem
	// Reason completes "We could not read that website: …".
	Reason string
	Err    error
}

func (e *UnreadableError) Error() string { return "website unreadable: " + e.Err.Error() }

func (e *UnreadableError) Unwrap() error { return e.Err }

// ErrImageTooLarge is a product photo over the size asked for.
var ErrImageTooLarge = errors.New("the photo is larger than allowed")

// Product is one product of a store's catalogue, with its photos (main
// photo first).
type Product struct {
	ID, Name, URL string
	Price         float64
	Currency      string
	ImageURLs     []string
}
