package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// CreateState implements app.Repository. Expired states are swept on the way.
func (r Repo) CreateState(ctx context.Context, st app.OAuthState) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM oauth_states WHERE expires_at < $1::timestamptz - interval '1 day'`, st.CreatedAt); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			INSERT INTO oauth_states (state, category_id, user_id, shop, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, st.State, st.CategoryID, st.UserID, st.Shop, st.CreatedAt, st.ExpiresAt)
		return err
	})
}

// State implements app.Repository.
func (r Repo) State(ctx context.Context, state string, now time.Time) (app.OAuthState, error) {
	return scanState(r.Pool.QueryRow(ctx, `
		SELECT state, category_id, user_id, shop, created_at, expires_at FROM oauth_states
		WHERE state = $1 AND used_at IS NULL AND expires_at > $2`, state, now))
}

// UseState implements app.Repository: one UPDATE, so two callbacks racing
// with the same state cannot both win.
func (r Repo) UseState(ctx context.Context, state string, now time.Time) (app.OAuthState, error) {
	return scanState(r.Pool.QueryRow(ctx, `
		UPDATE oauth_states SET used_at = $2
		WHERE state = $1 AND used_at IS NULL AND expires_at > $2
		RETURNING state, category_id, user_id, shop, created_at, expires_at`, state, now))
}

func scanState(row pgx.Row) (app.OAuthState, error) {
	var st app.OAuthState
	err := row.Scan(&st.State, &st.CategoryID, &st.UserID, &st.Shop, &st.CreatedAt, &st.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return app.OAuthState{}, domain.ErrNotFound
	}
	return st, err
}

const connectionColumns = `category_id, shop, status, name, currency, timezone, scopes,
	access_token, coalesce(access_expires_at, 'epoch'), refresh_token, coalesce(refresh_expires_at, 'epoch'),
	connected_by, connected_at, sync_requested_at, sync_full, sync_phase, sync_orders, sync_orders_total,
	sync_products, sync_customers, sync_percent, sync_error, last_synced_at, watermark, sessions_available,
	coalesce(sync_claimed_until, 'epoch')`

func scanConnection(row pgx.Row) (*app.Connection, error) {
	var c app.Connection
	var claimed time.Time
	err := row.Scan(&c.CategoryID, &c.Shop, &c.Status, &c.Name, &c.Currency, &c.Timezone, &c.Tokens.Scopes,
		&c.Tokens.Access, &c.Tokens.AccessExpiresAt, &c.Tokens.Refresh, &c.Tokens.RefreshExpiresAt,
		&c.ConnectedBy, &c.ConnectedAt, &c.SyncRequestedAt, &c.SyncFull, &c.Progress.Phase, &c.Progress.Orders,
		&c.Progress.OrdersTotal, &c.Progress.Products, &c.Progress.Customers, &c.Progress.Percent, &c.Progress.Error,
		&c.LastSyncedAt, &c.Watermark, &c.SessionsAvailable, &claimed)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, t := range []*time.Time{&c.Tokens.AccessExpiresAt, &c.Tokens.RefreshExpiresAt} {
		if t.Unix() == 0 {
			*t = time.Time{}
		}
	}
	return &c, nil
}

// Connection implements app.Repository.
func (r Repo) Connection(ctx context.Context, categoryID string) (*app.Connection, error) {
	return scanConnection(r.Pool.QueryRow(ctx, `SELECT `+connectionColumns+` FROM shopify_connections WHERE category_id = $1`, categoryID))
}

// ConnectionByShop implements app.Repository.
func (r Repo) ConnectionByShop(ctx context.Context, shop string) (*app.Connection, error) {
	return scanConnection(r.Pool.QueryRow(ctx, `SELECT `+connectionColumns+` FROM shopify_connections WHERE shop = $1 AND status = 'CONNECTED'`, shop))
}

// CategoriesOfShop implements app.Repository.
func (r Repo) CategoriesOfShop(ctx context.Context, shop string) ([]string, error) {
	rows, err := r.Pool.Query(ctx, `SELECT category_id::text FROM shopify_connections WHERE shop = $1`, shop)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// Connect implements app.Repository.
func (r Repo) Connect(ctx context.Context, c app.Connection) (string, error) {
	var movedFrom string
	err := r.tx(ctx, func(tx pgx.Tx) error {
		// The row lock makes a sync, a webhook or a second connect of the
		// same shop wait until the move is done.
		err := tx.QueryRow(ctx, `
			SELECT category_id::text FROM shopify_connections
			WHERE shop = $1 AND status = 'CONNECTED' AND category_id <> $2 FOR UPDATE`, c.Shop, c.CategoryID).Scan(&movedFrom)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if movedFrom != "" {
			if err := removeShopRows(ctx, tx, movedFrom); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `
				UPDATE shopify_connections SET status = 'MOVED', uninstalled_at = $2, access_token = NULL, refresh_token = NULL,
					access_expires_at = NULL, refresh_expires_at = NULL, sync_requested_at = NULL, sync_claimed_until = NULL,
					sync_phase = 'IDLE', sync_orders = 0, sync_orders_total = 0, sync_products = 0, sync_customers = 0,
					sync_percent = 0, sync_error = '', watermark = NULL, last_synced_at = NULL
				WHERE category_id = $1`, movedFrom, c.ConnectedAt); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO shopify_connections (category_id, shop, status, scopes, access_token, access_expires_at,
				refresh_token, refresh_expires_at, connected_by, connected_at, sessions_available,
				sync_requested_at, sync_full, sync_phase, sync_attempts)
			VALUES ($1, $2, 'CONNECTED', $3, $4, $5, $6, $7, $8, $9, $10, $9, true, 'QUEUED', 0)
			ON CONFLICT (category_id) DO UPDATE SET
				shop = excluded.shop, status = 'CONNECTED', scopes = excluded.scopes,
				access_token = excluded.access_token, access_expires_at = excluded.access_expires_at,
				refresh_token = excluded.refresh_token, refresh_expires_at = excluded.refresh_expires_at,
				connected_by = excluded.connected_by, connected_at = excluded.connected_at, uninstalled_at = NULL,
				sessions_available = excluded.sessions_available, sync_requested_at = excluded.sync_requested_at,
				sync_full = true, sync_phase = 'QUEUED', sync_orders = 0, sync_orders_total = 0, sync_products = 0,
				sync_customers = 0, sync_percent = 0, sync_error = '', sync_attempts = 0,
				-- Another shop's watermark means nothing for this one.
				watermark = CASE WHEN shopify_connections.shop = excluded.shop THEN shopify_connections.watermark END`,
			c.CategoryID, c.Shop, c.Tokens.Scopes, c.Tokens.Access, nullTime(c.Tokens.AccessExpiresAt),
			c.Tokens.Refresh, nullTime(c.Tokens.RefreshExpiresAt), c.ConnectedBy, c.ConnectedAt, c.SessionsAvailable)
		if err != nil {
			return err
		}
		for _, ev := range c.MoveEvents(movedFrom) {
			if err := events.Enqueue(ctx, tx, events.SubjectShopifyShopMoved, &eventsv1.ShopifyShopMoved{
				CategoryId: ev.FromCategoryID, Shop: ev.Shop, OccurTime: timestamppb.New(ev.At)}); err != nil {
				return err
			}
		}
		return notify(ctx, tx)
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		// Another account's connect of the same shop committed first.
		return "", domain.ErrShopTaken
	}
	if err != nil {
		return "", err
	}
	return movedFrom, nil
}

