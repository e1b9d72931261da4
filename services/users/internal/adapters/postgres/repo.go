// Package postgres stores users in the service's own schema and writes the
// events of each change to the outbox in the same transaction.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/protobuf/types/known/timestamppb"

	"uplift.dev/platform/clock"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/postgres"
	"uplift.dev/users/internal/domain"
)

// Repo implements app.Repository.
type Repo struct {
	Pool *pgxpool.Pool
	// Now dates the events the repository records: the service's clock,
	// nil the wall clock.
	Now clock.Clock
}

const columns = `id, email, display_name, sign_up_source, category_id, original_category_id,
	is_uplifter, billing_tier, billing_manually_set, unsubscribed_at, created_at`

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
			SuppressWelcomeEmail: suppressWelcomeEmail, OccurTime: timestamppb.New(r.Now.Now()),
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

// GetByEmail returns the user with email (compared case-insensitively).
func (r Repo) GetByEmail(ctx context.Context, email string) (domain.User, error) {
	return scan(r.Pool.QueryRow(ctx, `SELECT `+columns+` FROM users WHERE lower(email) = lower($1)`, email))
}

// OwnerOfCategory returns the user whose own category is categoryID.
func (r Repo) OwnerOfCategory(ctx context.Context, categoryID string) (domain.User, error) {
	return scan(r.Pool.QueryRow(ctx, `SELECT `+columns+` FROM users WHERE original_category_id = $1
		ORDER BY created_at LIMIT 1`, categoryID))
}

