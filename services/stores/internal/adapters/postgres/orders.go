// Package postgres stores the stores service's data in its own schema:
// orders with their sales, daily totals kept up to date on every write,
// connections, OAuth states and webhook deliveries.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// NotifyChannel is the NOTIFY channel prefix (the schema name is appended)
// that wakes the sync worker when work is queued.
const NotifyChannel = "stores_work_"

// Repo implements app.Repository.
type Repo struct{ Pool *pgxpool.Pool }

var _ app.Repository = Repo{}

func (r Repo) tx(ctx context.Context, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, r.Pool, fn)
}

func notify(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1 || current_schema(), '')`, NotifyChannel)
	return err
}

func pgDate(d domain.Date) pgtype.Date {
	start, _ := d.In(time.UTC)
	return pgtype.Date{Time: start, Valid: true}
}

func fromPgDate(t time.Time) domain.Date { return domain.DateOf(t.UTC()) }

// SaveOrders implements app.Repository.
func (r Repo) SaveOrders(ctx context.Context, link app.ShopLink, orders []domain.Order) (int, error) {
	var n int
	err := r.tx(ctx, func(tx pgx.Tx) error {
		if err := holdLink(ctx, tx, link); err != nil {
			return err
		}
		var err error
		n, err = saveOrders(ctx, tx, link.CategoryID, orders)
		return err
	})
	return n, err
}

// saveOrders writes orders in tx (writeOrders), then recomputes the days
// they touched and marks the category's signals due; it does nothing for
// no orders. It returns how many orders it stored.
func saveOrders(ctx context.Context, tx pgx.Tx, categoryID string, orders []domain.Order) (int, error) {
	if len(orders) == 0 {
		return 0, nil
	}
	days, n, err := writeOrders(ctx, tx, categoryID, orders)
	if err != nil {
		return 0, err
	}
	if err := daysChanged(ctx, tx, categoryID, days); err != nil {
		return 0, err
	}
	return n, nil
}

// daysChanged recomputes the daily totals of days and marks the
// category's signals due: what every write of orders ends with.
func daysChanged(ctx context.Context, tx pgx.Tx, categoryID string, days []time.Time) error {
	if err := recomputeDays(ctx, tx, categoryID, days); err != nil {
		return err
	}
	return markSignalsDue(ctx, tx, categoryID)
}

// linkStands is the condition on shopify_connections that link still is
// the category's connection ($1 category, $2 shop, $3 connected at).
const linkStands = `category_id = $1 AND shop = $2 AND connected_at = $3 AND status = 'CONNECTED'`

// holdLink checks that link still stands and holds it until tx ends. The
// share lock is what makes the check last: a move of the shop takes the
// row FOR UPDATE, so it either committed before (the row no longer
// matches: domain.ErrConnectionChanged, nothing written) or waits for tx
// and then removes what tx wrote with the rest of the shop's rows.
func holdLink(ctx context.Context, tx pgx.Tx, link app.ShopLink) error {
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM shopify_connections WHERE `+linkStands+` FOR SHARE`,
		link.CategoryID, link.Shop, link.ConnectedAt).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.ErrConnectionChanged
	}
	return err
}