// SaveTokens implements app.Repository.
func (r Repo) SaveTokens(ctx context.Context, categoryID string, t app.SealedTokens) error {
	_, err := r.Pool.Exec(ctx, `
		UPDATE shopify_connections SET access_token = $2, access_expires_at = $3, refresh_token = $4,
			refresh_expires_at = $5, scopes = $6
		WHERE category_id = $1 AND status = 'CONNECTED'`,
		categoryID, t.Access, nullTime(t.AccessExpiresAt), t.Refresh, nullTime(t.RefreshExpiresAt), t.Scopes)
	return err
}

// Disconnect implements app.Repository.
func (r Repo) Disconnect(ctx context.Context, categoryID, status string, at time.Time) error {
	_, err := r.Pool.Exec(ctx, `
		UPDATE shopify_connections SET status = $2, uninstalled_at = $3, access_token = NULL, refresh_token = NULL,
			access_expires_at = NULL, refresh_expires_at = NULL, sync_requested_at = NULL, sync_claimed_until = NULL,
			sync_phase = CASE WHEN sync_phase IN ('DONE', 'FAILED') THEN sync_phase ELSE 'IDLE' END
		WHERE category_id = $1`, categoryID, status, at)
	return err
}

// RequestSync implements app.Repository.
func (r Repo) RequestSync(ctx context.Context, categoryID string, full bool, at time.Time) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `
			UPDATE shopify_connections SET sync_requested_at = $2, sync_full = sync_full OR $3, sync_attempts = 0,
				sync_phase = CASE WHEN sync_claimed_until > $2 THEN sync_phase ELSE 'QUEUED' END, sync_error = ''
			WHERE category_id = $1 AND status = 'CONNECTED'`, categoryID, at, full)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return domain.ErrNotConnected
		}
		return notify(ctx, tx)
	})
}

