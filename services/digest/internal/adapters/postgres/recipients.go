package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/events"
)

// SetRecipient implements app.RecipientStore: it records a user's address
// (and category, when given) as of at, unless a newer address is stored or
// the user was deleted.
func (r Repo) SetRecipient(ctx context.Context, rc domain.Recipient, at time.Time) error {
	_, err := r.DB.Exec(ctx, `INSERT INTO recipients (user_id, email, email_time, category_id)
		VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET
			email = CASE WHEN recipients.email_time < EXCLUDED.email_time THEN EXCLUDED.email ELSE recipients.email END,
			email_time = greatest(recipients.email_time, EXCLUDED.email_time),
			category_id = CASE WHEN EXCLUDED.category_id <> '' THEN EXCLUDED.category_id ELSE recipients.category_id END,
			updated_at = now()
		WHERE NOT recipients.deleted`, rc.UserID, rc.Email, at, rc.CategoryID)
	if err != nil {
		return fmt.Errorf("recipients: set: %w", err)
	}
	return nil
}

// ForgetRecipient implements app.RecipientStore: the user's address, store
// snapshots and suppressions go; a tombstone keeps later events out.
func (r Repo) ForgetRecipient(ctx context.Context, userID string) error {
	if userID == "" {
		return nil
	}
	for _, q := range []string{
		`INSERT INTO recipients (user_id, deleted) VALUES ($1, true)
			ON CONFLICT (user_id) DO UPDATE SET email = '', category_id = '', deleted = true, updated_at = now()`,
		`DELETE FROM recipient_stores WHERE owner_user_id = $1`,
		`DELETE FROM suppressions WHERE user_id = $1`,
	} {
		if _, err := r.DB.Exec(ctx, q, userID); err != nil {
			return fmt.Errorf("recipients: forget: %w", err)
		}
	}
	return nil
}

// Recipient implements app.RecipientStore: the user's recipient, or false
// when unknown or deleted.
func (r Repo) Recipient(ctx context.Context, userID string) (domain.Recipient, bool, error) {
	rc := domain.Recipient{UserID: userID}
	err := r.DB.QueryRow(ctx, `SELECT email, category_id FROM recipients WHERE user_id = $1 AND NOT deleted AND email <> ''`,
		userID).Scan(&rc.Email, &rc.CategoryID)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.Recipient{}, false, nil
	}
	if err != nil {
		return domain.Recipient{}, false, fmt.Errorf("recipients: get: %w", err)
	}
	return rc, true, nil
}

// CategoryOwner implements app.RecipientStore: the owner of a category as
// the store snapshots or the users' events tell it, or "".
func (r Repo) CategoryOwner(ctx context.Context, categoryID string) (string, error) {
	var owner string
	err := r.DB.QueryRow(ctx, `SELECT coalesce(
			(SELECT owner_user_id FROM recipient_stores WHERE category_id = $1 AND owner_user_id <> ''),
			(SELECT user_id FROM recipients WHERE category_id = $1 AND NOT deleted LIMIT 1), '')`, categoryID).Scan(&owner)
	if err != nil {
		return "", fmt.Errorf("recipients: owner: %w", err)
	}
	return owner, nil
}

// StoreName implements app.RecipientStore.
func (r Repo) StoreName(ctx context.Context, categoryID string) (string, error) {
	var name string
	err := r.DB.QueryRow(ctx, `SELECT name FROM recipient_stores WHERE category_id = $1`, categoryID).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("recipients: store name: %w", err)
	}
	return name, nil
}

