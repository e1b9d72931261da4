package postgres_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	platformpg "uplift.dev/platform/postgres"
	"uplift.dev/stores/internal/adapters/postgres"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
	"uplift.dev/stores/migrations"
)

func newRepo(t *testing.T) postgres.Repo {
	t.Helper()
	pool := pgtest.Pool(t, "stores")
	if err := platformpg.Migrate(context.Background(), pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	return postgres.Repo{Pool: pool}
}

// outbox counts the events queued on subject.
func outbox(t *testing.T, r postgres.Repo, subject string) int {
	t.Helper()
	var n int
	if err := r.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE subject = $1`, subject).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func day(t *testing.T, s string) domain.Date {
	t.Helper()
	d, err := domain.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sold is a product sale of qty for total (no tax, no discount) at.
func sold(at time.Time, key string, qty int64, total domain.Money) domain.Sale {
	return domain.Sale{HappenedAt: at, Action: domain.ActionOrder, Line: domain.LineProduct,
		ProductKey: key, ProductTitle: "Title of " + key, Quantity: qty, Total: total}
}

// returned is the return of qty of key for total at.
func returned(at time.Time, key string, qty int64, total domain.Money) domain.Sale {
	s := sold(at, key, -qty, -total)
	s.Action = domain.ActionReturn
	return s
}

func order(id string, src domain.Source, at time.Time, sales ...domain.Sale) domain.Order {
	return domain.Order{ID: id, Source: src, Name: "#" + id, CreatedAt: at, Currency: "USD", Sales: sales}
}

// link is the category's connection as a sync holds it, the shop's data's
// writes need it to stand; a category with none first connects a shop of
// its own.
func link(t *testing.T, r postgres.Repo, cat string) app.ShopLink {
	t.Helper()
	c, err := r.Connection(context.Background(), cat)
	if err != nil {
		t.Fatal(err)
	}
	if c == nil {
		connect(t, r, cat, "shop-"+cat+".myshopify.com", t0)
		c = conn(t, r, cat)
	}
	return c.Link()
}

func save(t *testing.T, r postgres.Repo, cat string, orders ...domain.Order) {
	t.Helper()
	if _, err := r.SaveOrders(context.Background(), link(t, r, cat), orders); err != nil {
		t.Fatal(err)
	}
}

// days are the stored totals of [from, to] by day.
func days(t *testing.T, r postgres.Repo, cat, from, to string) map[string]domain.DayTotals {
	t.Helper()
	n, err := r.RangeNumbers(context.Background(), cat, day(t, from), day(t, to))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]domain.DayTotals{}
	for _, d := range n.Days {
		out[d.Date.String()] = d
	}
	return out
}

// Each order counts on its store-local day and each return on the day it
// was processed, whatever UTC's date: an evening order west of UTC, a
// morning one east of it, and the 25-hour day New York's clocks go back.
func TestDaysAreTheStoresOwnAcrossZonesAndDaylightSaving(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	for _, c := range []struct {
		zone   string
		placed time.Time // wall clock in zone
		day    string
	}{
		// 1 November 2026, 23:30 EST, after the clocks went back: 04:30 UTC on the 2nd.
		{"America/New_York", time.Date(2026, 11, 1, 23, 30, 0, 0, time.UTC), "2026-11-01"},
		// 00:30 EDT on the same 1 November, before the change: 04:30 UTC too, a day earlier.
		{"America/New_York", time.Date(2026, 11, 1, 0, 30, 0, 0, time.UTC), "2026-11-01"},
		// 00:15 IST is 18:45 UTC on the day before.
		{"Asia/Kolkata", time.Date(2026, 11, 2, 0, 15, 0, 0, time.UTC), "2026-11-02"},
		// UTC+14: 13:00 on the 2nd is 23:00 UTC on the 1st.
		{"Pacific/Kiritimati", time.Date(2026, 11, 2, 13, 0, 0, 0, time.UTC), "2026-11-02"},
		// Europe's 8 March 2026 is ordinary, London's 29 March is 23 hours long.
		{"Europe/London", time.Date(2026, 3, 29, 23, 59, 0, 0, time.UTC), "2026-03-29"},
	} {
		loc := zone(t, c.zone)
		p := c.placed
		at := time.Date(p.Year(), p.Month(), p.Day(), p.Hour(), p.Minute(), 0, 0, loc)
		cat := uuid.NewString()
		// The return is processed at 00:30 the next local day (25 hours
		// after an order at 00:30 on the day New York's clocks go back).
		ret := time.Date(p.Year(), p.Month(), p.Day()+1, 0, 30, 0, 0, loc)
		save(t, r, cat, order("shopify:1", domain.SourceShopify, at,
			sold(at, "tea", 2, 3000), returned(ret, "tea", 1, 1500)))
		d0 := day(t, c.day)
		got := days(t, r, cat, d0.AddDays(-2).String(), d0.AddDays(2).String())
		placed, back := got[c.day], got[domain.DateOf(ret).String()]
		if len(got) != 2 || placed.Orders != 1 || placed.Gross != 3000 || placed.Returns != 0 ||
			back.Orders != 0 || back.Returns != 1500 || domain.DateOf(ret) != d0.AddDays(1) {
			t.Errorf("%s at %s: stored days %+v, want the order on %s and the return the day after", c.zone, at, got, c.day)
		}
		pd, err := r.ProductDays(context.Background(), cat, d0.AddDays(-1), d0.AddDays(1))
		if err != nil || len(pd) != 2 || pd[0].Date != d0 || pd[0].Quantity != 2 || pd[1].Date != d0.AddDays(1) || pd[1].Quantity != -1 {
			t.Errorf("%s: product days %+v %v", c.zone, pd, err)
		}
	}
}

// An order's sales are replaced whole on every save, and every day the
// old or the new copy touched is computed again from what is stored.
func TestSavingAnOrderAgainRecomputesEveryDayItTouches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	cat := uuid.NewString()
	mon := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	tue, wed := mon.Add(24*time.Hour), mon.Add(48*time.Hour)
	first := order("shopify:1", domain.SourceShopify, mon, sold(mon, "tea", 1, 1000), returned(tue, "tea", 1, 1000))
	other := order("shopify:2", domain.SourceShopify, mon, sold(mon, "cup", 1, 500))
	save(t, r, cat, first, other)
	// The refund moves from Tuesday to Wednesday, and a second tea is added.
	edited := order("shopify:1", domain.SourceShopify, mon, sold(mon, "tea", 2, 2000), returned(wed, "tea", 1, 1000))
	for range 2 { // a replayed delivery changes nothing
		save(t, r, cat, edited)
	}
	got := days(t, r, cat, "2026-03-01", "2026-03-05")
	if m := got["2026-03-02"]; m.Orders != 2 || m.Gross != 2500 {
		t.Fatalf("Monday %+v, want 2 orders and 25.00", m)
	}
	if d := got["2026-03-03"]; d.Returns != 0 {
		t.Fatalf("Tuesday still holds the moved refund: %+v", d)
	}
	if d := got["2026-03-04"]; d.Returns != 1000 {
		t.Fatalf("Wednesday %+v, want the refund", d)
	}
	if err := r.DeleteOrder(ctx, cat, "shopify:1"); err != nil {
		t.Fatal(err)
	}
	got = days(t, r, cat, "2026-03-01", "2026-03-05")
	if m := got["2026-03-02"]; m.Orders != 1 || m.Gross != 500 {
		t.Fatalf("Monday after the delete %+v", m)
	}
	if d := got["2026-03-04"]; d.Returns != 0 {
		t.Fatalf("Wednesday after the delete %+v", d)
	}
}

func TestTheLastCopyInABatchWinsAndTestOrdersAreNotCounted(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	cat := uuid.NewString()
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	test := order("shopify:9", domain.SourceShopify, at, sold(at, "tea", 1, 9900))
	test.Test = true
	gift := order("shopify:8", domain.SourceShopify, at,
		domain.Sale{HappenedAt: at, Action: domain.ActionOrder, Line: domain.LineGiftCard, Quantity: 1, Total: 5000})
	n, err := r.SaveOrders(context.Background(), link(t, r, cat), []domain.Order{
		order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 1, 1000)),
		test, gift,
		order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 3, 3000)),
	})
	if err != nil || n != 3 {
		t.Fatalf("saved %d %v, want 3 orders", n, err)
	}
	d := days(t, r, cat, "2026-03-02", "2026-03-02")["2026-03-02"]
	if d.Orders != 1 || d.Gross != 3000 || d.GiftCards != 5000 {
		t.Fatalf("day %+v, want the last copy's 30.00, one order (no test order, no gift-card-only order)", d)
	}
	c, err := r.ShopCounts(context.Background(), cat)
	if err != nil || c.Orders != 1 {
		t.Fatalf("shop counts %+v %v, want the one counted order", c, err)
	}
}

func TestAnImportNeverReplacesTheShopsOwnCopy(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	cat := uuid.NewString()
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	save(t, r, cat, order("shopify:1", domain.SourceShopify, at, sold(at, "tea", 1, 1000)))
	save(t, r, cat, order("shopify:1", domain.SourceImport, at, sold(at, "tea", 5, 5000)),
		order("shopify:2", domain.SourceImport, at, sold(at, "cup", 1, 700)))
	if d := days(t, r, cat, "2026-03-02", "2026-03-02")["2026-03-02"]; d.Orders != 2 || d.Gross != 1700 {
		t.Fatalf("day %+v, want the shop's 10.00 and the file's other order", d)
	}
	// The shop's copy does replace the file's.
	save(t, r, cat, order("shopify:2", domain.SourceShopify, at, sold(at, "cup", 2, 1400)))
	if d := days(t, r, cat, "2026-03-02", "2026-03-02")["2026-03-02"]; d.Gross != 2400 {
		t.Fatalf("day %+v, want the shop's copy of order 2", d)
	}
}

func anImport(cat string, at time.Time) app.Import {
	return app.Import{ID: uuid.NewString(), CategoryID: cat, FileSHA256: "ab", Orders: 1, FirstDay: domain.DateOf(at),
		LastDay: domain.DateOf(at), Currency: "EUR", Timezone: "+01:00", ImportedBy: "u1", ImportedAt: at}
}

func TestAnImportIsAllOrNothingAndOneAtATime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	cat := uuid.NewString()
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.FixedZone("", 3600))
	bad := errors.New("row 4001: bad amount")
	err := r.SaveImport(ctx, cat, func(save func([]domain.Order) error) (app.Import, error) {
		if err := save([]domain.Order{order("import:#1", domain.SourceImport, at, sold(at, "tea", 1, 1000))}); err != nil {
			return app.Import{}, err
		}
		return app.Import{}, bad
	})
	if !errors.Is(err, bad) {
		t.Fatalf("import: %v", err)
	}
	var n int
	if err := r.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM orders) + (SELECT count(*) FROM daily) +
		(SELECT count(*) FROM imports) + (SELECT count(*) FROM signals_due) + (SELECT count(*) FROM stores)`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d rows left by a failed import %v", n, err)
	}

	// While one import reads its file, a second of the same store is
	// refused at once; another store's goes ahead.
	reading, finish := make(chan struct{}), make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(finish) }) }
	t.Cleanup(release) // a failing test still lets the first import end
	done := make(chan error, 1)
	go func() {
		done <- r.SaveImport(ctx, cat, func(save func([]domain.Order) error) (app.Import, error) {
			close(reading)
			<-finish
			return anImport(cat, at), save([]domain.Order{order("import:#1", domain.SourceImport, at, sold(at, "tea", 1, 1000))})
		})
	}()
	<-reading
	if err := r.SaveImport(ctx, cat, func(func([]domain.Order) error) (app.Import, error) {
		t.Error("the second import read its file")
		return anImport(cat, at), nil
	}); !errors.Is(err, domain.ErrImportRunning) {
		t.Fatalf("second import: %v", err)
	}
	other := uuid.NewString()
	if err := r.SaveImport(ctx, other, func(func([]domain.Order) error) (app.Import, error) { return anImport(other, at), nil }); err != nil {
		t.Fatalf("another store's import: %v", err)
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if st, err := r.Store(ctx, cat); err != nil || st.Currency != "EUR" || st.Timezone != "+01:00" {
		t.Fatalf("store %+v %v", st, err)
	}
	if imp, err := r.LastImport(ctx, cat); err != nil || imp == nil || imp.FirstDay != day(t, "2026-03-02") {
		t.Fatalf("last import %+v %v", imp, err)
	}
}

