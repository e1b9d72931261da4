package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

var _ app.WooRepository = Repo{}

const wooStateColumns = `state, category_id, user_id, store_url, created_at, expires_at, used_at IS NOT NULL, connected`

func scanWooState(row pgx.Row) (app.WooState, error) {
	var st app.WooState
	err := row.Scan(&st.State, &st.CategoryID, &st.UserID, &st.StoreURL, &st.CreatedAt, &st.ExpiresAt, &st.Used, &st.Connected)
	if errors.Is(err, pgx.ErrNoRows) {
		return app.WooState{}, domain.ErrNotFound
	}
	return st, err
}

// CreateWooState implements app.WooRepository; states a day past their
// expiry go at the same time.
func (r Repo) CreateWooState(ctx context.Context, st app.WooState) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM woocommerce_states WHERE expires_at < $1::timestamptz - interval '1 day'`, st.CreatedAt); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			INSERT INTO woocommerce_states (state, category_id, user_id, store_url, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, st.State, st.CategoryID, st.UserID, st.StoreURL, st.CreatedAt, st.ExpiresAt)
		return err
	})
}

// UseWooState implements app.WooRepository.
func (r Repo) UseWooState(ctx context.Context, state string, now time.Time) (app.WooState, error) {
	return scanWooState(r.Pool.QueryRow(ctx, `
		UPDATE woocommerce_states SET used_at = $2
		WHERE state = $1 AND used_at IS NULL AND expires_at > $2
		RETURNING `+wooStateColumns, state, now))
}

// WooState implements app.WooRepository.
func (r Repo) WooState(ctx context.Context, state string) (app.WooState, error) {
	return scanWooState(r.Pool.QueryRow(ctx, `SELECT `+wooStateColumns+` FROM woocommerce_states WHERE state = $1`, state))
}

// ConnectWooCommerce implements app.WooRepository.
func (r Repo) ConnectWooCommerce(ctx context.Context, c app.WooConnection, state string) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			INSERT INTO woocommerce_connections (category_id, store_url, status, name, currency, timezone, key_id,
				key_permissions, consumer_key, consumer_secret, connected_by, connected_at,
				sync_requested_at, sync_full, sync_phase)
			VALUES ($1, $2, 'CONNECTED', $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, true, 'QUEUED')
			ON CONFLICT (category_id) DO UPDATE SET
				store_url = excluded.store_url, status = 'CONNECTED', name = excluded.name,
				currency = excluded.currency, timezone = excluded.timezone, key_id = excluded.key_id,
				key_permissions = excluded.key_permissions, consumer_key = excluded.consumer_key,
				consumer_secret = excluded.consumer_secret, webhook_secret = NULL,
				connected_by = excluded.connected_by, connected_at = excluded.connected_at,
				sync_requested_at = excluded.sync_requested_at, sync_claimed_until = NULL, sync_full = true,
				sync_phase = 'QUEUED', sync_orders = 0, sync_orders_total = 0, sync_products = 0,
				sync_customers = 0, sync_percent = 0, sync_error = '', sync_attempts = 0,
				-- Another store's size is not this one's.
				store_products = CASE WHEN woocommerce_connections.store_url = excluded.store_url
				                      THEN woocommerce_connections.store_products ELSE 0 END,
				store_customers = CASE WHEN woocommerce_connections.store_url = excluded.store_url
				                       THEN woocommerce_connections.store_customers ELSE 0 END,
				-- Another store's watermark means nothing for this one.
				watermark = CASE WHEN woocommerce_connections.store_url = excluded.store_url
				                 THEN woocommerce_connections.watermark END`,
			c.CategoryID, c.StoreURL, c.Name, c.Currency, c.Timezone, c.KeyID, c.KeyPermissions,
			c.ConsumerKey, c.ConsumerSecret, c.ConnectedBy, c.ConnectedAt); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE woocommerce_states SET connected = true WHERE state = $1`, state); err != nil {
			return err
		}
		// The store's own currency and zone are the category's numbers'.
		_, err := tx.Exec(ctx, `
			INSERT INTO stores (category_id, currency, timezone, updated_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (category_id) DO UPDATE SET currency = excluded.currency, timezone = excluded.timezone,
				updated_at = excluded.updated_at`, c.CategoryID, c.Currency, c.Timezone, c.ConnectedAt)
		return err
	})
}

// WooConnection implements app.WooRepository.
func (r Repo) WooConnection(ctx context.Context, categoryID string) (*app.WooConnection, error) {
	var c app.WooConnection
	err := r.Pool.QueryRow(ctx, `
		SELECT category_id, store_url, status, name, currency, timezone, key_id, key_permissions,
			coalesce(consumer_key, ''), coalesce(consumer_secret, ''), coalesce(webhook_secret, ''), connected_by, connected_at,
			sync_phase, sync_orders, sync_orders_total, sync_products, sync_customers, sync_percent, sync_error,
			last_synced_at
		FROM woocommerce_connections WHERE category_id = $1`, categoryID).Scan(
		&c.CategoryID, &c.StoreURL, &c.Status, &c.Name, &c.Currency, &c.Timezone, &c.KeyID, &c.KeyPermissions,
		&c.ConsumerKey, &c.ConsumerSecret, &c.WebhookSecret, &c.ConnectedBy, &c.ConnectedAt,
		&c.Progress.Phase, &c.Progress.Orders, &c.Progress.OrdersTotal, &c.Progress.Products, &c.Progress.Customers,
		&c.Progress.Percent, &c.Progress.Error, &c.LastSyncedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// DisconnectWooCommerce implements app.WooRepository: the keys are
// forgotten, the numbers stay.
func (r Repo) DisconnectWooCommerce(ctx context.Context, categoryID string, now time.Time) error {
	_, err := r.Pool.Exec(ctx, `
		UPDATE woocommerce_connections SET status = 'DISCONNECTED', consumer_key = NULL, consumer_secret = NULL,
			webhook_secret = NULL, sync_requested_at = NULL, sync_claimed_until = NULL, sync_phase = 'IDLE'
		WHERE category_id = $1`, categoryID)
	return err
}

// RequestWooSync implements app.WooRepository.
func (r Repo) RequestWooSync(ctx context.Context, categoryID string, full bool, now time.Time) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			UPDATE woocommerce_connections SET sync_requested_at = $2, sync_full = sync_full OR $3, sync_attempts = 0,
				sync_phase = CASE WHEN sync_claimed_until > $2 THEN sync_phase ELSE 'QUEUED' END
			WHERE category_id = $1 AND status = 'CONNECTED'`, categoryID, now, full); err != nil {
			return err
		}
		return notify(ctx, tx)
	})
}

