// Package postgres stores the digest service's email outbox in its schema.
package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"uplift.dev/digest/internal/domain"
)

// DB is what the repository runs on: the pool, or the transaction of an
// event being handled, so queued emails commit with the event's record.
type DB interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Begin(ctx context.Context) (pgx.Tx, error)
}

// NotifyChannel is the LISTEN channel (suffixed with the schema) that wakes
// the sender when an email is queued.
const NotifyChannel = "emails_"

// Repo is the email outbox.
type Repo struct {
	DB DB
}

// Add inserts e unless its key exists, and wakes the sender at commit.
func (r Repo) Add(ctx context.Context, e domain.Email) (bool, error) {
	params, err := json.Marshal(e.Params)
	if err != nil {
		return false, err
	}
	tag, err := r.DB.Exec(ctx, `INSERT INTO emails (idempotency_key, kind, user_id, recipient, params)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (idempotency_key) DO NOTHING`,
		e.Key, string(e.Kind), e.UserID, e.To, params)
	if err != nil {
		return false, fmt.Errorf("emails: insert: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return false, nil
	}
	if _, err := r.DB.Exec(ctx, `SELECT pg_notify($1 || current_schema(), '')`, NotifyChannel); err != nil {
		return false, fmt.Errorf("emails: notify: %w", err)
	}
	return true, nil
}

// UpdateNextDue implements app.Store: one due row, locked with SKIP LOCKED
// so several senders share the work, changed by fn and saved in the same
// transaction.
func (r Repo) UpdateNextDue(ctx context.Context, now time.Time, fn func(*domain.Email) error) (bool, error) {
	found := false
	err := pgx.BeginFunc(ctx, r.DB, func(tx pgx.Tx) error {
		var (
			e      domain.Email
			kind   string
			status string
			params []byte
			sentAt *time.Time
		)
		err := tx.QueryRow(ctx, `SELECT id, idempotency_key, kind, user_id, recipient, params, status,
				attempts, next_attempt_at, last_error, sent_at
			FROM emails WHERE status = 'pending' AND next_attempt_at <= $1
			ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`, now).
			Scan(&e.ID, &e.Key, &kind, &e.UserID, &e.To, &params, &status, &e.Attempts, &e.NextAttemptAt, &e.LastError, &sentAt)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("emails: claim: %w", err)
		}
		found = true
		e.Kind, e.Status = domain.Kind(kind), domain.Status(status)
		if sentAt != nil {
			e.SentAt = *sentAt
		}
		if err := json.Unmarshal(params, &e.Params); err != nil {
			return fmt.Errorf("emails: params of %d: %w", e.ID, err)
		}
		if err := fn(&e); err != nil {
			return err
		}
		if params, err = json.Marshal(e.Params); err != nil {
			return err
		}
		sentAt = nil
		if !e.SentAt.IsZero() {
			sentAt = &e.SentAt
		}
		_, err = tx.Exec(ctx, `UPDATE emails SET status = $2, attempts = $3, next_attempt_at = $4,
				last_error = $5, sent_at = $6, params = $7 WHERE id = $1`,
			e.ID, string(e.Status), e.Attempts, e.NextAttemptAt, e.LastError, sentAt, params)
		if err != nil {
			return fmt.Errorf("emails: save %d: %w", e.ID, err)
		}
		return nil
	})
	return found, err
}

// DeleteUser removes every email of userID (none for an empty id, which
// password resets without a known user carry).
func (r Repo) DeleteUser(ctx context.Context, userID string) (int, error) {
	tag, err := r.DB.Exec(ctx, `DELETE FROM emails WHERE user_id = $1 AND $1 <> ''`, userID)
	if err != nil {
		return 0, fmt.Errorf("emails: delete user: %w", err)
	}
	return int(tag.RowsAffected()), nil
}
