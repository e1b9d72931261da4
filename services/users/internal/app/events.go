package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"uplift.dev/users/internal/domain"
)

// EventStore is the storage an event from another service changes, bound
// to the consumer's transaction (which also records the message as handled),
// so the effect and its record commit together.
type EventStore interface {
	// BillingSourceTime locks the user's billing for update and returns the
	// source time of the change it shows (nil if none); domain.ErrNotFound
	// for an unknown user.
	BillingSourceTime(ctx context.Context, userID string) (*time.Time, error)
	// SetBilling stores change as the user's billing.
	SetBilling(ctx context.Context, change domain.BillingChange) error
	// Audit writes audit entries.
	Audit(ctx context.Context, entries ...domain.AuditEntry) error
}

// ApplyBillingChange keeps the user's plan in step with the billing
// service: a change older than the one shown, or for a user who is gone,
// is skipped. applied says whether it changed anything.
func (a *App) ApplyBillingChange(ctx context.Context, s EventStore, change domain.BillingChange) (applied bool, err error) {
	stored, err := s.BillingSourceTime(ctx, change.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("billing of %s: %w", change.UserID, err)
	}
	if !domain.ShouldApplyBilling(stored, change) {
		return false, nil
	}
	if err := s.SetBilling(ctx, change); err != nil {
		return false, fmt.Errorf("billing of %s: %w", change.UserID, err)
	}
	return true, nil
}

// ErrIncompleteAuditEntry is an ActedOnBehalf without actor or action: it
// can never be logged, so its event is dropped.
var ErrIncompleteAuditEntry = errors.New("audit entry without actor or action")

// RecordActedOnBehalf copies another service's on-behalf action into the
// users service's audit log, where the owner reads it.
func (a *App) RecordActedOnBehalf(ctx context.Context, s EventStore, entry domain.AuditEntry) error {
	if entry.ActorID == "" || entry.Action == "" {
		return ErrIncompleteAuditEntry
	}
	return s.Audit(ctx, entry)
}