// wooLinkStands is the condition that the connection made at $2 is still
// the category's ($1).
const wooLinkStands = `category_id = $1 AND connected_at = $2 AND status = 'CONNECTED'`

// ClaimWooSync implements app.WooRepository: SKIP LOCKED, so replicas
// racing for due syncs take different ones.
func (r Repo) ClaimWooSync(ctx context.Context, now time.Time, lease time.Duration) (*app.WooConnection, error) {
	var c app.WooConnection
	err := r.Pool.QueryRow(ctx, `
		UPDATE woocommerce_connections SET sync_claimed_until = $1::timestamptz + $2::interval,
			-- Due again when the lease ends (a replica that died mid-sync),
			-- unless a Sync now meanwhile moves it earlier: Finish and Fail
			-- tell that request by its being before the lease's end.
			sync_requested_at = $1::timestamptz + $2::interval,
			sync_phase = CASE WHEN sync_phase IN ('IDLE', 'QUEUED', 'DONE', 'FAILED') THEN 'ORDERS' ELSE sync_phase END
		WHERE category_id = (
			SELECT category_id FROM woocommerce_connections
			WHERE status = 'CONNECTED' AND sync_requested_at <= $1
			  AND (sync_claimed_until IS NULL OR sync_claimed_until < $1)
			ORDER BY sync_requested_at LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING category_id, store_url, status, name, currency, timezone, coalesce(consumer_key, ''),
			coalesce(consumer_secret, ''), coalesce(webhook_secret, ''), connected_at, sync_full, watermark, sync_attempts, last_synced_at`,
		now, lease.String()).Scan(&c.CategoryID, &c.StoreURL, &c.Status, &c.Name, &c.Currency, &c.Timezone,
		&c.ConsumerKey, &c.ConsumerSecret, &c.WebhookSecret, &c.ConnectedAt, &c.SyncFull, &c.Watermark, &c.Attempts, &c.LastSyncedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// SaveWooOrders implements app.WooRepository: the connection row is held
// FOR SHARE, so a disconnect (or a new connection) either came first and
// nothing is written, or waits for this write.
func (r Repo) SaveWooOrders(ctx context.Context, categoryID string, connectedAt time.Time, orders []domain.Order) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if err := holdWooLink(ctx, tx, categoryID, connectedAt); err != nil {
			return err
		}
		_, err := saveOrders(ctx, tx, categoryID, orders)
		return err
	})
}

