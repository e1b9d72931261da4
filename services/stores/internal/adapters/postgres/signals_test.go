package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/platform/events"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// A write that lands while the signals are being published keeps its mark,
// so the newer orders are published too.
func TestSignalsStayDueWhenOrdersChangeDuringPublication(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	cat, other := uuid.NewString(), uuid.NewString()
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	save(t, r, cat, order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 1, 1000)))
	save(t, r, other, order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 1, 1000)))
	due, err := r.DueSignals(ctx, cat, 10)
	if err != nil || len(due) != 1 || due[0].CategoryID != cat {
		t.Fatalf("due %+v %v", due, err)
	}
	if all, _ := r.DueSignals(ctx, "", 1); len(all) != 1 || all[0].CategoryID != cat {
		t.Fatalf("oldest first, limited: %+v", all)
	}
	save(t, r, cat, order("shopify:2", domain.SourceShopify, at, sold(at, "cup", 1, 500)))
	s := domain.Signals{CategoryID: cat, Currency: "USD", AsOf: domain.DateOf(at), Timezone: "America/New_York"}
	if err := r.PublishSignals(ctx, s, at, due[0]); err != nil {
		t.Fatal(err)
	}
	again, _ := r.DueSignals(ctx, cat, 10)
	if len(again) != 1 || again[0].Version <= due[0].Version {
		t.Fatalf("after publishing a stale mark: due %+v, want it kept with a newer version", again)
	}
	if err := r.PublishSignals(ctx, s, at, again[0]); err != nil {
		t.Fatal(err)
	}
	if left, _ := r.DueSignals(ctx, cat, 10); len(left) != 0 {
		t.Fatalf("still due %+v", left)
	}
	if left, _ := r.DueSignals(ctx, other, 10); len(left) != 1 {
		t.Fatal("publishing one store cleared another's mark")
	}
	if n := outbox(t, r, events.SubjectStoreSignalsUpdated); n != 2 {
		t.Fatalf("%d StoreSignalsUpdated, want one per publication", n)
	}
}

func TestProductDaysLeaveOutWhatIsNotAProduct(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	cat := uuid.NewString()
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	keyless := sold(at, "", 1, 100)
	save(t, r, cat, order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 2, 2000), keyless,
		domain.Sale{HappenedAt: at, Action: domain.ActionOrder, Line: domain.LineShipping, Total: 500}))
	pd, err := r.ProductDays(context.Background(), cat, domain.DateOf(at), domain.DateOf(at))
	if err != nil || len(pd) != 1 || pd[0].Key != "tea" || pd[0].NetSales != 2000 || pd[0].Quantity != 2 {
		t.Fatalf("product days %+v %v", pd, err)
	}
}

// Of replicas racing for a morning's report, exactly one publishes.
func TestADailyReportIsPublishedOncePerDay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	cat := uuid.NewString()
	d := day(t, "2026-11-01")
	rep := app.DailyReport{Date: d, Timezone: "America/New_York", Currency: "USD", HasData: true}
	var wg sync.WaitGroup
	var mu sync.Mutex
	published := 0
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := r.PublishDailyReport(ctx, cat, rep, t0)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			published += map[bool]int{true: 1}[ok]
			mu.Unlock()
		}()
	}
	wg.Wait()
	if published != 1 || outbox(t, r, events.SubjectDailyReportReady) != 1 {
		t.Fatalf("%d published, %d events; want 1", published, outbox(t, r, events.SubjectDailyReportReady))
	}
	// The next day is its own; another store's same day too.
	next := rep
	next.Date = d.AddDays(1)
	for _, c := range []struct {
		cat string
		rep app.DailyReport
	}{{cat, next}, {uuid.NewString(), rep}} {
		if ok, err := r.PublishDailyReport(ctx, c.cat, c.rep, t0); err != nil || !ok {
			t.Fatalf("%s %s: %v %v", c.cat, c.rep.Date, ok, err)
		}
	}
}