// RequestSweeps implements app.Repository.
func (r Repo) RequestSweeps(ctx context.Context, olderThan, at time.Time) (int, error) {
	tag, err := r.Pool.Exec(ctx, `
		UPDATE shopify_connections SET sync_requested_at = $2
		WHERE status = 'CONNECTED' AND sync_requested_at IS NULL AND last_synced_at < $1`, olderThan, at)
	return int(tag.RowsAffected()), err
}

// ClaimSync implements app.Repository: SKIP LOCKED lets several workers
// share the queue without waiting on each other.
func (r Repo) ClaimSync(ctx context.Context, now, leaseUntil time.Time) (*app.Connection, error) {
	var conn *app.Connection
	err := r.tx(ctx, func(tx pgx.Tx) error {
		var id string
		err := tx.QueryRow(ctx, `
			SELECT category_id FROM shopify_connections
			WHERE status = 'CONNECTED' AND sync_requested_at <= $1
			  AND (sync_claimed_until IS NULL OR sync_claimed_until < $1)
			ORDER BY sync_requested_at LIMIT 1 FOR UPDATE SKIP LOCKED`, now).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE shopify_connections SET sync_claimed_until = $2 WHERE category_id = $1`,
			id, leaseUntil); err != nil {
			return err
		}
		if conn, err = scanConnection(tx.QueryRow(ctx, `SELECT `+connectionColumns+` FROM shopify_connections WHERE category_id = $1`, id)); err != nil {
			return err
		}
		conn.ClaimedAt = now
		return nil
	})
	return conn, err
}

// SaveProgress implements app.Repository. The link's condition is the
// UPDATE's own, checked again on the row once a move holding it commits.
func (r Repo) SaveProgress(ctx context.Context, link app.ShopLink, p app.Progress) error {
	tag, err := r.Pool.Exec(ctx, `
		UPDATE shopify_connections SET sync_phase = $4, sync_orders = $5, sync_orders_total = $6,
			sync_products = $7, sync_customers = $8, sync_percent = $9, sync_error = ''
		WHERE `+linkStands, link.CategoryID, link.Shop, link.ConnectedAt, p.Phase, p.Orders, p.OrdersTotal, p.Products, p.Customers, p.Percent)
	if err == nil && tag.RowsAffected() == 0 {
		return domain.ErrConnectionChanged
	}
	return err
}

// FinishSync implements app.Repository.
func (r Repo) FinishSync(ctx context.Context, link app.ShopLink, claimedAt time.Time, res app.SyncResult) error {
	categoryID := link.CategoryID
	return r.tx(ctx, func(tx pgx.Tx) error {
		if res.OK {
			tag, err := tx.Exec(ctx, `
				UPDATE shopify_connections SET
					sync_claimed_until = NULL, sync_full = false, sync_phase = 'DONE', sync_percent = 100, sync_error = '',
					sync_attempts = 0, last_synced_at = $5, watermark = $6, name = $7, currency = $8, timezone = $9,
					sessions_available = $10,
					sync_requested_at = CASE WHEN sync_requested_at > $4 THEN sync_requested_at END
				WHERE `+linkStands,
				categoryID, link.Shop, link.ConnectedAt, claimedAt, res.At, nullTime(res.Watermark), res.Name, res.Currency,
				res.Timezone, res.SessionsAvailable)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				return domain.ErrConnectionChanged
			}
			_, err = tx.Exec(ctx, `
				INSERT INTO stores (category_id, currency, timezone, updated_at) VALUES ($1, $2, $3, $4)
				ON CONFLICT (category_id) DO UPDATE SET currency = excluded.currency, timezone = excluded.timezone,
					updated_at = excluded.updated_at`, categoryID, res.Currency, res.Timezone, res.At)
			return err
		}
		// Failed: back off 1, 2, 4 … minutes, at most an hour, then wait for
		// the owner's 'Try again'.
		tag, err := tx.Exec(ctx, `
			UPDATE shopify_connections SET
				sync_claimed_until = NULL, sync_phase = 'FAILED', sync_error = $5, sync_attempts = sync_attempts + 1,
				sync_requested_at = CASE WHEN $6 AND sync_attempts + 1 < $7
					THEN $4::timestamptz + least(interval '1 hour', interval '1 minute' * power(2, sync_attempts)) END
			WHERE `+linkStands, categoryID, link.Shop, link.ConnectedAt, res.At, res.Error, res.Retry, maxSyncAttempts)
		if err == nil && tag.RowsAffected() == 0 {
			return domain.ErrConnectionChanged
		}
		return err
	})
}

const maxSyncAttempts = 8

// SaveCatalog implements app.Repository.
func (r Repo) SaveCatalog(ctx context.Context, link app.ShopLink, products []app.CatalogProduct, customers []app.CatalogCustomer) error {
	categoryID := link.CategoryID
	return r.tx(ctx, func(tx pgx.Tx) error {
		if err := holdLink(ctx, tx, link); err != nil {
			return err
		}
		b := &pgx.Batch{}
		for _, p := range products {
			b.Queue(`INSERT INTO products (category_id, product_id, title) VALUES ($1, $2, $3)
				ON CONFLICT (category_id, product_id) DO UPDATE SET title = CASE WHEN excluded.title <> '' THEN excluded.title ELSE products.title END`,
				categoryID, p.ID, p.Title)
		}
		for _, c := range customers {
			b.Queue(`INSERT INTO customers (category_id, customer_id, orders) VALUES ($1, $2, $3)
				ON CONFLICT (category_id, customer_id) DO UPDATE SET orders = greatest(customers.orders, excluded.orders)`,
				categoryID, c.ID, c.Orders)
		}
		if b.Len() == 0 {
			return nil
		}
		return tx.SendBatch(ctx, b).Close()
	})
}

// SaveSessions implements app.Repository.
func (r Repo) SaveSessions(ctx context.Context, link app.ShopLink, days []app.DaySessions) error {
	categoryID := link.CategoryID
	return r.tx(ctx, func(tx pgx.Tx) error {
		if err := holdLink(ctx, tx, link); err != nil {
			return err
		}
		b := &pgx.Batch{}
		for _, d := range days {
			b.Queue(`INSERT INTO daily_sessions (category_id, day, sessions, completed) VALUES ($1, $2, $3, $4)
				ON CONFLICT (category_id, day) DO UPDATE SET sessions = excluded.sessions, completed = excluded.completed`,
				categoryID, pgDate(d.Day), d.Sessions, d.Completed)
		}
		return tx.SendBatch(ctx, b).Close()
	})
}

// SaveShopifyDaily implements app.Repository.
func (r Repo) SaveShopifyDaily(ctx context.Context, link app.ShopLink, days []app.ShopifyDay) error {
	categoryID := link.CategoryID
	return r.tx(ctx, func(tx pgx.Tx) error {
		if err := holdLink(ctx, tx, link); err != nil {
			return err
		}
		b := &pgx.Batch{}
		for _, d := range days {
			b.Queue(`INSERT INTO shopify_daily (category_id, day, orders, total_sales, net_sales) VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (category_id, day) DO UPDATE SET orders = excluded.orders, total_sales = excluded.total_sales,
					net_sales = excluded.net_sales`,
				categoryID, pgDate(d.Day), d.Orders, int64(d.TotalSales), int64(d.NetSales))
		}
		return tx.SendBatch(ctx, b).Close()
	})
}

// RecordWebhook implements app.Repository.
func (r Repo) RecordWebhook(ctx context.Context, ev app.WebhookEvent) (bool, error) {
	var isNew bool
	err := r.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `
			INSERT INTO webhook_events (event_id, shop, topic, payload, received_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (shop, event_id) DO NOTHING`, ev.EventID, ev.Shop, ev.Topic, []byte(ev.Payload), ev.ReceivedAt)
		if err != nil {
			return err
		}
		if isNew = tag.RowsAffected() == 1; isNew {
			return notify(ctx, tx)
		}
		return nil
	})
	return isNew, err
}

// maxWebhookAttempts bounds retries of a delivery that keeps failing.
const maxWebhookAttempts = 10

// PendingWebhooks implements app.Repository.
func (r Repo) PendingWebhooks(ctx context.Context, limit int) ([]app.WebhookEvent, error) {
	rows, err := r.Pool.Query(ctx, `
		SELECT event_id, shop, topic, payload, received_at, attempts FROM webhook_events
		WHERE processed_at IS NULL AND attempts < $2 ORDER BY received_at LIMIT $1`, limit, maxWebhookAttempts)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (app.WebhookEvent, error) {
		var ev app.WebhookEvent
		var payload []byte
		err := row.Scan(&ev.EventID, &ev.Shop, &ev.Topic, &payload, &ev.ReceivedAt, &ev.Attempts)
		ev.Payload = json.RawMessage(payload)
		return ev, err
	})
}

// FinishWebhook implements app.Repository.
func (r Repo) FinishWebhook(ctx context.Context, shop, eventID, failure string, at time.Time) error {
	var err error
	if failure == "" {
		_, err = r.Pool.Exec(ctx, `UPDATE webhook_events SET processed_at = $3, attempts = attempts + 1, last_error = ''
			WHERE shop = $1 AND event_id = $2`, shop, eventID, at)
	} else {
		_, err = r.Pool.Exec(ctx, `UPDATE webhook_events SET attempts = attempts + 1, last_error = $3
			WHERE shop = $1 AND event_id = $2`, shop, eventID, failure)
	}
	return err
}

// categoryTables hold a category's data, keyed by category_id.
var categoryTables = []string{"sales", "orders", "daily", "daily_sessions", "shopify_daily", "products",
	"customers", "imports", "shopify_connections", "oauth_states", "stores", "signals_due", "daily_reports_sent",
	"woocommerce_connections", "woocommerce_states", "woocommerce_deliveries",
	"ga4_connections", "ga4_states", "ga4_days"}

// TxRepo is the storage an event consumer changes inside its own
// transaction (app.EventStore).
type TxRepo struct{ Tx pgx.Tx }

// DeleteCategory implements app.EventStore.
func (r TxRepo) DeleteCategory(ctx context.Context, categoryID string) error {
	for _, t := range categoryTables {
		if _, err := r.Tx.Exec(ctx, `DELETE FROM `+t+` WHERE category_id = $1`, categoryID); err != nil {
			return fmt.Errorf("delete %s: %w", t, err)
		}
	}
	return nil
}

// DeleteShopData implements app.Repository.
func (r Repo) DeleteShopData(ctx context.Context, shop string) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT category_id::text FROM shopify_connections WHERE shop = $1`, shop)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := removeShopRows(ctx, tx, id); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `DELETE FROM shopify_connections WHERE category_id = $1`, id); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `DELETE FROM webhook_events WHERE shop = $1 AND processed_at IS NOT NULL`, shop)
		return err
	})
}

