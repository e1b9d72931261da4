// Package domain holds the studio's types and rules: jobs and their results,
// channel presets, backdrops and the plan's entitlements. No I/O.
package domain

import (
	"errors"

	"uplift.dev/platform/validation"
)

// Sentinel errors the gRPC port maps to statuses.
var (
	// ErrNotFound: the category, image, job or result does not exist.
	ErrNotFound = errors.New("not found")
	// ErrPermissionDenied: the caller may not act on this category.
	ErrPermissionDenied = errors.New("permission denied")
)

// ValidationError is a client's mistake in one field: the platform's one
// type (validation.Error), so every service maps it to 400 the same way.
type ValidationError = validation.Error

// LimitError is a plan limit reached (the free plan's monthly downloads):
// the message says what the plan allows and how to get more.
type LimitError struct{ Message string }

func (e *LimitError) Error() string { return e.Message }

// MissingError is something the caller named that does not exist, with a
// message saying what (a product that is not in the catalogue).
type MissingError struct{ Message string }

func (e *MissingError) Error() string { return e.Message }

// Is makes a MissingError an ErrNotFound.
func (e *MissingError) Is(target error) bool { return target == ErrNotFound }
