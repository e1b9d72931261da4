package postgres_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// A sync claimed for an account keeps reading Shopify after another
// account proved the shop and it moved: nothing it writes afterwards (its
// orders, catalogue, sessions, Shopify's own figures, its progress, its
// end) lands in the account the shop left, whether the write comes after
// the move or races it.
func TestASyncOverlappingAMoveWritesNothingForTheAccountItLeft(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	from, to := uuid.NewString(), uuid.NewString()
	const shop = "fern.myshopify.com"
	connect(t, r, from, shop, t0)
	c := claim(t, r, t0)
	if c == nil || c.CategoryID != from {
		t.Fatalf("claimed %+v", c)
	}
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	write := func(i int) []error {
		id := "shopify:" + time.Duration(i).String()
		_, err := r.SaveOrders(ctx, c.Link(), []domain.Order{order(id, domain.SourceShopify, at, sold(at, "tea", 1, 1000))})
		return []error{err,
			r.SaveCatalog(ctx, c.Link(), []app.CatalogProduct{{ID: "p" + id}}, []app.CatalogCustomer{{ID: "c" + id, Orders: 1}}),
			r.SaveSessions(ctx, c.Link(), []app.DaySessions{{Day: domain.DateOf(at), Sessions: 40}}),
			r.SaveShopifyDaily(ctx, c.Link(), []app.ShopifyDay{{Day: domain.DateOf(at), Orders: 1}}),
			r.SaveProgress(ctx, c.Link(), app.Progress{Phase: app.PhaseOrders, Orders: int64(i), Percent: 50})}
	}
	// The sync's writes race the move ...
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range 3 {
		wg.Go(func() {
			for i := w * 1000; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				write(i)
			}
		})
	}
	time.Sleep(50 * time.Millisecond)
	if moved := connect(t, r, to, shop, t0.Add(time.Hour)); moved != from {
		t.Fatalf("moved from %q", moved)
	}
	time.Sleep(50 * time.Millisecond)
	close(stop)
	wg.Wait()
	// ... and go on after it, to the end of the sync.
	errs := append(write(9999), r.FinishSync(ctx, c.Link(), c.ClaimedAt, app.SyncResult{OK: true, Currency: "USD",
		Timezone: "America/New_York", Name: "Fern", At: t0.Add(2 * time.Hour), Watermark: at}),
		r.FinishSync(ctx, c.Link(), c.ClaimedAt, app.SyncResult{Error: "late", Retry: true, At: t0.Add(2 * time.Hour)}))
	for i, err := range errs {
		if !errors.Is(err, domain.ErrConnectionChanged) {
			t.Errorf("write %d after the move: %v, want ErrConnectionChanged", i, err)
		}
	}
	// The shop's new account writes as ever.
	if _, err := r.SaveOrders(ctx, conn(t, r, to).Link(), []domain.Order{order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 1, 1000))}); err != nil {
		t.Fatalf("the new account's sync: %v", err)
	}

	if counts, _ := r.ShopCounts(ctx, from); counts != (app.StoreCounts{}) {
		t.Errorf("the account the shop left counts %+v of it", counts)
	}
	if d := days(t, r, from, "2026-03-02", "2026-03-02")["2026-03-02"]; d.Orders != 0 || d.Gross != 0 || d.Sessions != nil {
		t.Errorf("the account the shop left has %+v on the sync's day", d)
	}
	var shopRows int
	if err := r.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM orders WHERE category_id = $1) + (SELECT count(*) FROM sales WHERE category_id = $1)
		+ (SELECT count(*) FROM products WHERE category_id = $1) + (SELECT count(*) FROM customers WHERE category_id = $1)
		+ (SELECT count(*) FROM daily_sessions WHERE category_id = $1) + (SELECT count(*) FROM shopify_daily WHERE category_id = $1)
		+ (SELECT count(*) FROM stores WHERE category_id = $1)`, from).Scan(&shopRows); err != nil {
		t.Fatal(err)
	}
	if shopRows != 0 {
		t.Errorf("%d rows of the shop stayed in the account it left", shopRows)
	}
	left := conn(t, r, from)
	if left.Status != app.StatusMoved || left.LastSyncedAt != nil || left.Watermark != nil || left.Name != "" ||
		left.Progress.Phase != "IDLE" || left.Progress.Orders != 0 {
		t.Errorf("the account the shop left shows a sync: %+v", left)
	}
}
