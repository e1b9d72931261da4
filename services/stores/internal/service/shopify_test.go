package service_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/platform/clock"
	"uplift.dev/shopifysim/sim"
)

const testShop = "fixture-goods.myshopify.com"

// fixtureShop is a small shop in New York with a refund across midnight, a
// cancellation, a test order and sessions.
func fixtureShop(t *testing.T, s *sim.Server, now time.Time) {
	t.Helper()
	if err := s.CreateShop(sim.ShopSpec{Domain: testShop, Name: "Fixture Goods", Currency: "USD", Timezone: "America/New_York"}); err != nil {
		t.Fatal(err)
	}
	ny, _ := time.LoadLocation("America/New_York")
	y := now.In(ny).AddDate(0, 0, -1)
	at := func(daysAgo, hour, min int) time.Time {
		d := y.AddDate(0, 0, -daysAgo)
		return time.Date(d.Year(), d.Month(), d.Day(), hour, min, 0, 0, ny)
	}
	for i := 0; i < 8; i++ {
		if _, err := s.AddOrder(testShop, sim.OrderSpec{Name: "#10" + strconv.Itoa(i), CreatedAt: at(i, 10, 0), CustomerID: int64(100 + i),
			Lines:    []sim.LineSpec{{Title: "Trail Mug", SKU: "MUG", ProductID: 1, Quantity: 2, UnitPrice: 1500, Tax: 210}},
			Shipping: 500}); err != nil {
			t.Fatal(err)
		}
	}
	refunded, err := s.AddOrder(testShop, sim.OrderSpec{Name: "#2000", CreatedAt: at(2, 23, 50),
		Lines: []sim.LineSpec{{Title: "Camp Stove", SKU: "STOVE", ProductID: 2, Quantity: 1, UnitPrice: 8900, Discount: 900, Tax: 560}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Refund(testShop, refunded, sim.RefundSpec{At: at(1, 0, 10), Lines: []sim.RefundLine{{LineIndex: 0, Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	cancelled, err := s.AddOrder(testShop, sim.OrderSpec{Name: "#2001", CreatedAt: at(3, 9, 0),
		Lines: []sim.LineSpec{{Title: "Trail Mug", SKU: "MUG", ProductID: 1, Quantity: 1, UnitPrice: 1500}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Cancel(testShop, cancelled, at(0, 8, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddOrder(testShop, sim.OrderSpec{Name: "#9999", CreatedAt: at(0, 12, 0), Test: true,
		Lines: []sim.LineSpec{{Title: "Camp Stove", ProductID: 2, Quantity: 5, UnitPrice: 8900}}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if err := s.SetSessions(testShop, at(i, 0, 0).Format("2006-01-02"), 400+int64(i), 8); err != nil {
			t.Fatal(err)
		}
	}
	_ = s.AddProduct(testShop, 1, "Trail Mug")
	_ = s.AddProduct(testShop, 2, "Camp Stove")
}

func TestConnectShopifyAndSeeItsNumbers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true, TokenTTL: time.Minute})
	now := time.Now()
	fixtureShop(t, h.sim, now)
	ctx, cat := h.owner()

	back := h.connect(ctx, cat, "fixture-goods")
	if back != "http://web.test/connections?shopify=connected" {
		t.Fatalf("callback sent the browser to %q", back)
	}
	sc := h.waitSynced(ctx, cat)
	if sc.GetStatus() != "CONNECTED" || sc.GetName() != "Fixture Goods" || sc.GetCurrency() != "USD" ||
		sc.GetTimezone() != "America/New_York" || sc.GetSync().GetOrders() != 11 || sc.GetSync().GetPercent() != 100 || !sc.GetSessionsAvailable() {
		t.Fatalf("connection = %v", sc)
	}

	ny, _ := time.LoadLocation("America/New_York")
	y := now.In(ny).AddDate(0, 0, -1)
	from, to := y.AddDate(0, 0, -9).Format("2006-01-02"), y.Format("2006-01-02")
	m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: from, To: to})
	if err != nil {
		t.Fatal(err)
	}
	if m.GetSource() != "shopify" || m.GetTimezone() != "America/New_York" || len(m.GetDays()) != 10 {
		t.Fatalf("metrics = %v", m)
	}
	// Our numbers equal Shopify's own figure for every day (the simulator
	// computes it independently from its sales agreements).
	for _, d := range m.GetDays() {
		if d.ShopifyTotalSales == nil || d.GetShopifyTotalSales().GetValue() != d.GetTotalSales() {
			t.Errorf("%s: total sales %s, Shopify says %v", d.GetDate(), d.GetTotalSales(), d.ShopifyTotalSales)
		}
		if d.Sessions == nil || d.ConversionRate == nil {
			t.Errorf("%s: sessions not available from a shop that shares them", d.GetDate())
		}
	}
	// A range that ends in the shop's future (a browser east of New York
	// asks for one) keeps its conversion rate: nobody has visited tomorrow,
	// and the fixture has no sessions today.
	ahead, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: from,
		To: now.In(ny).AddDate(0, 0, 2).Format("2006-01-02")})
	if err != nil || ahead.GetTotals().ConversionRate == nil || ahead.GetTotals().GetSessions().GetValue() != m.GetTotals().GetSessions().GetValue() {
		t.Errorf("range into the future: %v, %v", ahead.GetTotals(), err)
	}
	// The same days asked as a preset: the last 10 whole days on the shop's
	// clock end yesterday in New York, whatever the caller's clock says.
	preset, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, LastDays: 10})
	if err != nil || preset.GetFrom() != from || preset.GetTo() != to || preset.GetToday() != now.In(ny).Format("2006-01-02") ||
		preset.GetTotals().GetTotalSales() != m.GetTotals().GetTotalSales() || preset.GetCurrency() != "USD" {
		t.Errorf("lastDays=10: %s – %s (today %s), %v; want %s – %s", preset.GetFrom(), preset.GetTo(), preset.GetToday(), err, from, to)
	}
	// The fixture's first order is the mug eight days before today.
	if first := y.AddDate(0, 0, -7).Format("2006-01-02"); m.GetFirstOrderDay() != first {
		t.Errorf("first order day %q, want %s", m.GetFirstOrderDay(), first)
	}
	for _, bad := range []*storesv1.GetMetricsRequest{{CategoryId: cat, LastDays: 401}, {CategoryId: cat, LastDays: -1},
		{CategoryId: cat, LastDays: 7, From: from, To: to}} {
		if _, err := h.client.GetMetrics(ctx, bad); status.Code(err) != codes.InvalidArgument {
			t.Errorf("%v: %v, want InvalidArgument", bad, err)
		}
	}
	// 8 mugs orders + the stove + the cancelled mug; the test order never counts.
	tot := m.GetTotals()
	if tot.GetOrders() != 10 {
		t.Errorf("orders = %d, want 10", tot.GetOrders())
	}
	// Gross: 8 × 30.00 + 89.00 + 15.00 = 344.00; discounts: the stove's 9.00, given when
	// it was sold; returns, valued after their discounts: the stove 80.00 + the
	// cancelled mug 15.00 = 95.00; net 240.00 either way. AOV (344.00 − 9.00) ÷ 10.
	if tot.GetGrossSales() != "344.00" || tot.GetDiscounts() != "9.00" || tot.GetReturns() != "95.00" ||
		tot.GetNetSales() != "240.00" || tot.GetAverageOrderValue().GetValue() != "33.50" {
		t.Errorf("totals = gross %s, discounts %s, returns %s, net %s", tot.GetGrossSales(), tot.GetDiscounts(), tot.GetReturns(), tot.GetNetSales())
	}
	// The stove was ordered at 23:50 and refunded at 00:10 the next day:
	// a sale on one day and a return on the next.
	stoveDay, refundDay := m.GetDays()[7], m.GetDays()[8]
	if stoveDay.GetGrossSales() != "119.00" || refundDay.GetReturns() != "80.00" {
		t.Errorf("across midnight: %s gross %s; %s returns %s", stoveDay.GetDate(), stoveDay.GetGrossSales(), refundDay.GetDate(), refundDay.GetReturns())
	}

	// The sync round that saved the orders published the store's signals:
	// 7 mug orders of 2 in the week to yesterday (the cancelled mug was sold
	// and returned inside it; the stove was refunded).
	var sig *eventsv1.StoreSignalsUpdated
	eventually(t, func() bool { sig, _ = h.lastSignals(); return sig != nil }, "StoreSignalsUpdated after the sync")
	if sig.GetCategoryId() != cat || sig.GetAsOf() != to || sig.GetCurrency() != "USD" ||
		sig.GetBestSeller().GetTitle() != "Trail Mug" || sig.GetBestSeller().GetNetSalesMinor() != 21000 ||
		sig.GetBestSeller().GetQuantity() != 14 ||
		sig.GetFallingProduct() != nil {
		t.Errorf("signals after the sync = %v", sig)
	}

	report, err := h.client.GetDailyReport(ctx, &storesv1.GetDailyReportRequest{CategoryId: cat})
	if err != nil {
		t.Fatal(err)
	}
	r := report.GetReport()
	if r.GetStatus() != "READY" || r.GetDate() != to || r.GetHeadline() == "" || len(r.GetMetrics()) < 6 {
		t.Fatalf("daily report = %v", r)
	}
}

func TestOAuthCallbackTampering(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	fixtureShop(t, h.sim, time.Now())
	ctx, cat := h.owner()

	begin := func() (state string, callback *url.URL) {
		start, err := h.client.StartShopifyConnect(ctx, &storesv1.StartShopifyConnectRequest{CategoryId: cat, Shop: testShop})
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(start.GetRedirectUrl())
		state = u.Query().Get("state")
		auth, err := h.client.AuthorizeShopify(context.Background(), &storesv1.AuthorizeShopifyRequest{State: state})
		if err != nil {
			t.Fatal(err)
		}
		return state, h.followToCallback(auth.GetAuthorizeUrl())
	}
	complete := func(raw, state string) string {
		res, err := h.client.CompleteShopifyConnect(context.Background(), &storesv1.CompleteShopifyConnectRequest{RawQuery: raw, BrowserState: state})
		if err != nil {
			t.Fatal(err)
		}
		return res.GetRedirectUrl()
	}
	refused := func(name, redirect string) {
		t.Helper()
		u, _ := url.Parse(redirect)
		if u.Query().Get("shopify") != "error" || u.Query().Get("message") == "" {
			t.Errorf("%s: not refused: %s", name, redirect)
		}
	}

	state, cb := begin()
	q := cb.Query()
	q.Set("shop", "evil-shop.myshopify.com")
	refused("other shop, HMAC no longer matches", complete(q.Encode(), state))
	refused("no HMAC", complete(strings.ReplaceAll(cb.RawQuery, "hmac=", "x="), state))
	refused("state not bound to this browser", complete(cb.RawQuery, "someone-elses-state"))
	if got := complete(cb.RawQuery, state); !strings.HasSuffix(got, "shopify=connected") {
		t.Fatalf("the untampered callback was refused: %s", got)
	}
	refused("replayed callback", complete(cb.RawQuery, state))

	if _, err := h.client.AuthorizeShopify(context.Background(), &storesv1.AuthorizeShopifyRequest{State: state}); status.Code(err) != codes.NotFound {
		t.Errorf("a used state still authorizes: %v", err)
	}
	if _, err := h.client.StartShopifyConnect(ctx, &storesv1.StartShopifyConnectRequest{CategoryId: cat, Shop: "evil.com"}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("a shop outside myshopify.com was accepted: %v", err)
	}
}

func TestWebhooksKeepTheNumbersCurrent(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true, WebhookRetryBase: 20 * time.Millisecond})
	now := time.Now()
	fixtureShop(t, h.sim, now)
	ctx, cat := h.owner()
	h.connect(ctx, cat, testShop)
	h.waitSynced(ctx, cat)

	ny, _ := time.LoadLocation("America/New_York")
	today := now.In(ny).Format("2006-01-02")
	ordersToday := func() int64 {
		m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: today, To: today})
		if err != nil {
			t.Fatal(err)
		}
		return int64(m.GetTotals().GetOrders())
	}
	before := ordersToday()
	if err := h.sim.InjectFault(testShop, sim.Fault{Kind: "webhook-duplicate", Count: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.sim.AddOrder(testShop, sim.OrderSpec{Name: "#3000", CreatedAt: now.In(ny),
		Lines: []sim.LineSpec{{Title: "Trail Mug", ProductID: 1, Quantity: 1, UnitPrice: 1500}}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool { return ordersToday() == before+1 }, "the new order to count once")

	// A forged webhook is refused with 401 and changes nothing.
	_, err := h.client.HandleShopifyWebhook(context.Background(), &storesv1.HandleShopifyWebhookRequest{
		Payload: []byte(`{"id":1}`), Hmac: "Zm9yZ2Vk", Topic: "app/uninstalled", ShopDomain: testShop, WebhookId: "forged"})
	if status.Code(err) != codes.Unauthenticated {
		t.Fatalf("forged webhook: %v", err)
	}

	if err := h.sim.Uninstall(testShop); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		c, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
		return err == nil && c.GetShopify().GetStatus() == "UNINSTALLED"
	}, "app/uninstalled to mark the connection")
	if err := h.sim.SendCompliance(testShop, "shop/redact", 0, nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: now.AddDate(0, 0, -30).Format("2006-01-02"), To: today})
		return err == nil && m.GetTotals().GetOrders() == 0
	}, "shop/redact to delete the shop's orders")
}

