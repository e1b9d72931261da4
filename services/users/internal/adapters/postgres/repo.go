// Package postgres stores users in the service's own schema and writes the
// events of each change to the outbox in the same transaction.
package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/postgres"
	"uplift.dev/users/internal/domain"
)

// Repo implements app.Repository.
type Repo struct{ Pool *pgxpool.Pool }

const columns = `id, email, display_name, sign_up_source, category_id, original_category_id,
	is_uplifter, billing_tier, billing_manually_set, created_at`

// Create inserts u and records UserCreated.
func (r Repo) Create(ctx context.Context, u domain.User, suppressWelcomeEmail bool) error {
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO users (id, email, display_name, sign_up_source, category_id, original_category_id)
			VALUES ($1, $2, $3, $4, $5, $6)`,
			u.ID, u.Email, u.DisplayName, u.SignUpSource, u.CategoryID, u.OriginalCategoryID); err != nil {
			return err
		}
		return events.Enqueue(ctx, tx, events.SubjectUserCreated, &eventsv1.UserCreated{
			UserId: u.ID, Email: u.Email, DisplayName: u.DisplayName, CategoryId: u.CategoryID,
			SuppressWelcomeEmail: suppressWelcomeEmail, OccurTime: timestamppb.New(time.Now()),
		})
	})
	if postgres.IsUniqueViolation(err, "") {
		return domain.ErrEmailTaken
	}
	return err
}

// Get returns the user with id.
func (r Repo) Get(ctx context.Context, id string) (domain.User, error) {
	return scan(r.Pool.QueryRow(ctx, `SELECT `+columns+` FROM users WHERE id = $1`, id))
}

// Update applies fn to the locked row and saves the fields fn may change.
func (r Repo) Update(ctx context.Context, id string, fn func(*domain.User) error) (domain.User, error) {
	var out domain.User
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		u, err := scan(tx.QueryRow(ctx, `SELECT `+columns+` FROM users WHERE id = $1 FOR UPDATE`, id))
		if err != nil {
			return err
		}
		if err := fn(&u); err != nil {
			return err
		}
		var tier *string
		if u.Billing != nil {
			tier = &u.Billing.Tier
		}
		manual := u.Billing != nil && u.Billing.IsManuallySet
		if _, err := tx.Exec(ctx, `UPDATE users SET email = $2, display_name = $3, category_id = $4,
			original_category_id = $5, is_uplifter = $6, billing_tier = $7, billing_manually_set = $8,
			updated_at = now() WHERE id = $1`,
			u.ID, u.Email, u.DisplayName, u.CategoryID, u.OriginalCategoryID, u.IsUplifter, tier, manual); err != nil {
			return err
		}
		out = u
		return nil
	})
	if postgres.IsUniqueViolation(err, "") {
		return domain.User{}, domain.ErrEmailTaken
	}
	return out, err
}

func scan(row pgx.Row) (domain.User, error) {
	var u domain.User
	var tier *string
	var manual bool
	err := row.Scan(&u.ID, &u.Email, &u.DisplayName, &u.SignUpSource, &u.CategoryID, &u.OriginalCategoryID,
		&u.IsUplifter, &tier, &manual, &u.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.User{}, domain.ErrNotFound
	}
	if err != nil {
		return domain.User{}, err
	}
	if tier != nil {
		u.Billing = &domain.BillingInfo{Tier: *tier, IsManuallySet: manual}
	}
	return u, nil
}

// ApplyBilling applies a BillingChanged event inside tx (the consumer's
// transaction, which also records the message id). An unknown user or an
// older change is skipped; applied reports which.
func (r Repo) ApplyBilling(ctx context.Context, tx pgx.Tx, c domain.BillingChange) (applied bool, err error) {
	var stored *time.Time
	err = tx.QueryRow(ctx, `SELECT billing_source_time FROM users WHERE id = $1 FOR UPDATE`, c.UserID).Scan(&stored)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil || !domain.ShouldApplyBilling(stored, c) {
		return false, err
	}
	_, err = tx.Exec(ctx, `UPDATE users SET billing_tier = $2, billing_manually_set = $3, billing_source_time = $4,
		updated_at = now() WHERE id = $1`, c.UserID, c.Tier, c.IsManuallySet, c.SourceTime)
	return err == nil, err
}