// Update applies fn to the locked row, saves it and writes fn's audit
// entries and events, all in one transaction.
func (r Repo) Update(ctx context.Context, id string, fn func(*domain.User) (domain.Change, error)) (domain.User, error) {
	var out domain.User
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		u, err := scan(tx.QueryRow(ctx, `SELECT `+columns+` FROM users WHERE id = $1 FOR UPDATE`, id))
		if err != nil {
			return err
		}
		change, err := fn(&u)
		if err != nil {
			return err
		}
		var tier *string
		if u.Billing != nil {
			tier = &u.Billing.Tier
		}
		manual := u.Billing != nil && u.Billing.IsManuallySet
		if _, err := tx.Exec(ctx, `UPDATE users SET email = $2, display_name = $3, category_id = $4,
			original_category_id = $5, is_uplifter = $6, billing_tier = $7, billing_manually_set = $8,
			unsubscribed_at = $9, updated_at = now() WHERE id = $1`,
			u.ID, u.Email, u.DisplayName, u.CategoryID, u.OriginalCategoryID, u.IsUplifter, tier, manual,
			u.UnsubscribedAt); err != nil {
			return err
		}
		if err := insertAudit(ctx, tx, change.Audit); err != nil {
			return err
		}
		if err := enqueue(ctx, tx, change.Events); err != nil {
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

// enqueue records the app's events as their messages on the outbox.
func enqueue(ctx context.Context, tx pgx.Tx, evs []domain.Event) error {
	for _, ev := range evs {
		var err error
		switch ev := ev.(type) {
		case domain.EmailChanged:
			err = events.Enqueue(ctx, tx, events.SubjectUserEmailChanged, &eventsv1.UserEmailChanged{
				UserId: ev.UserID, OldEmail: ev.OldEmail, NewEmail: ev.NewEmail, OccurTime: timestamppb.New(ev.At),
			})
		case domain.Unsubscribed:
			err = events.Enqueue(ctx, tx, events.SubjectUserUnsubscribed, &eventsv1.UserUnsubscribed{
				UserId: ev.UserID, Email: ev.Email, CategoryId: ev.CategoryID, OccurTime: timestamppb.New(ev.At),
			})
		case domain.RoleChanged:
			err = events.Enqueue(ctx, tx, events.SubjectUserRoleChanged, &eventsv1.UserRoleChanged{
				UserId: ev.UserID, Role: string(ev.Role), Granted: ev.Granted, OccurTime: timestamppb.New(ev.At),
			})
		default:
			err = fmt.Errorf("no message for event %T", ev)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Record writes a change that lives in another store (its audit entries
// and the events the app says it implies) in a transaction of its own.
func (r Repo) Record(ctx context.Context, change domain.Change) error {
	return pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		if err := insertAudit(ctx, tx, change.Audit); err != nil {
			return err
		}
		return enqueue(ctx, tx, change.Events)
	})
}

// Audit writes entries in a transaction of their own.
func (r Repo) Audit(ctx context.Context, entries ...domain.AuditEntry) error {
	return pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error { return insertAudit(ctx, tx, entries) })
}

// AuditLog reads one side of a user's audit log with the emails of the
// people in it; a deleted user's email is empty, their rows stay.
func (r Repo) AuditLog(ctx context.Context, q domain.AuditQuery) ([]domain.AuditRecord, error) {
	side := `a.on_behalf_of_id = $1 AND a.actor_id <> $1`
	if q.Role == domain.AuditAsActor {
		side = `a.actor_id = $1 AND a.on_behalf_of_id IS DISTINCT FROM $1`
	}
	rows, err := r.Pool.Query(ctx, `SELECT a.actor_id, coalesce(actor.email, ''), coalesce(a.on_behalf_of_id, ''),
			coalesce(owner.email, ''), a.category_id, a.action, a.detail, a.created_at
		FROM audit_log a
		LEFT JOIN users actor ON actor.id = a.actor_id
		LEFT JOIN users owner ON owner.id = a.on_behalf_of_id
		WHERE `+side+` AND a.created_at >= $2
		ORDER BY a.created_at DESC, a.id DESC
		LIMIT $3`, q.UserID, q.Since, q.Limit)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.AuditRecord, error) {
		var rec domain.AuditRecord
		err := row.Scan(&rec.ActorID, &rec.ActorEmail, &rec.OnBehalfOfID, &rec.OwnerEmail, &rec.CategoryID,
			&rec.Action, &rec.Detail, &rec.At)
		return rec, err
	})
}

// PurgeAudit deletes audit rows written before before.
func (r Repo) PurgeAudit(ctx context.Context, before time.Time) (int64, error) {
	tag, err := r.Pool.Exec(ctx, `DELETE FROM audit_log WHERE created_at < $1`, before)
	if err != nil {
		return 0, fmt.Errorf("purge audit: %w", err)
	}
	return tag.RowsAffected(), nil
}

func insertAudit(ctx context.Context, tx pgx.Tx, entries []domain.AuditEntry) error {
	for _, e := range entries {
		var owner *string
		if e.OnBehalfOfID != "" {
			owner = &e.OnBehalfOfID
		}
		if _, err := tx.Exec(ctx, `INSERT INTO audit_log (actor_id, on_behalf_of_id, category_id, action, detail, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, e.ActorID, owner, e.CategoryID, e.Action, e.Detail, e.At); err != nil {
			return fmt.Errorf("audit: %w", err)
		}
	}
	return nil
}

// Search runs a validated search; see app.Repository.
func (r Repo) Search(ctx context.Context, s domain.Search) ([]domain.User, error) {
	var afterEmail, afterID *string
	if s.After != nil {
		afterEmail, afterID = &s.After.Email, &s.After.ID
	}
	rows, err := r.Pool.Query(ctx, `SELECT `+columns+` FROM users
		WHERE ($1 = '' OR lower(email) LIKE $2 ESCAPE '\' OR lower(display_name) LIKE $2 ESCAPE '\')
		  AND (NOT $3 OR original_category_id <> '')
		  AND ($4::text IS NULL OR (lower(email), id) > ($4::text, $5::text))
		ORDER BY lower(email), id
		LIMIT $6`,
		s.Query, likePrefix(s.Query), s.WithProfileOnly, afterEmail, afterID, s.PageSize+1)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.User
	for rows.Next() {
		u, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// likePrefix makes q a LIKE pattern that matches q literally at the start.
func likePrefix(q string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q) + "%"
}

// Delete removes the user, their reset rate-limit row and records
// UserDeleted. Users of other accounts who were viewing the deleted user's
// category are sent back to their own, so no one is left viewing a category
// that no longer exists.
func (r Repo) Delete(ctx context.Context, id string, audit ...domain.AuditEntry) (domain.User, error) {
	var out domain.User
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		u, err := scan(tx.QueryRow(ctx, `DELETE FROM users WHERE id = $1 RETURNING `+columns, id))
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM password_reset_requests WHERE email = lower($1)`, u.Email); err != nil {
			return err
		}
		if u.OriginalCategoryID != "" {
			if _, err := tx.Exec(ctx, `UPDATE users SET category_id = original_category_id, updated_at = now()
				WHERE category_id = $1 AND original_category_id <> $1`, u.OriginalCategoryID); err != nil {
				return err
			}
		}
		out = u
		if err := insertAudit(ctx, tx, audit); err != nil {
			return err
		}
		return events.Enqueue(ctx, tx, events.SubjectUserDeleted, &eventsv1.UserDeleted{
			UserId: u.ID, CategoryId: u.OriginalCategoryID, OccurTime: timestamppb.New(r.Now.Now()),
		})
	})
	return out, err
}

// ClaimPasswordReset takes email's reset slot unless it was taken within
// interval (domain.ErrRateLimited), and commits at once: the Firebase call
// that follows must not hold a transaction or the row lock.
func (r Repo) ClaimPasswordReset(ctx context.Context, email string, interval time.Duration) (time.Time, error) {
	// The upsert locks the row, so two concurrent requests cannot both
	// claim the slot; the WHERE leaves a recent slot untouched.
	var claimed time.Time
	err := r.Pool.QueryRow(ctx, `INSERT INTO password_reset_requests AS p (email, last_requested_at) VALUES ($1, now())
		ON CONFLICT (email) DO UPDATE SET last_requested_at = now()
		WHERE p.last_requested_at <= now() - make_interval(secs => $2)
		RETURNING last_requested_at`, email, interval.Seconds()).Scan(&claimed)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, domain.ErrRateLimited
	}
	return claimed, err
}

