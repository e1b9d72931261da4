package app

import (
	"context"
	"errors"
	"time"

	"uplift.dev/studio/internal/domain"
)

// EventStore is the storage an event from another service changes, bound
// to the consumer's transaction (which also records the message as
// handled), so the effect and its record commit together.
type EventStore interface {
	// SetOwner records categoryID as userID's (a later owner replaces it).
	SetOwner(ctx context.Context, categoryID, userID string) error
	// ApplyBilling records a user's plan unless a change newer than
	// sourceTime was applied already (events may arrive out of order).
	ApplyBilling(ctx context.Context, userID string, p domain.Plan, sourceTime time.Time) error
	// ForgetUser removes a deleted user's plan and ownership.
	ForgetUser(ctx context.Context, userID string) error
}

// ErrNoUser is an event without a user id: it can never apply.
var ErrNoUser = errors.New("event names no user")

// RecordOwner keeps the studio's copy of who owns a new user's category,
// which the entitlement check reads the plan through. A user created
// without a category (or with an id that is not one) owns nothing here.
func (a *App) RecordOwner(ctx context.Context, s EventStore, userID, categoryID string) error {
	if userID == "" {
		return ErrNoUser
	}
	if domain.ValidateID("categoryId", categoryID) != nil {
		return nil
	}
	return s.SetOwner(ctx, categoryID, userID)
}

// ApplyBillingChange records the user's plan as billing announced it; a
// change naming no tier is the free plan.
func (a *App) ApplyBillingChange(ctx context.Context, s EventStore, userID, tier string, manual bool, sourceTime time.Time) error {
	if userID == "" {
		return ErrNoUser
	}
	if tier == "" {
		tier = domain.FreeTier
	}
	return s.ApplyBilling(ctx, userID, domain.Plan{Tier: tier, IsManuallySet: manual}, sourceTime)
}

// ForgetUser removes what the studio keeps of a deleted user: their plan
// and the categories they owned.
func (a *App) ForgetUser(ctx context.Context, s EventStore, userID string) error {
	if userID == "" {
		return ErrNoUser
	}
	return s.ForgetUser(ctx, userID)
}
