package postgres

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

var _ app.GA4Repository = Repo{}

func scanGA4State(row pgx.Row) (app.GA4State, error) {
	var st app.GA4State
	err := row.Scan(&st.State, &st.CategoryID, &st.UserID, &st.Verifier, &st.CreatedAt, &st.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return app.GA4State{}, domain.ErrNotFound
	}
	return st, err
}

const ga4StateColumns = `state, category_id, user_id, verifier, created_at, expires_at`

// CreateGA4State implements app.GA4Repository; states a day past their
// expiry go at the same time.
func (r Repo) CreateGA4State(ctx context.Context, st app.GA4State) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM ga4_states WHERE expires_at < $1::timestamptz - interval '1 day'`, st.CreatedAt); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			INSERT INTO ga4_states (state, category_id, user_id, verifier, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, st.State, st.CategoryID, st.UserID, st.Verifier, st.CreatedAt, st.ExpiresAt)
		return err
	})
}

// UseGA4State implements app.GA4Repository.
func (r Repo) UseGA4State(ctx context.Context, state string, now time.Time) (app.GA4State, error) {
	return scanGA4State(r.Pool.QueryRow(ctx, `
		UPDATE ga4_states SET used_at = $2 WHERE state = $1 AND used_at IS NULL AND expires_at > $2
		RETURNING `+ga4StateColumns, state, now))
}

// GA4State implements app.GA4Repository.
func (r Repo) GA4State(ctx context.Context, state string, now time.Time) (app.GA4State, error) {
	return scanGA4State(r.Pool.QueryRow(ctx, `SELECT `+ga4StateColumns+`
		FROM ga4_states WHERE state = $1 AND used_at IS NULL AND expires_at > $2`, state, now))
}

// ConnectGA4 implements app.GA4Repository: a new consent replaces the
// token; a property picked before stays, refreshed at once.
func (r Repo) ConnectGA4(ctx context.Context, c app.GA4Connection) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			INSERT INTO ga4_connections (category_id, status, refresh_token, scopes, connected_by, connected_at)
			VALUES ($1, 'PICK_PROPERTY', $2, $3, $4, $5)
			ON CONFLICT (category_id) DO UPDATE SET
				status = CASE WHEN ga4_connections.property_id <> '' THEN 'CONNECTED' ELSE 'PICK_PROPERTY' END,
				refresh_token = excluded.refresh_token, scopes = excluded.scopes,
				connected_by = excluded.connected_by, connected_at = excluded.connected_at,
				refresh_due_at = CASE WHEN ga4_connections.property_id <> '' THEN excluded.connected_at END,
				refresh_claimed_until = NULL, attempts = 0, error = '', quota_until = NULL`,
			c.CategoryID, c.RefreshToken, strings.Join(c.Scopes, " "), c.ConnectedBy, c.ConnectedAt); err != nil {
			return err
		}
		return notify(ctx, tx)
	})
}

const ga4Columns = `category_id, status, refresh_token, scopes, property_id, property_name, property_timezone,
	property_currency, sessions_source, connected_by, connected_at, backfilled, attempts, last_refreshed_at,
	quota_until, sampled, thresholded, error`

func scanGA4(row pgx.Row) (*app.GA4Connection, error) {
	var c app.GA4Connection
	var scopes, source string
	err := row.Scan(&c.CategoryID, &c.Status, &c.RefreshToken, &scopes, &c.PropertyID, &c.PropertyName,
		&c.PropertyTimezone, &c.PropertyCurrency, &source, &c.ConnectedBy, &c.ConnectedAt, &c.Backfilled,
		&c.Attempts, &c.LastRefreshedAt, &c.QuotaUntil, &c.Sampled, &c.Thresholded, &c.Error)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.Scopes, c.SessionsSource = strings.Fields(scopes), domain.SessionsSource(source)
	return &c, nil
}

// GA4Connection implements app.GA4Repository.
func (r Repo) GA4Connection(ctx context.Context, categoryID string) (*app.GA4Connection, error) {
	return scanGA4(r.Pool.QueryRow(ctx, `SELECT `+ga4Columns+` FROM ga4_connections WHERE category_id = $1`, categoryID))
}

// SelectGA4Property implements app.GA4Repository.
func (r Repo) SelectGA4Property(ctx context.Context, categoryID string, p app.GA4Property, source domain.SessionsSource, now time.Time) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		var old string
		if err := tx.QueryRow(ctx, `SELECT property_id FROM ga4_connections WHERE category_id = $1 FOR UPDATE`, categoryID).Scan(&old); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return app.ErrGA4NotConnected
			}
			return err
		}
		if old != p.ID {
			if _, err := tx.Exec(ctx, `DELETE FROM ga4_days WHERE category_id = $1`, categoryID); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `
			UPDATE ga4_connections SET status = 'CONNECTED', property_id = $2, property_name = $3, sessions_source = $4,
				backfilled = backfilled AND property_id = $2,
				property_timezone = CASE WHEN property_id = $2 THEN property_timezone ELSE '' END,
				property_currency = CASE WHEN property_id = $2 THEN property_currency ELSE '' END,
				sampled = sampled AND property_id = $2, thresholded = thresholded AND property_id = $2,
				refresh_due_at = $5, refresh_claimed_until = NULL, attempts = 0, error = ''
			WHERE category_id = $1`, categoryID, p.ID, p.Name, string(source), now); err != nil {
			return err
		}
		return notify(ctx, tx)
	})
}