// SaveImport implements app.Repository. The transaction-scoped advisory
// lock is the category's import slot: it is held by whichever replica runs
// the import and released with the transaction, even when its replica dies.
func (r Repo) SaveImport(ctx context.Context, categoryID string, read func(save func([]domain.Order) error) (app.Import, error)) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		var free bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(hashtextextended('stores.import:' || $1, 0))`,
			categoryID).Scan(&free); err != nil {
			return fmt.Errorf("import slot: %w", err)
		}
		if !free {
			return domain.ErrImportRunning
		}
		// The days a batch touched are recomputed once, after the last
		// batch, not after each: the totals are the same sums of what the
		// transaction stored, and a year's file touches each day in many
		// batches.
		touched := map[domain.Date]struct{}{}
		saved := false
		imp, err := read(func(orders []domain.Order) error {
			saved = saved || len(orders) > 0
			days, _, err := writeOrders(ctx, tx, categoryID, orders)
			for _, d := range days {
				touched[fromPgDate(d)] = struct{}{}
			}
			return err
		})
		if err != nil {
			return err
		}
		days := make([]time.Time, 0, len(touched))
		for d := range touched {
			days = append(days, pgDate(d).Time)
		}
		slices.SortFunc(days, time.Time.Compare) // in order, as one batch's are
		if saved {
			if err := daysChanged(ctx, tx, categoryID, days); err != nil {
				return err
			}
		}
		// A connected shop's currency and zone win over a file's.
		if _, err := tx.Exec(ctx, `
			INSERT INTO stores (category_id, currency, timezone, updated_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (category_id) DO UPDATE SET currency = excluded.currency, timezone = excluded.timezone, updated_at = excluded.updated_at
			WHERE NOT EXISTS (SELECT 1 FROM shopify_connections c WHERE c.category_id = $1 AND c.currency <> '')`,
			imp.CategoryID, imp.Currency, imp.Timezone, imp.ImportedAt); err != nil {
			return fmt.Errorf("store: %w", err)
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO imports (id, category_id, file_sha256, orders, first_day, last_day, currency, imported_by, imported_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			imp.ID, imp.CategoryID, imp.FileSHA256, imp.Orders, pgDate(imp.FirstDay), pgDate(imp.LastDay),
			imp.Currency, imp.ImportedBy, imp.ImportedAt)
		return err
	})
}

var orderColumns = []string{"category_id", "order_id", "source", "name", "created_at", "local_day", "updated_at",
	"cancelled_at", "test", "gift_card_only", "counted", "currency", "customer_key"}

var saleColumns = []string{"category_id", "order_id", "seq", "happened_at", "local_day", "action", "line",
	"product_key", "product_title", "quantity", "total", "discount", "tax",
	"gross", "discounts", "returns", "shipping", "duties", "fees", "taxes", "tips", "gift_cards"}

// writeOrders writes a batch with COPY, in the caller's transaction: tens of
// thousands of orders a second. It returns the local days whose totals the
// batch changed, for the caller to recompute (daysChanged) before the
// transaction ends, and how many orders it stored.
//
// Every statement finds the stored orders and sales by the category and
// the batch's order ids (an index lookup each), never by joining them with
// a staging table: PostgreSQL, knowing nothing of a staging table's rows,
// joined by reading every order and sale the store already had, so each
// batch of a big import cost more than the one before. The sales are
// copied straight into sales, once the replaced orders' sales are gone.
func writeOrders(ctx context.Context, tx pgx.Tx, categoryID string, orders []domain.Order) ([]time.Time, int, error) {
	if len(orders) == 0 {
		return nil, 0, nil
	}
	// The last copy of an order in a batch wins, as it would one by one.
	last := make(map[string]int, len(orders))
	for i, o := range orders {
		last[o.ID] = i
	}
	ids := make([]string, 0, len(last))
	for i, o := range orders {
		if last[o.ID] == i {
			ids = append(ids, o.ID)
		}
	}
	// Which of them are stored already, and from where: a connected
	// shop's copy of an order wins over an imported file's.
	rows, err := tx.Query(ctx, `SELECT order_id, source = 'shopify' FROM orders WHERE category_id = $1 AND order_id = ANY($2)`,
		categoryID, ids)
	if err != nil {
		return nil, 0, fmt.Errorf("stored orders: %w", err)
	}
	shopify := map[string]bool{} // stored order id: its copy is Shopify's
	var id string
	var fromShopify bool
	if _, err := pgx.ForEachRow(rows, []any{&id, &fromShopify}, func() error {
		shopify[id] = fromShopify
		return nil
	}); err != nil {
		return nil, 0, fmt.Errorf("stored orders: %w", err)
	}

	// The category as the uuid it is stored as, parsed once: given as
	// text, COPY made and threw away an encoding error for it on every
	// order and sale before parsing it (a quarter of an import's Go CPU).
	var cat pgtype.UUID
	if err := cat.Scan(categoryID); err != nil {
		return nil, 0, fmt.Errorf("category id: %w", err)
	}
	touched := map[domain.Date]struct{}{}
	kept := ids[:0]
	orderRows := make([][]any, 0, len(ids))
	var newRows [][]any // orders not stored yet
	var saleRows [][]any
	for i, o := range orders {
		if last[o.ID] != i || (shopify[o.ID] && o.Source != domain.SourceShopify) {
			continue
		}
		kept = append(kept, o.ID)
		var updated, cancelled *time.Time
		if !o.UpdatedAt.IsZero() {
			updated = &o.UpdatedAt
		}
		cancelled = o.CancelledAt
		day := domain.DateOf(o.CreatedAt)
		touched[day] = struct{}{}
		row := []any{cat, o.ID, string(o.Source), o.Name, o.CreatedAt,
			pgDate(day), updated, cancelled, o.Test, o.GiftCardOnly, domain.Counts(o),
			o.Currency, o.CustomerKey}
		if _, stored := shopify[o.ID]; stored {
			orderRows = append(orderRows, row)
		} else {
			newRows = append(newRows, row)
		}
		if o.Test {
			continue // test orders are never counted, so their sales are not kept
		}
		for seq, s := range o.Sales {
			a := domain.Classify(s)
			day := domain.DateOf(s.HappenedAt)
			touched[day] = struct{}{}
			saleRows = append(saleRows, []any{cat, o.ID, seq, s.HappenedAt, pgDate(day),
				string(s.Action), string(s.Line), s.ProductKey, s.ProductTitle, s.Quantity,
				int64(s.Total), int64(s.Discount), int64(s.Tax),
				int64(a.Gross), int64(a.Discounts), int64(a.Returns), int64(a.Shipping), int64(a.Duties),
				int64(a.AdditionalFees), int64(a.Taxes), int64(a.Tips), int64(a.GiftCards)})
		}
	}
	if len(kept) == 0 {
		return nil, 0, nil
	}
	// The days the replaced orders and their sales were on change too.
	var before []time.Time
	if err := tx.QueryRow(ctx, `
		WITH gone AS (
			DELETE FROM sales WHERE category_id = $1 AND order_id = ANY($2) RETURNING local_day
		)
		SELECT coalesce(array_agg(DISTINCT local_day), '{}') FROM (
			SELECT local_day FROM gone
			UNION SELECT local_day FROM orders WHERE category_id = $1 AND order_id = ANY($2)
		) t`, cat, kept).Scan(&before); err != nil {
		return nil, 0, fmt.Errorf("touched days: %w", err)
	}
	for _, d := range before {
		touched[fromPgDate(d)] = struct{}{}
	}
	n, err := insertNewOrders(ctx, tx, newRows)
	if err != nil {
		return nil, 0, err
	}
	if len(newRows) > 0 && n < 0 {
		orderRows = append(orderRows, newRows...) // one was stored meanwhile: upsert them all
		n = 0
	}
	if len(orderRows) > 0 {
		up, err := upsertOrders(ctx, tx, orderRows)
		if err != nil {
			return nil, 0, err
		}
		n += up
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"sales"}, saleColumns, pgx.CopyFromRows(saleRows)); err != nil {
		return nil, 0, fmt.Errorf("copy sales: %w", err)
	}
	days := make([]time.Time, 0, len(touched))
	for d := range touched {
		days = append(days, pgDate(d).Time)
	}
	slices.SortFunc(days, time.Time.Compare)
	return days, n, nil
}

// insertNewOrders copies orders that were not stored when the batch looked
// straight into orders: no staging table, no upsert. It returns -1, having
// stored none of them, when one was stored in the meantime (a shop's sync
// beside an import), for the caller to upsert them instead, as it would
// have had it seen that order.
func insertNewOrders(ctx context.Context, tx pgx.Tx, rows [][]any) (int, error) {
	if len(rows) == 0 {
		return 0, nil
	}
	sp, err := tx.Begin(ctx) // a savepoint: a failed COPY leaves tx usable
	if err != nil {
		return 0, fmt.Errorf("copy orders: %w", err)
	}
	n, err := sp.CopyFrom(ctx, pgx.Identifier{"orders"}, orderColumns, pgx.CopyFromRows(rows))
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" { // unique_violation
		if err := sp.Rollback(ctx); err != nil {
			return 0, fmt.Errorf("copy orders: %w", err)
		}
		return -1, nil
	}
	if err != nil {
		_ = sp.Rollback(ctx)
		return 0, fmt.Errorf("copy orders: %w", err)
	}
	if err := sp.Commit(ctx); err != nil {
		return 0, fmt.Errorf("copy orders: %w", err)
	}
	return int(n), nil
}

// upsertOrders stores orders through a session-local staging table,
// replacing stored copies.
func upsertOrders(ctx context.Context, tx pgx.Tx, rows [][]any) (int, error) {
	if _, err := tx.Exec(ctx, `
		CREATE TEMP TABLE IF NOT EXISTS in_orders (LIKE orders) ON COMMIT DELETE ROWS;
		TRUNCATE in_orders`); err != nil {
		return 0, fmt.Errorf("staging: %w", err)
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"in_orders"}, orderColumns, pgx.CopyFromRows(rows)); err != nil {
		return 0, fmt.Errorf("copy orders: %w", err)
	}
	tag, err := tx.Exec(ctx, `
		INSERT INTO orders SELECT * FROM in_orders
		ON CONFLICT (category_id, order_id) DO UPDATE SET
			source = excluded.source, name = excluded.name, created_at = excluded.created_at,
			local_day = excluded.local_day, updated_at = excluded.updated_at, cancelled_at = excluded.cancelled_at,
			test = excluded.test, gift_card_only = excluded.gift_card_only, counted = excluded.counted,
			currency = excluded.currency,
			customer_key = CASE WHEN orders.customer_key = '' AND excluded.customer_key <> '' THEN excluded.customer_key
			                    WHEN orders.customer_key = 'redacted' THEN 'redacted' ELSE excluded.customer_key END`)
	if err != nil {
		return 0, fmt.Errorf("upsert orders: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// recomputeDays rebuilds the daily totals of the given days from orders and
// sales, so the totals are always exactly the sum of what is stored.
func recomputeDays(ctx context.Context, tx pgx.Tx, categoryID string, days []time.Time) error {
	if len(days) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `
		INSERT INTO daily (category_id, day, orders, gross, discounts, returns, shipping, duties, fees, taxes, tips, gift_cards)
		SELECT $1, d.day, coalesce(o.n, 0),
		       coalesce(s.gross, 0), coalesce(s.discounts, 0), coalesce(s.returns, 0), coalesce(s.shipping, 0),
		       coalesce(s.duties, 0), coalesce(s.fees, 0), coalesce(s.taxes, 0), coalesce(s.tips, 0), coalesce(s.gift_cards, 0)
		FROM unnest($2::date[]) AS d(day)
		LEFT JOIN (
			SELECT local_day, count(*) AS n FROM orders
			WHERE category_id = $1 AND counted AND local_day = ANY($2::date[]) GROUP BY local_day
		) o ON o.local_day = d.day
		LEFT JOIN (
			SELECT local_day, sum(gross)::bigint AS gross, sum(discounts)::bigint AS discounts, sum(returns)::bigint AS returns,
			       sum(shipping)::bigint AS shipping, sum(duties)::bigint AS duties, sum(fees)::bigint AS fees,
			       sum(taxes)::bigint AS taxes, sum(tips)::bigint AS tips, sum(gift_cards)::bigint AS gift_cards
			FROM sales WHERE category_id = $1 AND local_day = ANY($2::date[]) GROUP BY local_day
		) s ON s.local_day = d.day
		ON CONFLICT (category_id, day) DO UPDATE SET
			orders = excluded.orders, gross = excluded.gross,
			discounts = excluded.discounts, returns = excluded.returns, shipping = excluded.shipping,
			duties = excluded.duties, fees = excluded.fees, taxes = excluded.taxes, tips = excluded.tips,
			gift_cards = excluded.gift_cards`, categoryID, days)
	if err != nil {
		return fmt.Errorf("recompute days: %w", err)
	}
	return nil
}

// DeleteOrder implements app.Repository.
func (r Repo) DeleteOrder(ctx context.Context, categoryID, orderID string) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		var days []time.Time
		if err := tx.QueryRow(ctx, `
			WITH s AS (DELETE FROM sales WHERE category_id = $1 AND order_id = $2 RETURNING local_day),
			     o AS (DELETE FROM orders WHERE category_id = $1 AND order_id = $2 RETURNING local_day)
			SELECT coalesce(array_agg(DISTINCT local_day), '{}') FROM (SELECT local_day FROM s UNION SELECT local_day FROM o) t`,
			categoryID, orderID).Scan(&days); err != nil {
			return fmt.Errorf("delete order: %w", err)
		}
		if err := recomputeDays(ctx, tx, categoryID, days); err != nil {
			return err
		}
		return markSignalsDue(ctx, tx, categoryID)
	})
}

// deleteOrders removes orders and their sales in tx and recomputes the days
// they were on (none when none of them was stored).
func deleteOrders(ctx context.Context, tx pgx.Tx, categoryID string, orderIDs []string) error {
	var days []time.Time
	if err := tx.QueryRow(ctx, `
		WITH s AS (DELETE FROM sales WHERE category_id = $1 AND order_id = ANY($2) RETURNING local_day),
		     o AS (DELETE FROM orders WHERE category_id = $1 AND order_id = ANY($2) RETURNING local_day)
		SELECT coalesce(array_agg(DISTINCT local_day), '{}') FROM (SELECT local_day FROM s UNION SELECT local_day FROM o) t`,
		categoryID, orderIDs).Scan(&days); err != nil {
		return fmt.Errorf("delete order: %w", err)
	}
	if len(days) == 0 {
		return nil
	}
	if err := recomputeDays(ctx, tx, categoryID, days); err != nil {
		return err
	}
	return markSignalsDue(ctx, tx, categoryID)
}

// Store implements app.Repository.
func (r Repo) Store(ctx context.Context, categoryID string) (app.Store, error) {
	var s app.Store
	err := r.Pool.QueryRow(ctx, `SELECT currency, timezone FROM stores WHERE category_id = $1`, categoryID).
		Scan(&s.Currency, &s.Timezone)
	if errors.Is(err, pgx.ErrNoRows) {
		return app.Store{}, nil
	}
	return s, err
}

// RangeNumbers implements app.Repository: the three reads go to PostgreSQL
// in one batch, one round trip instead of one per read (Analytics asks for
// them on every load, and on a busy machine each round trip waits for the
// server process to be scheduled).
func (r Repo) RangeNumbers(ctx context.Context, categoryID string, from, to domain.Date) (app.RangeNumbers, error) {
	var out app.RangeNumbers
	b := &pgx.Batch{}
	// Money always carries its currency: the store row names it, and while
	// there is none (a connection whose first sync has not finished) the
	// connection's or the orders' own currency does.
	var first pgtype.Date
	b.Queue(`
		SELECT coalesce(nullif(s.currency, ''),
		                (SELECT currency FROM shopify_connections WHERE category_id = $1 AND currency <> ''),
		                (SELECT currency FROM orders WHERE category_id = $1 AND currency <> '' LIMIT 1), ''),
		       coalesce(s.timezone, ''),
		       EXISTS (SELECT 1 FROM shopify_connections WHERE category_id = $1),
		       EXISTS (SELECT 1 FROM imports WHERE category_id = $1),
		       (SELECT min(local_day) FROM orders WHERE category_id = $1 AND counted),
		       EXISTS (SELECT 1 FROM woocommerce_connections WHERE category_id = $1)
		FROM (SELECT $1::uuid AS category_id) c LEFT JOIN stores s USING (category_id)`, categoryID).
		QueryRow(func(row pgx.Row) error {
			if err := row.Scan(&out.Store.Currency, &out.Store.Timezone, &out.Connected, &out.Imported, &first, &out.WooCommerce); err != nil {
				return err
			}
			if first.Valid {
				out.FirstDay = fromPgDate(first.Time)
			}
			return nil
		})
	// The days' totals and their sessions are read apart and merged here:
	// two index scans cost PostgreSQL less than joining them (a hash full
	// join and a sort, some 0.3 ms for a year against 0.1 ms).
	var totals []domain.DayTotals
	b.Queue(`
		SELECT day, orders, gross, discounts, returns, shipping, duties, fees, taxes, tips, gift_cards
		FROM daily WHERE category_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day`, categoryID, pgDate(from), pgDate(to)).
		Query(func(rows pgx.Rows) error {
			totals = make([]domain.DayTotals, 0, domain.DaysBetween(from, to)+1)
			var day time.Time
			var d domain.DayTotals
			a := &d.Amounts
			var gross, discounts, returns, shipping, duties, fees, taxes, tips, giftCards int64
			_, err := pgx.ForEachRow(rows, []any{&day, &d.Orders, &gross, &discounts, &returns, &shipping, &duties,
				&fees, &taxes, &tips, &giftCards}, func() error {
				d.Date = fromPgDate(day)
				*a = domain.Amounts{Gross: domain.Money(gross), Discounts: domain.Money(discounts),
					Returns: domain.Money(returns), Shipping: domain.Money(shipping), Duties: domain.Money(duties),
					AdditionalFees: domain.Money(fees), Taxes: domain.Money(taxes), Tips: domain.Money(tips),
					GiftCards: domain.Money(giftCards)}
				totals = append(totals, d)
				return nil
			})
			return err
		})
	type sessions struct {
		day                 domain.Date
		sessions, completed int64
	}
	var visits []sessions
	b.Queue(`SELECT day, sessions, completed FROM daily_sessions WHERE category_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day`,
		categoryID, pgDate(from), pgDate(to)).
		Query(func(rows pgx.Rows) error {
			var day time.Time
			var v sessions
			_, err := pgx.ForEachRow(rows, []any{&day, &v.sessions, &v.completed}, func() error {
				v.day = fromPgDate(day)
				visits = append(visits, v)
				return nil
			})
			return err
		})
	out.Shopify = map[domain.Date]domain.Money{}
	b.Queue(`SELECT day, total_sales FROM shopify_daily WHERE category_id = $1 AND day BETWEEN $2 AND $3`,
		categoryID, pgDate(from), pgDate(to)).
		Query(func(rows pgx.Rows) error {
			var day time.Time
			var total int64
			_, err := pgx.ForEachRow(rows, []any{&day, &total}, func() error {
				out.Shopify[fromPgDate(day)] = domain.Money(total)
				return nil
			})
			return err
		})
	if err := r.Pool.SendBatch(ctx, b).Close(); err != nil {
		return app.RangeNumbers{}, err
	}
	// Every day with totals or sessions, in order: what a full join of
	// the two on the day gives.
	out.Days = make([]domain.DayTotals, 0, len(totals))
	i, j := 0, 0
	for i < len(totals) || j < len(visits) {
		var d domain.DayTotals
		switch {
		case j == len(visits) || (i < len(totals) && totals[i].Date.Before(visits[j].day)):
			d = totals[i]
			i++
		case i == len(totals) || visits[j].day.Before(totals[i].Date):
			d = domain.DayTotals{Date: visits[j].day}
		default:
			d = totals[i]
			i++
		}
		if j < len(visits) && visits[j].day == d.Date {
			s, c := visits[j].sessions, visits[j].completed
			d.Sessions, d.CompletedSessions = &s, &c
			j++
		}
		out.Days = append(out.Days, d)
	}
	return out, nil
}

// TopProducts implements app.Repository. A product line without a product
// key is money that belongs to no product (WooCommerce's fees and its
// amount-only refunds): it counts in the totals but is no product to rank
// or to make a studio photo of.
func (r Repo) TopProducts(ctx context.Context, categoryID string, from, to domain.Date, limit int) ([]app.ProductSales, error) {
	rows, err := r.Pool.Query(ctx, `
		SELECT (array_agg(product_title ORDER BY happened_at DESC))[1], sum(quantity)::bigint,
		       sum(gross)::bigint, sum(gross - discounts - returns)::bigint AS net
		FROM sales
		WHERE category_id = $1 AND local_day BETWEEN $2 AND $3 AND line = 'PRODUCT' AND product_key <> ''
		GROUP BY product_key
		ORDER BY net DESC, 1
		LIMIT $4`, categoryID, pgDate(from), pgDate(to), limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (app.ProductSales, error) {
		var p app.ProductSales
		var gross, net int64
		err := row.Scan(&p.Title, &p.Quantity, &gross, &net)
		p.Gross, p.NetSales = domain.Money(gross), domain.Money(net)
		return p, err
	})
}

// LastImport implements app.Repository.
func (r Repo) LastImport(ctx context.Context, categoryID string) (*app.Import, error) {
	var imp app.Import
	var first, last pgtype.Date
	err := r.Pool.QueryRow(ctx, `
		SELECT id, category_id, file_sha256, orders, first_day, last_day, currency, imported_by, imported_at
		FROM imports WHERE category_id = $1 ORDER BY imported_at DESC LIMIT 1`, categoryID).
		Scan(&imp.ID, &imp.CategoryID, &imp.FileSHA256, &imp.Orders, &first, &last, &imp.Currency, &imp.ImportedBy, &imp.ImportedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if first.Valid {
		imp.FirstDay = fromPgDate(first.Time)
	}
	if last.Valid {
		imp.LastDay = fromPgDate(last.Time)
	}
	return &imp, nil
}
