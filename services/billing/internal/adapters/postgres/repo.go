// Package postgres stores billing in the service's own schema and writes the
// BillingChanged event of each applied change to the outbox in the same
// transaction, so the users service never misses or doubles one.
package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/billing/internal/app"
	"uplift.dev/billing/internal/domain"
	"uplift.dev/platform/events"
)

// Repo implements app.Repository.
type Repo struct{ Pool *pgxpool.Pool }

var _ app.Repository = Repo{}

// CustomerID returns the user's Stripe customer, "" when none.
func (r Repo) CustomerID(ctx context.Context, userID string) (string, error) {
	var id string
	err := r.Pool.QueryRow(ctx, `SELECT stripe_customer_id FROM customers WHERE user_id = $1`, userID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return id, err
}

// SaveCustomer keeps the first customer stored for a user and returns it.
func (r Repo) SaveCustomer(ctx context.Context, userID, customerID string) (string, error) {
	if _, err := r.Pool.Exec(ctx, `INSERT INTO customers (user_id, stripe_customer_id) VALUES ($1, $2)
		ON CONFLICT DO NOTHING`, userID, customerID); err != nil {
		return "", err
	}
	return r.CustomerID(ctx, userID)
}

// UserByCustomer maps a Stripe customer back to its user, "" when unknown.
func (r Repo) UserByCustomer(ctx context.Context, customerID string) (string, error) {
	var id string
	err := r.Pool.QueryRow(ctx, `SELECT user_id FROM customers WHERE stripe_customer_id = $1`, customerID).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return id, err
}

// Billing returns the user's billing, nil when none.
func (r Repo) Billing(ctx context.Context, userID string) (*domain.Billing, error) {
	return scanBilling(r.Pool.QueryRow(ctx, `SELECT user_id, tier, is_manually_set, source_time FROM billing WHERE user_id = $1`, userID))
}

func scanBilling(row pgx.Row) (*domain.Billing, error) {
	var b domain.Billing
	err := row.Scan(&b.UserID, &b.Tier, &b.IsManuallySet, &b.SourceTime)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &b, nil
}

// Change applies change under domain.Apply with the row locked, publishes
// BillingChanged when the tier or the manual flag changed, and writes the
// audit entries, all in one transaction.
func (r Repo) Change(ctx context.Context, eventID, userID string, change domain.Change, audit ...domain.AuditEntry) (domain.Decision, bool, error) {
	d, replay := domain.IgnoredSame, false
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		if eventID != "" {
			seen, err := recordEvent(ctx, tx, eventID)
			if err != nil || seen {
				replay = seen
				return err
			}
		}
		// Serialises changes to one user even before their first row exists.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('billing:' || $1))`, userID); err != nil {
			return err
		}
		current, err := scanBilling(tx.QueryRow(ctx, `SELECT user_id, tier, is_manually_set, source_time
			FROM billing WHERE user_id = $1 FOR UPDATE`, userID))
		if err != nil {
			return err
		}
		for _, e := range audit {
			if _, err := tx.Exec(ctx, `INSERT INTO audit_log (actor_id, user_id, action, detail, created_at)
				VALUES ($1, $2, $3, $4, $5)`, e.ActorID, e.UserID, e.Action, e.Detail, e.At); err != nil {
				return fmt.Errorf("audit: %w", err)
			}
			// The users service keeps the user's audit log, which they read.
			if err := events.Enqueue(ctx, tx, events.SubjectActedOnBehalf, &eventsv1.ActedOnBehalf{
				ActorId: e.ActorID, OwnerId: e.UserID, Action: e.Action, Detail: e.Detail,
				Service: "billing", OccurTime: timestamppb.New(e.At),
			}); err != nil {
				return err
			}
		}
		if d = domain.Apply(current, change); d != domain.Applied {
			return nil
		}
		if _, err := tx.Exec(ctx, `INSERT INTO billing (user_id, tier, is_manually_set, source_time) VALUES ($1, $2, $3, $4)
			ON CONFLICT (user_id) DO UPDATE SET tier = $2, is_manually_set = $3, source_time = $4, updated_at = now()`,
			userID, change.Tier, change.IsManuallySet, change.SourceTime); err != nil {
			return err
		}
		if current != nil && current.Tier == change.Tier && current.IsManuallySet == change.IsManuallySet {
			return nil // only the source time moved on; nothing to tell the users service
		}
		return events.Enqueue(ctx, tx, events.SubjectBillingChanged, &eventsv1.BillingChanged{
			UserId: userID, Tier: change.Tier, IsManuallySet: change.IsManuallySet,
			SourceTime: timestamppb.New(change.SourceTime),
		})
	})
	return d, replay, err
}