// A connected shop's currency and zone win over an imported file's.
func TestAnImportKeepsTheConnectedShopsCurrency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	cat := uuid.NewString()
	connect(t, r, cat, "fern.myshopify.com", t0)
	claimed := claim(t, r, t0)
	if err := r.FinishSync(ctx, claimed.Link(), claimed.ClaimedAt, app.SyncResult{OK: true, Currency: "USD", Timezone: "America/New_York", At: t0}); err != nil {
		t.Fatal(err)
	}
	if err := r.SaveImport(ctx, cat, func(func([]domain.Order) error) (app.Import, error) { return anImport(cat, t0), nil }); err != nil {
		t.Fatal(err)
	}
	if st, _ := r.Store(ctx, cat); st.Currency != "USD" || st.Timezone != "America/New_York" {
		t.Fatalf("store %+v, want the shop's", st)
	}
}

func TestTopProductsRanksTheRangesNetSales(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	cat := uuid.NewString()
	in := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	before, after := in.Add(-24*time.Hour), in.Add(48*time.Hour)
	retitled := sold(in.Add(time.Hour), "tea", 1, 1000)
	retitled.ProductTitle = "Sencha, new title"
	save(t, r, cat,
		order("shopify:1", domain.SourceShopify, in, sold(in, "tea", 2, 2000), retitled, returned(in, "tea", 1, 1000)),
		order("shopify:2", domain.SourceShopify, in, sold(in, "cup", 1, 1500)),
		order("shopify:3", domain.SourceShopify, in, sold(in, "pot", 1, 100),
			domain.Sale{HappenedAt: in, Action: domain.ActionOrder, Line: domain.LineShipping, Total: 99999},
			// WooCommerce's amount-only refund and a fee: money on a
			// product line that belongs to no product.
			domain.Sale{HappenedAt: in, Action: domain.ActionReturn, Line: domain.LineProduct, ProductTitle: "Refund", Total: 1500},
			domain.Sale{HappenedAt: in, Action: domain.ActionOrder, Line: domain.LineProduct, ProductTitle: "Gift wrap", Total: 500}),
		order("shopify:4", domain.SourceShopify, before, sold(before, "pot", 9, 90000)),
		order("shopify:5", domain.SourceShopify, after, sold(after, "pot", 9, 90000)))
	top, err := r.TopProducts(context.Background(), cat, day(t, "2026-03-02"), day(t, "2026-03-03"), 2)
	if err != nil || len(top) != 2 {
		t.Fatalf("top %+v %v", top, err)
	}
	if top[0].Title != "Sencha, new title" || top[0].NetSales != 2000 || top[0].Gross != 3000 || top[0].Quantity != 2 ||
		top[1].Title != "Title of cup" || top[1].NetSales != 1500 {
		t.Fatalf("top %+v", top)
	}
	// Only products are ranked: the shipping line, the refund and the fee are none.
	if all, err := r.TopProducts(context.Background(), cat, day(t, "2026-03-02"), day(t, "2026-03-03"), 10); err != nil || len(all) != 3 {
		t.Fatalf("all products %+v %v, want tea, cup and pot", all, err)
	}
}