// RequestGA4Sync implements app.GA4Repository; a spent quota still waits.
func (r Repo) RequestGA4Sync(ctx context.Context, categoryID string, now time.Time) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			UPDATE ga4_connections SET refresh_due_at = greatest($2, quota_until)
			WHERE category_id = $1 AND status = 'CONNECTED'`, categoryID, now); err != nil {
			return err
		}
		return notify(ctx, tx)
	})
}

// DisconnectGA4 implements app.GA4Repository: the token goes, the days stay.
func (r Repo) DisconnectGA4(ctx context.Context, categoryID string) error {
	_, err := r.Pool.Exec(ctx, `
		UPDATE ga4_connections SET status = 'DISCONNECTED', refresh_token = NULL, refresh_due_at = NULL,
			refresh_claimed_until = NULL
		WHERE category_id = $1`, categoryID)
	return err
}

// ClaimGA4Sync implements app.GA4Repository.
func (r Repo) ClaimGA4Sync(ctx context.Context, now time.Time, lease time.Duration) (*app.GA4Connection, error) {
	return scanGA4(r.Pool.QueryRow(ctx, `
		UPDATE ga4_connections SET refresh_claimed_until = $2
		WHERE category_id = (
			SELECT category_id FROM ga4_connections
			WHERE refresh_due_at <= $1 AND status = 'CONNECTED' AND property_id <> ''
			  AND (refresh_claimed_until IS NULL OR refresh_claimed_until < $1)
			ORDER BY refresh_due_at LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING `+ga4Columns, now, now.Add(lease)))
}

// SaveGA4Days implements app.GA4Repository.
func (r Repo) SaveGA4Days(ctx context.Context, categoryID string, connectedAt time.Time, propertyID string,
	rep app.GA4Report, days []app.GA4Day, at, next time.Time) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		var ok bool
		if err := tx.QueryRow(ctx, `
			SELECT true FROM ga4_connections WHERE category_id = $1 AND connected_at = $2 AND property_id = $3
			  AND status = 'CONNECTED' FOR UPDATE`,
			categoryID, connectedAt, propertyID).Scan(&ok); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return domain.ErrConnectionChanged
			}
			return err
		}
		b := &pgx.Batch{}
		for _, d := range days {
			b.Queue(`
				INSERT INTO ga4_days (category_id, day, property_id, sessions, purchases) VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (category_id, day) DO UPDATE SET property_id = excluded.property_id,
					sessions = excluded.sessions, purchases = excluded.purchases`,
				categoryID, pgDate(d.Day), propertyID, d.Sessions, d.Purchases)
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			UPDATE ga4_connections SET backfilled = true, attempts = 0, last_refreshed_at = $2, refresh_due_at = $3,
				refresh_claimed_until = NULL, sampled = $4, thresholded = $5, quota_until = NULL, error = '',
				property_timezone = coalesce(nullif($6, ''), property_timezone),
				property_currency = coalesce(nullif($7, ''), property_currency)
			WHERE category_id = $1`, categoryID, at, next, rep.Sampled, rep.Thresholded, rep.TimeZone, rep.Currency)
		return err
	})
}

// FailGA4Sync implements app.GA4Repository.
func (r Repo) FailGA4Sync(ctx context.Context, categoryID string, connectedAt time.Time, status, message string,
	quotaUntil *time.Time, retry time.Time) error {
	_, err := r.Pool.Exec(ctx, `
		UPDATE ga4_connections SET status = $3, error = $4, quota_until = $5,
			attempts = attempts + 1, refresh_claimed_until = NULL,
			refresh_due_at = CASE WHEN $3 = 'REAUTHORIZE' THEN NULL ELSE $6::timestamptz END
		WHERE category_id = $1 AND connected_at = $2 AND status IN ('CONNECTED', 'PICK_PROPERTY')`,
		categoryID, connectedAt, status, message, quotaUntil, retry)
	return err
}

// GA4Days implements app.GA4Repository.
func (r Repo) GA4Days(ctx context.Context, categoryID string, from, to domain.Date) (*app.GA4Connection, []app.GA4Day, error) {
	c, err := r.GA4Connection(ctx, categoryID)
	if err != nil || c == nil || c.PropertyID == "" {
		return nil, nil, err
	}
	rows, err := r.Pool.Query(ctx, `
		SELECT day, sessions, purchases FROM ga4_days
		WHERE category_id = $1 AND property_id = $2 AND day BETWEEN $3 AND $4 ORDER BY day`,
		categoryID, c.PropertyID, pgDate(from), pgDate(to))
	if err != nil {
		return nil, nil, err
	}
	days, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (app.GA4Day, error) {
		var d app.GA4Day
		var day time.Time
		err := row.Scan(&day, &d.Sessions, &d.Purchases)
		d.Day = fromPgDate(day)
		return d, err
	})
	return c, days, err
}
