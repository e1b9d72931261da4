// Package postgres stores the digest service's email outbox in its schema.
package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/tracing"
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
	// The span in ctx (the event or call that queued it) is where the
	// send's span will hang.
	var traceparent *string
	if tp := tracing.TraceParent(ctx); tp != "" {
		traceparent = &tp
	}
	tag, err := r.DB.Exec(ctx, `INSERT INTO emails (idempotency_key, kind, user_id, recipient, params, traceparent)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (idempotency_key) DO NOTHING`,
		e.Key, string(e.Kind), e.UserID, e.To, params, traceparent)
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

// UpdateDue implements app.Store: up to limit due rows, locked with SKIP
// LOCKED so several senders share the work, changed by fn and saved with
// one UPDATE in the same transaction. The transaction does not end with
// ctx, so the marks of emails already sent are committed on a shutdown.
func (r Repo) UpdateDue(ctx context.Context, now time.Time, limit int, fn func(*domain.Email) bool) (int, error) {
	txCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), saveTimeout)
	defer cancel()
	claimed := 0
	err := pgx.BeginFunc(txCtx, r.DB, func(tx pgx.Tx) error {
		rows, err := tx.Query(txCtx, `SELECT id, idempotency_key, kind, user_id, recipient, params, status,
				attempts, next_attempt_at, last_error, sent_at, coalesce(traceparent, '')
			FROM emails WHERE status = 'pending' AND next_attempt_at <= $1
			ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`, now, limit)
		if err != nil {
			return fmt.Errorf("emails: claim: %w", err)
		}
		emails, err := pgx.CollectRows(rows, scanEmail)
		if err != nil {
			return fmt.Errorf("emails: claim: %w", err)
		}
		claimed = len(emails)
		var b saveBatch
		for _, e := range emails {
			if !fn(e) {
				break
			}
			if err := b.add(e); err != nil {
				return err
			}
		}
		if len(b.ids) == 0 {
			return nil
		}
		if _, err := tx.Exec(txCtx, `UPDATE emails SET status = u.status, attempts = u.attempts,
				next_attempt_at = u.next_attempt_at, last_error = u.last_error, sent_at = u.sent_at, params = u.params
			FROM unnest($1::bigint[], $2::text[], $3::integer[], $4::timestamptz[], $5::text[], $6::timestamptz[], $7::jsonb[])
				AS u(id, status, attempts, next_attempt_at, last_error, sent_at, params)
			WHERE emails.id = u.id`,
			b.ids, b.statuses, b.attempts, b.next, b.errors, b.sentAt, b.params); err != nil {
			return fmt.Errorf("emails: save %d: %w", len(b.ids), err)
		}
		return nil
	})
	return claimed, err
}

// saveTimeout bounds a batch's transaction: its sends (each bounded by the
// mailer's own timeout) and the commit.
const saveTimeout = 5 * time.Minute

// scanEmail reads one claimed row.
func scanEmail(row pgx.CollectableRow) (*domain.Email, error) {
	var (
		e      domain.Email
		kind   string
		status string
		params []byte
		sentAt *time.Time
	)
	if err := row.Scan(&e.ID, &e.Key, &kind, &e.UserID, &e.To, &params, &status, &e.Attempts, &e.NextAttemptAt, &e.LastError, &sentAt, &e.TraceParent); err != nil {
		return nil, err
	}
	e.Kind, e.Status = domain.Kind(kind), domain.Status(status)
	if sentAt != nil {
		e.SentAt = *sentAt
	}
	if err := json.Unmarshal(params, &e.Params); err != nil {
		return nil, fmt.Errorf("params of %d: %w", e.ID, err)
	}
	return &e, nil
}

// saveBatch holds a batch's changed rows as the columns of one UPDATE.
type saveBatch struct {
	ids      []int64
	statuses []string
	attempts []int
	next     []time.Time
	errors   []string
	sentAt   []*time.Time
	params   [][]byte
}

func (b *saveBatch) add(e *domain.Email) error {
	params, err := json.Marshal(e.Params)
	if err != nil {
		return fmt.Errorf("emails: params of %d: %w", e.ID, err)
	}
	var sentAt *time.Time
	if !e.SentAt.IsZero() {
		sentAt = &e.SentAt
	}
	b.ids = append(b.ids, e.ID)
	b.statuses = append(b.statuses, string(e.Status))
	b.attempts = append(b.attempts, e.Attempts)
	b.next = append(b.next, e.NextAttemptAt)
	b.errors = append(b.errors, e.LastError)
	b.sentAt = append(b.sentAt, sentAt)
	b.params = append(b.params, params)
	return nil
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