func eventually(t *testing.T, ok func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestTokensAreRefreshedByTheServiceClock: the shop and the service share
// one hand-moved clock. The hour-long access token expires an hour after
// the connection by the service's clock; when that clock passes the
// expiry, the next sync refreshes the token first, and the new one expires
// an hour after that moment, to the second.
func TestTokensAreRefreshedByTheServiceClock(t *testing.T) {
	t.Parallel()
	start := time.Now().Truncate(time.Second)
	now := clock.NewManual(start)
	h := newHarness(t, sim.Options{AutoApprove: true, TokenTTL: time.Hour, Clock: now.Now})
	fixtureShop(t, h.sim, start)
	ctx, cat := h.owner()
	h.connect(ctx, cat, "fixture-goods")
	h.waitSynced(ctx, cat)
	expiry := func() time.Time {
		t.Helper()
		var at time.Time
		if err := h.db.QueryRow(ctx, `SELECT access_expires_at FROM shopify_connections WHERE category_id = $1`, cat).Scan(&at); err != nil {
			t.Fatal(err)
		}
		return at
	}
	if got := expiry(); !got.Equal(start.Add(time.Hour)) {
		t.Fatalf("the token expires at %v, want an hour after the connection by the service clock (%v)", got, start.Add(time.Hour))
	}
	// Past the expiry, and past the hourly sweep, which uses the token.
	now.Advance(time.Hour + time.Minute)
	want := now.Now().Add(time.Hour)
	deadline := time.Now().Add(30 * time.Second)
	for got := expiry(); !got.Equal(want); got = expiry() {
		if time.Now().After(deadline) {
			t.Fatalf("the token expires at %v, want %v: not refreshed by the service clock", got, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if phase := h.waitSynced(ctx, cat).GetSync().GetPhase(); phase != "DONE" {
		t.Fatalf("the sweep after the refresh ended in %s", phase)
	}
}
