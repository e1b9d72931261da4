package app_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"uplift.dev/platform/benchmem"
	"uplift.dev/stores/internal/adapters/postgres"
	"uplift.dev/stores/internal/adapters/sealer"
	"uplift.dev/stores/internal/adapters/woocommerce"
	"uplift.dev/stores/internal/app"
	woosim "uplift.dev/woosim/sim"
)

// wooBenchOrders is a year of a busy WooCommerce store's orders, about 55
// a day (issue 26's bench: "a year of WooCommerce orders imported").
const wooBenchOrders = 20000

// BenchmarkWooCommerceYear imports a year of WooCommerce orders from the
// simulator through the sync a store's connection runs (app.WooSyncRound
// with the real REST client: pages of 100 orders, each refunded order's
// refunds, the trash, WooCommerce's counting rules, batched writes and the
// daily totals) into a new business each time. The baseline reads the same
// pages and refunds from the same simulator, decodes each order only as far
// as its id and refunds, and COPYs every order's JSON, as text, into an
// unlogged table: the floor of any import from WooCommerce's API. Peak heap
// includes the simulator's store, the same for both.
func BenchmarkWooCommerceYear(b *testing.B) {
	ctx := context.Background()
	_, repo := benchApp(b, app.Options{})
	wsim := woosim.New(woosim.Options{AllowHTTPCallback: true})
	srv := httptest.NewServer(wsim.Handler())
	b.Cleanup(srv.Close)
	b.Cleanup(wsim.Close)
	wsim.SetBaseURL(srv.URL)
	seedWooYear(b, wsim)
	store := wsim.StoreURL("year")
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) }))
	b.Cleanup(hooks.Close)

	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i)
	}
	seal, err := sealer.New(base64.StdEncoding.EncodeToString(key))
	if err != nil {
		b.Fatal(err)
	}
	a := benchWooApp(b, repo, seal, hooks.URL)

	b.Run("baseline=json+copy", func(b *testing.B) {
		if _, err := repo.Pool.Exec(ctx, `CREATE UNLOGGED TABLE IF NOT EXISTS bench_woo_raw (id bigint, body text, refunds text)`); err != nil {
			b.Fatal(err)
		}
		k, err := wsim.IssueKey("year", "bench", "1", "read")
		if err != nil {
			b.Fatal(err)
		}
		peak := benchmem.WatchHeap()
		for b.Loop() {
			if n := bareWooImport(b, repo, store, k); n != wooBenchOrders {
				b.Fatalf("read %d orders of %d", n, wooBenchOrders)
			}
		}
		b.ReportMetric(wooBenchOrders*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
	b.Run("product=WooSyncRound", func(b *testing.B) {
		peak := benchmem.WatchHeap()
		for b.Loop() {
			cat := uuid.NewString()
			k, err := wsim.IssueKey("year", "Uplift", cat, "read_write")
			if err != nil {
				b.Fatal(err)
			}
			ck, _ := seal.Seal(k.ConsumerKey)
			cs, _ := seal.Seal(k.ConsumerSecret)
			if err := repo.ConnectWooCommerce(ctx, app.WooConnection{CategoryID: cat, StoreURL: store, Name: "Year Teas",
				Currency: "GBP", Timezone: "Europe/London", KeyID: k.KeyID, KeyPermissions: "read_write",
				ConsumerKey: ck, ConsumerSecret: cs, ConnectedBy: "bench", ConnectedAt: time.Now()}, "none"); err != nil {
				b.Fatal(err)
			}
			if err := a.WooSyncRound(ctx); err != nil {
				b.Fatal(err)
			}
			c, err := repo.WooConnection(ctx, cat)
			if err != nil || c.Progress.Phase != "DONE" || c.Progress.Orders != wooBenchOrders {
				b.Fatalf("sync: %+v, %v", c, err)
			}
		}
		b.ReportMetric(wooBenchOrders*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
		b.ReportMetric(0.5, "goal-ratio") // issue 26: ≥ 0.5× the bare decode-and-insert
	})
}

// benchWooApp is the use cases with the real WooCommerce client, loopback
// allowed (the simulator), webhooks delivered to hooks.
func benchWooApp(b *testing.B, repo postgres.Repo, seal app.Sealer, hooks string) *app.App {
	b.Helper()
	a := app.New(repo, allowAll{}, nil, nil, seal, slog.New(slog.NewTextHandler(io.Discard, nil)), app.Options{SweepEvery: time.Hour})
	return a.WithWooCommerce(woocommerce.New(woocommerce.Config{AllowLoopback: true}), repo,
		app.WooOptions{WebhookURL: hooks, CallbackURL: hooks, ReturnURL: hooks, AllowHTTP: true})
}

// bareWooImport reads every order page and each refunded order's refunds as
// the sync does, and COPYs the orders' JSON; it returns how many it read.
func bareWooImport(b *testing.B, repo postgres.Repo, store string, k woosim.Key) int {
	b.Helper()
	ctx := context.Background()
	pool := repo.Pool
	get := func(u string) ([]byte, int) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		req.SetBasicAuth(k.ConsumerKey, k.ConsumerSecret)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d %v", u, res.StatusCode, err)
		}
		var pages int
		fmt.Sscan(res.Header.Get("X-WP-TotalPages"), &pages)
		return body, pages
	}
	q := url.Values{"per_page": {"100"}, "orderby": {"modified"}, "order": {"asc"}, "dates_are_gmt": {"true"}}
	n := 0
	for page := 1; ; page++ {
		q.Set("page", fmt.Sprint(page))
		body, pages := get(store + "/wp-json/wc/v3/orders?" + q.Encode())
		var raw []json.RawMessage
		if err := json.Unmarshal(body, &raw); err != nil {
			b.Fatal(err)
		}
		rows := make([][]any, 0, len(raw))
		for _, r := range raw {
			var o struct {
				ID      int64             `json:"id"`
				Refunds []json.RawMessage `json:"refunds"`
			}
			if err := json.Unmarshal(r, &o); err != nil {
				b.Fatal(err)
			}
			refunds := ""
			if len(o.Refunds) > 0 {
				rb, _ := get(fmt.Sprintf("%s/wp-json/wc/v3/orders/%d/refunds?per_page=100", store, o.ID))
				refunds = string(rb)
			}
			rows = append(rows, []any{o.ID, string(r), refunds})
		}
		if _, err := pool.CopyFrom(ctx, pgx.Identifier{"bench_woo_raw"}, []string{"id", "body", "refunds"}, pgx.CopyFromRows(rows)); err != nil {
			b.Fatal(err)
		}
		n += len(raw)
		if page >= pages || len(raw) == 0 {
			return n
		}
	}
}

// seedWooYear fills the store "year" with 2025's orders: two dozen teas,
// 300 registered customers, mostly paid orders with some coupons, 2 %
// failed, 2 % cancelled, 1 % pending, 2 % on-hold, and about 5 % refunded
// in part or whole a few days later, in a zone with a DST change.
func seedWooYear(b *testing.B, s *woosim.Server) {
	b.Helper()
	if err := s.CreateStore(woosim.StoreSpec{Slug: "year", Name: "Year Teas", Currency: "GBP", Timezone: "Europe/London", TaxPercent: 20}); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2025, 26))
	var products []int64
	for i := range 24 {
		id, err := s.SaveProduct("year", woosim.ProductSpec{Name: fmt.Sprintf("Tea %d", i+1), SKU: fmt.Sprintf("TEA-%02d", i+1),
			Price: int64(600 + 50*i)})
		if err != nil {
			b.Fatal(err)
		}
		products = append(products, id)
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var customers []int64
	for range 300 {
		id, err := s.AddCustomer("year", start.Add(-time.Duration(r.IntN(365*24))*time.Hour))
		if err != nil {
			b.Fatal(err)
		}
		customers = append(customers, id)
	}
	step := 365 * 24 * time.Hour / wooBenchOrders
	for i := range wooBenchOrders {
		at := start.Add(time.Duration(i) * step)
		spec := woosim.OrderSpec{CreatedAt: at, CustomerID: customers[r.IntN(len(customers))]}
		for range 1 + r.IntN(3) {
			spec.Lines = append(spec.Lines, woosim.LineSpec{ProductID: products[r.IntN(len(products))], Quantity: int64(1 + r.IntN(2))})
		}
		if r.IntN(10) == 0 {
			spec.Coupon = "WELCOME10"
			for l := range spec.Lines {
				spec.Lines[l].Discount = 60 * spec.Lines[l].Quantity
			}
		}
		if r.IntN(3) == 0 {
			spec.Shipping = 395
		}
		switch roll := r.IntN(100); {
		case roll < 2:
			spec.Status = "failed"
		case roll < 4:
			spec.Status = "cancelled"
		case roll < 5:
			spec.Status = "pending"
		case roll < 7:
			spec.Status = "on-hold"
		case roll < 60:
			spec.Status, spec.CompletedAt = "completed", at.Add(30*time.Hour)
		default:
			spec.Status = "processing"
		}
		id, err := s.AddOrder("year", spec)
		if err != nil {
			b.Fatal(err)
		}
		if (spec.Status == "completed" || spec.Status == "processing") && r.IntN(100) < 5 {
			if _, err := s.Refund("year", id, woosim.RefundSpec{At: at.Add(time.Duration(24+r.IntN(96)) * time.Hour),
				Reason: "Changed their mind", Lines: []woosim.RefundLine{{LineIndex: 0, Quantity: 1}}}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