// ApplyStore implements app.RecipientStore: it keeps s unless a newer
// snapshot of the category is stored, and returns the one it replaced
// (nil if none) and whether s was kept.
func (r Repo) ApplyStore(ctx context.Context, s domain.Store) (prev *domain.Store, applied bool, err error) {
	err = pgx.BeginFunc(ctx, r.DB, func(tx pgx.Tx) error {
		var p domain.Store
		err := tx.QueryRow(ctx, `SELECT category_id, owner_user_id, name, site_url, disable_weekly_email,
				disable_business_report, occur_time FROM recipient_stores WHERE category_id = $1 FOR UPDATE`, s.CategoryID).
			Scan(&p.CategoryID, &p.OwnerUserID, &p.Name, &p.SiteURL, &p.DisableWeeklyEmail, &p.DisableBusinessReport, &p.At)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return err
		default:
			if !p.At.Before(s.At) {
				return nil
			}
			prev = &p
		}
		applied = true
		_, err = tx.Exec(ctx, `INSERT INTO recipient_stores (category_id, owner_user_id, name, site_url,
				disable_weekly_email, disable_business_report, occur_time) VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (category_id) DO UPDATE SET owner_user_id = EXCLUDED.owner_user_id, name = EXCLUDED.name,
				site_url = EXCLUDED.site_url, disable_weekly_email = EXCLUDED.disable_weekly_email,
				disable_business_report = EXCLUDED.disable_business_report, occur_time = EXCLUDED.occur_time,
				updated_at = now()`,
			s.CategoryID, s.OwnerUserID, s.Name, s.SiteURL, s.DisableWeeklyEmail, s.DisableBusinessReport, s.At)
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("recipient stores: apply: %w", err)
	}
	return prev, applied, nil
}

// SetSuppression implements app.RecipientStore: it keeps s unless a newer
// choice for the user and kind is stored, and reports whether the user's
// state changed (on to off or back).
func (r Repo) SetSuppression(ctx context.Context, s domain.Suppression) (changed bool, err error) {
	var before *bool
	err = pgx.BeginFunc(ctx, r.DB, func(tx pgx.Tx) error {
		var was bool
		var at time.Time
		err := tx.QueryRow(ctx, `SELECT suppressed, changed_at FROM suppressions WHERE user_id = $1 AND kind = $2 FOR UPDATE`,
			s.UserID, string(s.Kind)).Scan(&was, &at)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return err
		default:
			if at.After(s.At) {
				return nil
			}
			before = &was
		}
		changed = before == nil && s.Suppressed || before != nil && *before != s.Suppressed
		_, err = tx.Exec(ctx, `INSERT INTO suppressions (user_id, kind, suppressed, changed_at, source) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (user_id, kind) DO UPDATE SET suppressed = EXCLUDED.suppressed, changed_at = EXCLUDED.changed_at,
				source = EXCLUDED.source`, s.UserID, string(s.Kind), s.Suppressed, s.At, s.Source)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("suppressions: set: %w", err)
	}
	return changed, nil
}

// Suppressed implements app.Store: whether userID turned kind off.
func (r Repo) Suppressed(ctx context.Context, userID string, kind domain.Kind) (bool, error) {
	var off bool
	err := r.DB.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM suppressions WHERE user_id = $1 AND kind = $2 AND suppressed)`,
		userID, string(kind)).Scan(&off)
	if err != nil {
		return false, fmt.Errorf("suppressions: get: %w", err)
	}
	return off, nil
}

// ChangeSubscription implements app.Store: in one transaction it records
// s and, when the user's state changed, publishes EmailKindUnsubscribed
// (through the outbox) so the categories service flips the profile's switch.
func (r Repo) ChangeSubscription(ctx context.Context, s domain.Suppression) (bool, error) {
	changed := false
	err := pgx.BeginFunc(ctx, r.DB, func(tx pgx.Tx) error {
		in := Repo{DB: tx}
		var err error
		if changed, err = in.SetSuppression(ctx, s); err != nil || !changed {
			return err
		}
		var category string
		err = tx.QueryRow(ctx, `SELECT coalesce((SELECT category_id FROM recipients WHERE user_id = $1), '')`, s.UserID).Scan(&category)
		if err != nil {
			return err
		}
		return events.Enqueue(ctx, tx, events.SubjectEmailKindUnsubscribed, &eventsv1.EmailKindUnsubscribed{
			UserId: s.UserID, CategoryId: category, Kind: string(s.Kind), Resubscribed: !s.Suppressed,
			OccurTime: timestamppb.New(s.At),
		})
	})
	if err != nil {
		return false, fmt.Errorf("subscription: %w", err)
	}
	return changed, nil
}
