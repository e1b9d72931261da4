package app_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
	"uplift.dev/stores/internal/ordercsv/ordercsvtest"
)

// goldenImportRows is the digest of every row three imports leave in
// orders, sales and daily (below), taken with the import path at main
// 25bb353, before it was tuned for BenchmarkImportOrders. A faster import
// must store exactly the same rows.
const goldenImportRows = "e83a5abe68b19b93ac0ddecafa17df91e0a68af084400b9aff992e12038714d4"

// cancelled is a small export whose orders are cancelled or refunded on
// later days, so their sales land on days other than the orders', in two
// versions: the second moves the cancellations and drops an order's
// refund, so importing it again replaces sales on days the file no longer
// names.
func cancelled(version int) string {
	var b strings.Builder
	b.WriteString("Name,Email,Currency,Subtotal,Shipping,Taxes,Total,Discount Amount,Created at,Lineitem quantity,Lineitem name,Lineitem price,Lineitem sku,Lineitem requires shipping,Cancelled at,Refunded Amount,Id\n")
	for i := range 40 {
		cancel, refund := "", "0.00"
		switch i % 4 {
		case 1:
			cancel = fmt.Sprintf("2025-03-%02d 09:00:00 -0500", 10+i%5+version)
		case 2:
			if version == 0 {
				refund = "5.00"
			}
		}
		fmt.Fprintf(&b, "#%d,b%d@example.com,USD,20.00,5.00,1.00,26.00,0.00,2025-03-%02d 23:30:00 -0500,2,Soap,10.00,SOAP-%d,true,%s,%s,%d\n",
			2000+i, i%7, 1+i%9, i%3, cancel, refund, 7200000000000+i)
	}
	return b.String()
}

// TestImportStoresSameRows imports a year in two files into one store, the
// first file again (every order and sale replaced), and a small file of
// cancelled and refunded orders twice in two versions; the rows stored
// must be the ones the import stored before it was tuned.
func TestImportStoresSameRows(t *testing.T) {
	t.Parallel()
	a, repo := benchApp(t, app.Options{})
	ctx := context.Background()
	cat := "7d6f0a52-6a4e-4b59-9a8e-2b1f7c0e5a11"
	year := []string{string(ordercsvtest.ExportYear(6000, 2025, 0, 2)), string(ordercsvtest.ExportYear(6000, 2025, 1, 2))}
	for _, f := range []string{year[0], year[1], year[0], cancelled(0), cancelled(1)} {
		if _, err := a.ImportOrders(ctx, domain.Caller{UID: "test"}, cat, export(strings.NewReader(f))); err != nil {
			t.Fatal(err)
		}
	}
	h := sha256.New()
	for _, q := range []string{
		`SELECT order_id, source, name, created_at AT TIME ZONE 'UTC', local_day, updated_at AT TIME ZONE 'UTC', cancelled_at AT TIME ZONE 'UTC', test, gift_card_only, counted, currency, customer_key
		 FROM orders WHERE category_id = $1 ORDER BY order_id`,
		`SELECT order_id, seq, happened_at AT TIME ZONE 'UTC', local_day, action, line, product_key, product_title, quantity, total, discount, tax,
		        gross, discounts, returns, shipping, duties, fees, taxes, tips, gift_cards
		 FROM sales WHERE category_id = $1 ORDER BY order_id, seq`,
		`SELECT day, orders, gross, discounts, returns, shipping, duties, fees, taxes, tips, gift_cards
		 FROM daily WHERE category_id = $1 ORDER BY day`,
		`SELECT currency, timezone FROM stores WHERE category_id = $1`,
		`SELECT count(*) FROM signals_due WHERE category_id = $1`,
	} {
		rows, err := repo.Pool.Query(ctx, q, cat)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "%v\n", vals)
			n++
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "-- %d rows\n", n)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != goldenImportRows {
		t.Errorf("the rows stored differ from the import's before tuning: digest %s, want %s", got, goldenImportRows)
	}
}