// SaveWooStoreCounts implements app.WooRepository.
func (r Repo) SaveWooStoreCounts(ctx context.Context, categoryID string, connectedAt time.Time, products, customers int64) error {
	tag, err := r.Pool.Exec(ctx, `UPDATE woocommerce_connections SET store_products = $3, store_customers = $4
		WHERE `+wooLinkStands, categoryID, connectedAt, products, customers)
	if err == nil && tag.RowsAffected() == 0 {
		return domain.ErrConnectionChanged
	}
	return err
}

// WooStoreCounts implements app.WooRepository: the store's orders as
// Analytics counts them (WooCommerce's excluded statuses and unpaid orders
// left out, as domain.WooSales marks them) and its last counted products
// and customers, in one snapshot.
func (r Repo) WooStoreCounts(ctx context.Context, categoryID string) (app.StoreCounts, error) {
	var c app.StoreCounts
	err := r.Pool.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM orders WHERE category_id = $1 AND source = 'woocommerce' AND counted),
			coalesce((SELECT store_products FROM woocommerce_connections WHERE category_id = $1), 0),
			coalesce((SELECT store_customers FROM woocommerce_connections WHERE category_id = $1), 0)`, categoryID).
		Scan(&c.Orders, &c.Products, &c.Customers)
	return c, err
}

// DeleteWooOrders implements app.WooRepository, holding the connection as
// SaveWooOrders does.
func (r Repo) DeleteWooOrders(ctx context.Context, categoryID string, connectedAt time.Time, orderIDs []string) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if err := holdWooLink(ctx, tx, categoryID, connectedAt); err != nil {
			return err
		}
		return deleteOrders(ctx, tx, categoryID, orderIDs)
	})
}

// customPlans makes PostgreSQL plan each statement of tx for its own
// parameters. pgx prepares every statement, and after five runs of one
// PostgreSQL may keep a generic plan; for writeOrders' `order_id =
// ANY($2)` that plan cannot hash the array (a parameter, not a constant)
// and compares every order and sale the store has with each of the batch's
// ids, so each batch of a sync was slower than the one before (50 ms for
// the first of a year's WooCommerce orders, 2.7 s by the 36th). Planned
// for the ids at hand, the array is hashed and the sync keeps pace with
// reading the store (BenchmarkWooCommerceYear). The shared writeOrders is
// left as it is: matching by a join instead measured slower for imports.
func customPlans(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `SET LOCAL plan_cache_mode = force_custom_plan`)
	return err
}