// removeShopRows deletes what a category holds of its Shopify shop (its
// orders with their sales, sessions, products, customers and Shopify's own
// daily figures) but not the connection row, and recomputes the days it
// touched; imported order exports stay. The signals go again, now without
// the shop's orders.
func removeShopRows(ctx context.Context, tx pgx.Tx, categoryID string) error {
	var days []time.Time
	if err := tx.QueryRow(ctx, `
		WITH s AS (DELETE FROM sales WHERE category_id = $1 AND order_id IN
		             (SELECT order_id FROM orders WHERE category_id = $1 AND source = 'shopify') RETURNING local_day),
		     o AS (DELETE FROM orders WHERE category_id = $1 AND source = 'shopify' RETURNING local_day)
		SELECT coalesce(array_agg(DISTINCT local_day), '{}') FROM (SELECT local_day FROM s UNION SELECT local_day FROM o) t`,
		categoryID).Scan(&days); err != nil {
		return err
	}
	if err := recomputeDays(ctx, tx, categoryID, days); err != nil {
		return err
	}
	if err := markSignalsDue(ctx, tx, categoryID); err != nil {
		return err
	}
	for _, t := range []string{"daily_sessions", "shopify_daily", "products", "customers"} {
		if _, err := tx.Exec(ctx, `DELETE FROM `+t+` WHERE category_id = $1`, categoryID); err != nil {
			return err
		}
	}
	return nil
}

// DeleteUserStates implements app.EventStore.
func (r TxRepo) DeleteUserStates(ctx context.Context, userID string) error {
	_, err := r.Tx.Exec(ctx, `DELETE FROM oauth_states WHERE user_id = $1`, userID)
	return err
}

// RedactCustomers implements app.Repository.
func (r Repo) RedactCustomers(ctx context.Context, categoryID string, customerKeys, orderIDs []string) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			UPDATE orders SET customer_key = 'redacted'
			WHERE category_id = $1 AND (customer_key = ANY($2) OR order_id = ANY($3))`, categoryID, customerKeys, orderIDs); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM customers WHERE category_id = $1 AND customer_id = ANY($2)`, categoryID, customerKeys)
		return err
	})
}