// The schedule covers stores with an import or a connection, of any
// status, and knows the newest day each was sent.
func TestReportStoresAreThoseWithData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	imported, connected, disconnected, nothing := uuid.NewString(), uuid.NewString(), uuid.NewString(), uuid.NewString()
	woo := uuid.NewString()
	if err := r.ConnectWooCommerce(ctx, app.WooConnection{CategoryID: woo, StoreURL: "https://x.example", Timezone: "Europe/London",
		KeyID: 1, KeyPermissions: "read_write", ConnectedBy: "u", ConnectedAt: t0}, "none"); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	if err := r.SaveImport(ctx, imported, func(func([]domain.Order) error) (app.Import, error) { return anImport(imported, at), nil }); err != nil {
		t.Fatal(err)
	}
	for _, cat := range []string{connected, disconnected} {
		connect(t, r, cat, cat+".myshopify.com", t0)
	}
	for range 2 {
		c := claim(t, r, t0)
		if err := r.FinishSync(ctx, c.Link(), c.ClaimedAt, app.SyncResult{OK: true, Timezone: "Asia/Kolkata", At: t0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Disconnect(ctx, disconnected, app.StatusDisconnected, t0); err != nil {
		t.Fatal(err)
	}
	// A store row without data (its import was never recorded).
	if _, err := r.Pool.Exec(ctx, `INSERT INTO stores (category_id, timezone) VALUES ($1, 'UTC')`, nothing); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"2026-03-01", "2026-03-03", "2026-03-02"} {
		if _, err := r.PublishDailyReport(ctx, imported, app.DailyReport{Date: day(t, d)}, at); err != nil {
			t.Fatal(err)
		}
	}
	stores, err := r.ReportStores(ctx)
	if err != nil || len(stores) != 4 {
		t.Fatalf("report stores %+v %v", stores, err)
	}
	for _, s := range stores {
		switch s.CategoryID {
		case imported:
			if s.Timezone != "+01:00" || s.LastSent != day(t, "2026-03-03") {
				t.Fatalf("imported store %+v", s)
			}
		case connected, disconnected:
			if s.Timezone != "Asia/Kolkata" || s.LastSent != (domain.Date{}) {
				t.Fatalf("connected store %+v", s)
			}
		case woo:
			if s.Timezone != "Europe/London" {
				t.Fatalf("WooCommerce store %+v", s)
			}
		default:
			t.Fatalf("a store without data is scheduled: %+v", s)
		}
	}
}

// The Connections page's counts are what is stored of the shop: its
// counted orders (not an import's, not a test or gift-card-only order),
// its products and customers, each counted once however often synced.
func TestShopCountsMatchWhatIsStored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	cat, other := uuid.NewString(), uuid.NewString()
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	test := order("shopify:3", domain.SourceShopify, at, sold(at, "tea", 1, 1000))
	test.Test = true
	gift := order("shopify:4", domain.SourceShopify, at,
		domain.Sale{HappenedAt: at, Action: domain.ActionOrder, Line: domain.LineGiftCard, Quantity: 1, Total: 5000})
	save(t, r, cat, order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 1, 1000)),
		order("shopify:2", domain.SourceShopify, at.Add(-400*24*time.Hour), sold(at, "tea", 1, 1000)),
		order("import:#5", domain.SourceImport, at, sold(at, "tea", 1, 1000)), test, gift)
	save(t, r, cat, order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 2, 2000))) // synced again
	save(t, r, other, order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 1, 1000)))
	products := []app.CatalogProduct{{ID: "p1", Title: "Tea"}, {ID: "p2", Title: "Cup"}}
	customers := []app.CatalogCustomer{{ID: "c1", Orders: 3}}
	for range 2 {
		if err := r.SaveCatalog(ctx, link(t, r, cat), products, customers); err != nil {
			t.Fatal(err)
		}
	}
	// A later page without a title or with fewer orders loses nothing.
	if err := r.SaveCatalog(ctx, link(t, r, cat), []app.CatalogProduct{{ID: "p1"}}, []app.CatalogCustomer{{ID: "c1", Orders: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := r.SaveCatalog(ctx, link(t, r, other), products[:1], nil); err != nil {
		t.Fatal(err)
	}
	c, err := r.ShopCounts(ctx, cat)
	if err != nil || c != (app.StoreCounts{Orders: 2, Products: 2, Customers: 1}) {
		t.Fatalf("counts %+v %v, want 2 orders, 2 products, 1 customer", c, err)
	}
	var title string
	var orders int64
	if err := r.Pool.QueryRow(ctx, `SELECT p.title, c.orders FROM products p, customers c
		WHERE p.category_id = $1 AND p.product_id = 'p1' AND c.category_id = $1`, cat).Scan(&title, &orders); err != nil ||
		title != "Tea" || orders != 3 {
		t.Fatalf("catalogue %q %d %v", title, orders, err)
	}
	if c, _ := r.ShopCounts(ctx, uuid.NewString()); c != (app.StoreCounts{}) {
		t.Fatalf("an unknown store counts %+v", c)
	}
}
