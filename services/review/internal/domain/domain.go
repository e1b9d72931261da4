// Package domain is the review service's own vocabulary: a review asked
// for, why a website could not be read, and the photo that was too large. The
// review's vocabulary itself (score, checks, findings, speed, insights,
// ideas) is the module's public `domain` package, which categories stores
// reviews in.
package domain

import (
	"errors"
	"time"

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

// ReviewRequest is a review categories asked for (ReviewRequested): one
// report of one business's website.
type ReviewRequest struct {
	CategoryID, ReportID, SiteURL string
	// TimeZone is the business's IANA zone, which campaign plans are dated
	// by; empty or unknown is UTC.
	TimeZone string
	// Competitors are reviewed beside the store.
	Competitors []string
	// Previous is the newest finished review of the same site, or nil.
	Previous *review.Review
}

// Location is the zone the review's plans are dated in.
func (r ReviewRequest) Location() *time.Location {
	if r.TimeZone != "" {
		if loc, err := time.LoadLocation(r.TimeZone); err == nil {
			return loc
		}
	}
	return time.UTC
}

// ClampProgress keeps a progress percentage within 0–100.
func ClampProgress(pct int) int { return max(0, min(100, pct)) }