// RecordEvent marks a Stripe event handled; replay is true if it was before.
func (r Repo) RecordEvent(ctx context.Context, eventID string) (bool, error) {
	var seen bool
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		var err error
		seen, err = recordEvent(ctx, tx, eventID)
		return err
	})
	return seen, err
}

// EventSeen reports whether the Stripe event was recorded as handled.
func (r Repo) EventSeen(ctx context.Context, eventID string) (bool, error) {
	var seen bool
	err := r.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM stripe_events WHERE event_id = $1)`, eventID).Scan(&seen)
	return seen, err
}

func recordEvent(ctx context.Context, tx pgx.Tx, eventID string) (bool, error) {
	tag, err := tx.Exec(ctx, `INSERT INTO stripe_events (event_id) VALUES ($1) ON CONFLICT DO NOTHING`, eventID)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() == 0, nil
}

// SavePendingCheckout stores a local test checkout.
func (r Repo) SavePendingCheckout(ctx context.Context, p app.PendingCheckout) error {
	_, err := r.Pool.Exec(ctx, `INSERT INTO pending_checkouts (token, user_id, category_id, customer_id, tier, price_id,
		referral_id, amount, success_url, cancel_url) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		p.Token, p.UserID, p.CategoryID, p.CustomerID, p.Tier, p.PriceID, p.ReferralID, p.Amount, p.SuccessURL, p.CancelURL)
	return err
}

// PendingCheckout returns an unused test checkout, or domain.ErrCheckoutNotFound.
func (r Repo) PendingCheckout(ctx context.Context, token string) (app.PendingCheckout, error) {
	var p app.PendingCheckout
	err := r.Pool.QueryRow(ctx, `SELECT token, user_id, category_id, customer_id, tier, price_id, referral_id, amount,
		success_url, cancel_url FROM pending_checkouts WHERE token = $1 AND completed_at IS NULL`, token).Scan(
		&p.Token, &p.UserID, &p.CategoryID, &p.CustomerID, &p.Tier, &p.PriceID, &p.ReferralID, &p.Amount, &p.SuccessURL, &p.CancelURL)
	if errors.Is(err, pgx.ErrNoRows) {
		return app.PendingCheckout{}, domain.ErrCheckoutNotFound
	}
	return p, err
}

// CompletePendingCheckout marks a test checkout used, once.
func (r Repo) CompletePendingCheckout(ctx context.Context, token string) error {
	tag, err := r.Pool.Exec(ctx, `UPDATE pending_checkouts SET completed_at = now() WHERE token = $1 AND completed_at IS NULL`, token)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return domain.ErrCheckoutNotFound
	}
	return nil
}

// TxRepo is the storage an event consumer changes inside its own
// transaction (app.EventStore).
type TxRepo struct{ Tx pgx.Tx }

// DeleteUserData deletes every row keyed by userID, children first.
func (r TxRepo) DeleteUserData(ctx context.Context, userID string) error {
	for _, table := range []string{"pending_checkouts", "pending_identity_verifications", "identity_verifications", "billing", "customers"} {
		if _, err := r.Tx.Exec(ctx, `DELETE FROM `+table+` WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("delete %s of deleted user: %w", table, err)
		}
	}
	return nil
}