// holdWooLink readies tx for writing a WooCommerce store's orders: custom
// plans (customPlans), and the connection held FOR SHARE, so a disconnect
// or another store's connect waits for the write or finds it done; a link
// already changed is domain.ErrConnectionChanged.
func holdWooLink(ctx context.Context, tx pgx.Tx, categoryID string, connectedAt time.Time) error {
	if err := customPlans(ctx, tx); err != nil {
		return err
	}
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM woocommerce_connections WHERE `+wooLinkStands+` FOR SHARE`, categoryID, connectedAt).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.ErrConnectionChanged
	}
	return err
}

// SaveWooProgress implements app.WooRepository.
func (r Repo) SaveWooProgress(ctx context.Context, categoryID string, connectedAt time.Time, p app.Progress) error {
	tag, err := r.Pool.Exec(ctx, `
		UPDATE woocommerce_connections SET sync_phase = $3, sync_orders = $4, sync_orders_total = $5,
			sync_products = $6, sync_customers = $7, sync_percent = $8, sync_error = ''
		WHERE `+wooLinkStands, categoryID, connectedAt, p.Phase, p.Orders, p.OrdersTotal, p.Products, p.Customers, p.Percent)
	if err == nil && tag.RowsAffected() == 0 {
		return domain.ErrConnectionChanged
	}
	return err
}

// askedDuringSync is the condition that a sync was asked for while the
// claimed one ran: ClaimWooSync set sync_requested_at to the lease's end,
// and RequestWooSync moves it to the moment of asking.
const askedDuringSync = `sync_requested_at < sync_claimed_until`

// FinishWooSync implements app.WooRepository: the next sync (a catch-up
// of what changed) is due at next, unless one was asked for meanwhile,
// which then runs at once (a "Sync now" pressed during the sync may ask
// for what this one had already read past).
func (r Repo) FinishWooSync(ctx context.Context, categoryID string, connectedAt time.Time, watermark *time.Time, at, next time.Time) error {
	_, err := r.Pool.Exec(ctx, `
		UPDATE woocommerce_connections SET last_synced_at = $3, watermark = $4, sync_full = false, sync_attempts = 0,
			sync_claimed_until = NULL, sync_error = '', sync_phase = 'DONE', sync_percent = 100,
			sync_requested_at = CASE WHEN `+askedDuringSync+` THEN sync_requested_at ELSE $5 END
		WHERE `+wooLinkStands, categoryID, connectedAt, at, watermark, next)
	return err
}

// FailWooSync implements app.WooRepository.
func (r Repo) FailWooSync(ctx context.Context, categoryID string, connectedAt time.Time, message string, retry time.Time) error {
	_, err := r.Pool.Exec(ctx, `
		UPDATE woocommerce_connections SET sync_phase = 'FAILED', sync_error = $3, sync_attempts = sync_attempts + 1,
			sync_claimed_until = NULL,
			sync_requested_at = CASE WHEN `+askedDuringSync+` THEN sync_requested_at ELSE $4 END
		WHERE `+wooLinkStands, categoryID, connectedAt, message, retry)
	return err
}

// SetWooWebhookSecret implements app.WooRepository.
func (r Repo) SetWooWebhookSecret(ctx context.Context, categoryID string, connectedAt time.Time, sealed []byte) error {
	tag, err := r.Pool.Exec(ctx, `UPDATE woocommerce_connections SET webhook_secret = $3 WHERE `+wooLinkStands,
		categoryID, connectedAt, sealed)
	if err == nil && tag.RowsAffected() == 0 {
		return domain.ErrConnectionChanged
	}
	return err
}

// NewWooDelivery implements app.WooRepository; deliveries older than a
// week go at the same time (WooCommerce never sends one again, §3).
func (r Repo) NewWooDelivery(ctx context.Context, categoryID, deliveryID string, at time.Time) (bool, error) {
	var fresh bool
	err := r.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM woocommerce_deliveries WHERE received_at < $1::timestamptz - interval '7 days'`, at); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO woocommerce_deliveries (category_id, delivery_id, received_at) VALUES ($1, $2, $3)
			ON CONFLICT DO NOTHING`, categoryID, deliveryID, at)
		fresh = err == nil && tag.RowsAffected() == 1
		return err
	})
	return fresh, err
}