// ReleasePasswordReset frees the slot claimed at claimed, so a reset whose
// link could not be made can be asked for again at once.
func (r Repo) ReleasePasswordReset(ctx context.Context, email string, claimed time.Time) error {
	_, err := r.Pool.Exec(ctx, `DELETE FROM password_reset_requests WHERE email = $1 AND last_requested_at = $2`, email, claimed)
	return err
}

// RecordPasswordReset records PasswordResetRequested with its link.
func (r Repo) RecordPasswordReset(ctx context.Context, email, link string, at time.Time) error {
	return pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		return events.Enqueue(ctx, tx, events.SubjectPasswordResetRequested, &eventsv1.PasswordResetRequested{
			Email: email, Link: link, OccurTime: timestamppb.New(at),
		})
	})
}

// RecordSignUpAttempt records SignUpAttempted for the account with email.
func (r Repo) RecordSignUpAttempt(ctx context.Context, userID, email string, at time.Time) error {
	return pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		return events.Enqueue(ctx, tx, events.SubjectSignUpAttempted, &eventsv1.SignUpAttempted{
			UserId: userID, Email: email, OccurTime: timestamppb.New(at),
		})
	})
}

// RecordEmailVerification implements app.VerificationRecorder.
func (r Repo) RecordEmailVerification(ctx context.Context, userID, email, link string, at time.Time) error {
	return pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		return events.Enqueue(ctx, tx, events.SubjectEmailVerificationRequested, &eventsv1.EmailVerificationRequested{
			UserId: userID, Email: email, Link: link, OccurTime: timestamppb.New(at),
		})
	})
}

func scan(row pgx.Row) (domain.User, error) {
	var u domain.User
	var tier *string
	var manual bool
	err := row.Scan(&u.ID, &u.Email, &u.DisplayName, &u.SignUpSource, &u.CategoryID, &u.OriginalCategoryID,
		&u.IsUplifter, &tier, &manual, &u.UnsubscribedAt, &u.CreatedAt)
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

// TxRepo is the storage an event consumer changes inside its own
// transaction (app.EventStore).
type TxRepo struct{ Tx pgx.Tx }

// BillingSourceTime locks the user's row and returns the source time of
// the billing change it shows.
func (r TxRepo) BillingSourceTime(ctx context.Context, userID string) (*time.Time, error) {
	var stored *time.Time
	err := r.Tx.QueryRow(ctx, `SELECT billing_source_time FROM users WHERE id = $1 FOR UPDATE`, userID).Scan(&stored)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, domain.ErrNotFound
	}
	return stored, err
}

// SetBilling stores the user's billing.
func (r TxRepo) SetBilling(ctx context.Context, c domain.BillingChange) error {
	_, err := r.Tx.Exec(ctx, `UPDATE users SET billing_tier = $2, billing_manually_set = $3, billing_source_time = $4,
		updated_at = now() WHERE id = $1`, c.UserID, c.Tier, c.IsManuallySet, c.SourceTime)
	return err
}

// Audit writes audit entries in the consumer's transaction.
func (r TxRepo) Audit(ctx context.Context, entries ...domain.AuditEntry) error {
	return insertAudit(ctx, r.Tx, entries)
}