func TestRedactingACustomerForgetsOnlyThem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	cat, other := uuid.NewString(), uuid.NewString()
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	mk := func(id, customer string) domain.Order {
		o := order(id, domain.SourceShopify, at, sold(at, "tea", 1, 1000))
		o.CustomerKey = customer
		return o
	}
	save(t, r, cat, mk("shopify:1", "c1"), mk("shopify:2", "c2"), mk("shopify:3", ""))
	save(t, r, other, mk("shopify:1", "c1"))
	if err := r.SaveCatalog(ctx, link(t, r, cat), nil, []app.CatalogCustomer{{ID: "c1", Orders: 1}, {ID: "c2", Orders: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := r.RedactCustomers(ctx, cat, []string{"c1"}, []string{"shopify:3"}); err != nil {
		t.Fatal(err)
	}
	// The redacted order delivered again keeps no customer.
	save(t, r, cat, mk("shopify:1", "c1"))
	keys := func(cat string) map[string]string {
		rows, err := r.Pool.Query(ctx, `SELECT order_id, customer_key FROM orders WHERE category_id = $1`, cat)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]string{}
		for rows.Next() {
			var id, k string
			if err := rows.Scan(&id, &k); err != nil {
				t.Fatal(err)
			}
			out[id] = k
		}
		return out
	}
	if k := keys(cat); k["shopify:1"] != "redacted" || k["shopify:2"] != "c2" || k["shopify:3"] != "redacted" {
		t.Fatalf("customer keys %v", k)
	}
	if k := keys(other); k["shopify:1"] != "c1" {
		t.Fatalf("another store's customer was redacted: %v", k)
	}
	if c, _ := r.ShopCounts(ctx, cat); c.Customers != 1 || c.Orders != 3 {
		t.Fatalf("counts %+v, want c2 only left and every order kept", c)
	}
}
