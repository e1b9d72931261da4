package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"uplift.dev/billing/internal/app"
	"uplift.dev/billing/internal/domain"
)

// RecordIdentityOutcome records the event id and, unless it was seen before,
// the outcome when it supersedes the stored one, in one transaction.
func (r Repo) RecordIdentityOutcome(ctx context.Context, eventID string, o domain.IdentityOutcome) (applied, replay bool, err error) {
	err = pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		if replay, err = recordEvent(ctx, tx, eventID); err != nil || replay {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO identity_verifications (user_id, session_id, status, source_time)
			VALUES ($1, $2, $3, $4) ON CONFLICT (user_id) DO NOTHING`, o.UserID, o.SessionID, o.Status, o.At)
		if err != nil || tag.RowsAffected() == 1 {
			applied = err == nil
			return err
		}
		current, err := identityOutcome(ctx, tx, o.UserID, " FOR UPDATE")
		if err != nil || !o.Supersedes(current) {
			return err
		}
		applied = true
		_, err = tx.Exec(ctx, `UPDATE identity_verifications SET session_id = $2, status = $3, source_time = $4,
			updated_at = now() WHERE user_id = $1`, o.UserID, o.SessionID, o.Status, o.At)
		return err
	})
	return applied, replay, err
}

// IdentityOutcome is the user's latest outcome, nil when none is recorded.
func (r Repo) IdentityOutcome(ctx context.Context, userID string) (*domain.IdentityOutcome, error) {
	o, err := identityOutcome(ctx, r.Pool, userID, "")
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return o, err
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func identityOutcome(ctx context.Context, q querier, userID, lock string) (*domain.IdentityOutcome, error) {
	o := domain.IdentityOutcome{UserID: userID}
	err := q.QueryRow(ctx, `SELECT session_id, status, source_time FROM identity_verifications WHERE user_id = $1`+lock,
		userID).Scan(&o.SessionID, &o.Status, &o.At)
	if err != nil {
		return nil, err
	}
	o.At = o.At.UTC()
	return &o, nil
}

// SavePendingIdentity stores a local test verification.
func (r Repo) SavePendingIdentity(ctx context.Context, p app.PendingIdentity) error {
	_, err := r.Pool.Exec(ctx, `INSERT INTO pending_identity_verifications (token, user_id, session_id, return_url)
		VALUES ($1, $2, $3, $4)`, p.Token, p.UserID, p.SessionID, p.ReturnURL)
	return err
}

// PendingIdentity returns an unused test verification, or domain.ErrCheckoutNotFound.
func (r Repo) PendingIdentity(ctx context.Context, token string) (app.PendingIdentity, error) {
	p := app.PendingIdentity{Token: token}
	err := r.Pool.QueryRow(ctx, `SELECT user_id, session_id, return_url FROM pending_identity_verifications
		WHERE token = $1 AND completed_at IS NULL`, token).Scan(&p.UserID, &p.SessionID, &p.ReturnURL)
	if errors.Is(err, pgx.ErrNoRows) {
		return app.PendingIdentity{}, domain.ErrCheckoutNotFound
	}
	return p, err
}

// CompletePendingIdentity marks a test verification used, once.
func (r Repo) CompletePendingIdentity(ctx context.Context, token string) error {
	tag, err := r.Pool.Exec(ctx, `UPDATE pending_identity_verifications SET completed_at = now()
		WHERE token = $1 AND completed_at IS NULL`, token)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return domain.ErrCheckoutNotFound
	}
	return nil
}
