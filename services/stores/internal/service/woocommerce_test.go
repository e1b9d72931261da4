package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
	"uplift.dev/shopifysim/sim"
	woosim "uplift.dev/woosim/sim"
)

// wooKeyCallback is the gateway's key callback route, as small as the
// test needs: the body's fields to ReceiveWooCommerceKeys, 200 only when
// it succeeds (WooCommerce deletes the key on anything else).
func wooKeyCallback(c storesv1.StoresServiceClient, w http.ResponseWriter, r *http.Request) {
	var cb struct {
		KeyID          int64  `json:"key_id"`
		UserID         string `json:"user_id"`
		ConsumerKey    string `json:"consumer_key"`
		ConsumerSecret string `json:"consumer_secret"`
		KeyPermissions string `json:"key_permissions"`
	}
	if err := json.NewDecoder(r.Body).Decode(&cb); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	_, err := c.ReceiveWooCommerceKeys(r.Context(), &storesv1.ReceiveWooCommerceKeysRequest{State: cb.UserID,
		KeyId: cb.KeyID, ConsumerKey: cb.ConsumerKey, ConsumerSecret: cb.ConsumerSecret, KeyPermissions: cb.KeyPermissions})
	switch status.Code(err) {
	case codes.OK:
		w.WriteHeader(http.StatusOK)
	case codes.NotFound:
		w.WriteHeader(http.StatusNotFound)
	case codes.InvalidArgument, codes.FailedPrecondition:
		w.WriteHeader(http.StatusBadRequest)
	default:
		w.WriteHeader(http.StatusInternalServerError)
	}
}

// wooWebhook is the gateway's webhook route, as small as the test needs.
func wooWebhook(c storesv1.StoresServiceClient, w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	hd := r.Header
	_, err := c.HandleWooCommerceWebhook(r.Context(), &storesv1.HandleWooCommerceWebhookRequest{
		CategoryId: strings.TrimPrefix(r.URL.Path, "/webhooks/woocommerce/"), Payload: body,
		Signature: hd.Get("X-WC-Webhook-Signature"), Topic: hd.Get("X-WC-Webhook-Topic"),
		DeliveryId: hd.Get("X-WC-Webhook-Delivery-ID"), WebhookId: hd.Get("X-WC-Webhook-ID")})
	switch status.Code(err) {
	case codes.OK:
		w.WriteHeader(http.StatusOK)
	case codes.Unauthenticated:
		w.WriteHeader(http.StatusUnauthorized)
	case codes.InvalidArgument, codes.NotFound:
		w.WriteHeader(http.StatusBadRequest)
	default:
		w.WriteHeader(http.StatusInternalServerError)
	}
}

// newWooSim runs the WooCommerce simulator in-process with one store, as
// the local stack runs it (an http callback allowed, approval at once).
func newWooSim(t *testing.T, spec woosim.StoreSpec) (*woosim.Server, string) {
	t.Helper()
	s := woosim.New(woosim.Options{AutoApprove: true, AllowHTTPCallback: true})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	s.SetBaseURL(srv.URL)
	if err := s.CreateStore(spec); err != nil {
		t.Fatal(err)
	}
	return s, s.StoreURL(spec.Slug)
}

var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// approve follows the authorization page (auto-approved), during which the
// store posts the keys to the callback, and returns where WooCommerce
// sends the browser.
func approve(t *testing.T, authorizeURL string) *url.URL {
	t.Helper()
	res, err := noFollow.Get(authorizeURL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("authorize: %d %s", res.StatusCode, body)
	}
	u, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestConnectWooCommerce walks the wc-auth flow against the simulator:
// the authorization page gets Uplift's callback and a one-use state, the
// keys posted to the callback are checked against the store and kept
// sealed, the browser comes back to Connections, and the connection shows
// the store's name, currency and time zone.
func TestConnectWooCommerce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	wsim, store := newWooSim(t, woosim.StoreSpec{Slug: "teas", Name: "Hill Teas", Currency: "GBP", Timezone: "Europe/London"})
	ctx, cat := h.owner()
	seedWooDays(t, wsim)

	start, err := h.client.StartWooCommerceConnect(ctx, &storesv1.StartWooCommerceConnectRequest{CategoryId: cat, StoreUrl: store + "/"})
	if err != nil {
		t.Fatal(err)
	}
	au, err := url.Parse(start.GetRedirectUrl())
	if err != nil || !strings.HasPrefix(start.GetRedirectUrl(), store+"/wc-auth/v1/authorize?") {
		t.Fatalf("redirect %q", start.GetRedirectUrl())
	}
	q := au.Query()
	state := q.Get("user_id")
	if q.Get("scope") != "read_write" || q.Get("app_name") != "Uplift" || len(state) != 32 ||
		q.Get("callback_url") != h.gwURL+"/connections/woocommerce/callback" ||
		q.Get("return_url") != h.gwURL+"/connections/woocommerce/return" {
		t.Fatalf("authorize query %v", q)
	}

	back := approve(t, start.GetRedirectUrl())
	if back.Query().Get("success") != "1" || back.Query().Get("user_id") != state {
		t.Fatalf("return %v", back)
	}
	ret, err := h.client.ReturnWooCommerce(ctx, &storesv1.ReturnWooCommerceRequest{State: state, Success: "1"})
	if err != nil || ret.GetRedirectUrl() != "http://web.test/connections?woocommerce=connected" {
		t.Fatalf("return = %v, %v", ret, err)
	}
	conns, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
	if err != nil {
		t.Fatal(err)
	}
	w := conns.GetWoocommerce()
	if w.GetStatus() != "CONNECTED" || w.GetStoreUrl() != store || w.GetName() != "Hill Teas" || w.GetCurrency() != "GBP" ||
		w.GetTimezone() != "Europe/London" {
		t.Fatalf("connection %v", w)
	}
	if conns.GetShopify().GetStatus() != "NOT_CONNECTED" {
		t.Errorf("shopify %v", conns.GetShopify())
	}
	// The keys are sealed at rest: neither appears in the row.
	var ck, cs []byte
	if err := h.db.QueryRow(ctx, `SELECT consumer_key, consumer_secret FROM woocommerce_connections WHERE category_id = $1`, cat).Scan(&ck, &cs); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(ck), "ck_") || strings.Contains(string(cs), "cs_") || len(ck) < 40 || len(cs) < 40 {
		t.Errorf("keys stored in clear: %q %q", ck, cs)
	}
	// The store's numbers are counted in its own zone and currency.
	m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, LastDays: 7})
	if err != nil || m.GetCurrency() != "GBP" || m.GetTimezone() != "Europe/London" {
		t.Fatalf("metrics header %v, %v", m, err)
	}
	checkWooDaysSynced(t, h, ctx, cat)
	checkWooWebhooks(t, h, wsim, store, ctx, cat)

	// Sync now asks for a sync; Disconnect forgets the keys and says so.
	if _, err := h.client.SyncWooCommerce(ctx, &storesv1.SyncWooCommerceRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.DisconnectWooCommerce(ctx, &storesv1.DisconnectWooCommerceRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	if err := h.db.QueryRow(ctx, `SELECT consumer_key, consumer_secret FROM woocommerce_connections WHERE category_id = $1`, cat).Scan(&ck, &cs); err != nil || ck != nil || cs != nil {
		t.Errorf("keys kept after disconnect: %v %v %v", ck, cs, err)
	}
	conns, _ = h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
	if conns.GetWoocommerce().GetStatus() != "NOT_CONNECTED" {
		t.Errorf("after disconnect %v", conns.GetWoocommerce())
	}
	_, err = h.client.SyncWooCommerce(ctx, &storesv1.SyncWooCommerceRequest{CategoryId: cat})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(status.Convert(err).Message(), "WooCommerce") {
		t.Errorf("sync after disconnect: %v", err)
	}
}

// TestWooCommerceConnectRefusals: a bad address is a 400 naming the field;
// an http address outside local mode is refused (see the domain test);
// another account cannot start one for this business.
func TestWooCommerceConnectRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	for _, bad := range []string{"", "ftp://shop.example", "https://shop.example/?a=1", "https://user:pw@shop.example"} {
		_, err := h.client.StartWooCommerceConnect(ctx, &storesv1.StartWooCommerceConnectRequest{CategoryId: cat, StoreUrl: bad})
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "store's address") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	other, _ := h.owner()
	_, err := h.client.StartWooCommerceConnect(other, &storesv1.StartWooCommerceConnectRequest{CategoryId: cat, StoreUrl: "https://shop.example"})
	if status.Code(err) != codes.PermissionDenied {
		t.Errorf("another account: %v", err)
	}
}

// TestWooCommerceCallbackTampering: the key callback is unauthenticated
// (research §1), so each way of forging or replaying it is refused and
// stores nothing: an unknown state, a replayed one, keys of a weaker
// permission, keys the store does not know (posted by someone who only
// learnt the state), and the browser's return claiming success for keys
// that never came.
func TestWooCommerceCallbackTampering(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	wsim, store := newWooSim(t, woosim.StoreSpec{Slug: "teas", Name: "Hill Teas", Currency: "USD", Timezone: "UTC+5:30"})
	ctx, cat := h.owner()
	startState := func() string {
		t.Helper()
		start, err := h.client.StartWooCommerceConnect(ctx, &storesv1.StartWooCommerceConnectRequest{CategoryId: cat, StoreUrl: store})
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(start.GetRedirectUrl())
		return u.Query().Get("user_id")
	}
	real, err := wsim.IssueKey("teas", "Uplift", "x", "read_write")
	if err != nil {
		t.Fatal(err)
	}
	send := func(state, ck, cs, perms string) codes.Code {
		_, err := h.client.ReceiveWooCommerceKeys(ctx, &storesv1.ReceiveWooCommerceKeysRequest{State: state, KeyId: 9,
			ConsumerKey: ck, ConsumerSecret: cs, KeyPermissions: perms})
		return status.Code(err)
	}
	connected := func() bool {
		c, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
		return err == nil && c.GetWoocommerce().GetStatus() == "CONNECTED"
	}

	if c := send(strings.Repeat("a", 32), real.ConsumerKey, real.ConsumerSecret, "read_write"); c != codes.NotFound {
		t.Errorf("unknown state: %v", c)
	}
	st := startState()
	if c := send(st, real.ConsumerKey, real.ConsumerSecret, "read"); c != codes.InvalidArgument {
		t.Errorf("read-only keys: %v", c)
	}
	// The state is one use: refused keys burned it.
	if c := send(st, real.ConsumerKey, real.ConsumerSecret, "read_write"); c != codes.NotFound {
		t.Errorf("replayed state: %v", c)
	}
	st = startState()
	fake := "ck_" + strings.Repeat("0", 40)
	if c := send(st, fake, "cs_"+strings.Repeat("1", 40), "read_write"); c != codes.FailedPrecondition {
		t.Errorf("keys the store does not know: %v", c)
	}
	ret, err := h.client.ReturnWooCommerce(ctx, &storesv1.ReturnWooCommerceRequest{State: st, Success: "1"})
	if err != nil || !strings.Contains(ret.GetRedirectUrl(), "woocommerce=error") {
		t.Errorf("return after refused keys: %v, %v", ret, err)
	}
	ret, err = h.client.ReturnWooCommerce(ctx, &storesv1.ReturnWooCommerceRequest{State: startState(), Success: "0"})
	if err != nil || !strings.Contains(ret.GetRedirectUrl(), "declined") {
		t.Errorf("denied: %v, %v", ret, err)
	}
	if connected() {
		t.Fatal("a refused callback connected the store")
	}
	// The genuine keys with a fresh state connect, in the store's manual
	// offset zone (timezone_string empty, gmt_offset 5.5).
	st = startState()
	if c := send(st, real.ConsumerKey, real.ConsumerSecret, "read_write"); c != codes.OK {
		t.Fatalf("genuine keys: %v", c)
	}
	if c := send(st, real.ConsumerKey, real.ConsumerSecret, "read_write"); c != codes.NotFound {
		t.Errorf("the same callback twice: %v", c)
	}
	c, _ := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
	if !connected() || c.GetWoocommerce().GetTimezone() != "+05:30" {
		t.Errorf("connection %v", c.GetWoocommerce())
	}
}

// seedWooDays gives the store two days worked out by hand (no tax):
//   - 2 Nov 2026, 10:00 GMT: 2 × £12.00 Earl Grey, a £2.40 coupon, £5.95
//     shipping, paid: gross 24.00, coupons 2.40, net 21.60, total 27.55;
//   - 2 Nov, 11:00: a failed order of £30, which WooCommerce leaves out;
//   - 3 Nov, 12:00: one Earl Grey of the first order refunded (£10.80
//     after its coupon): returns 10.80, net −10.80, on the 3rd.
func seedWooDays(t *testing.T, s *woosim.Server) {
	t.Helper()
	if _, err := s.SaveProduct("teas", woosim.ProductSpec{ID: 11, Name: "Earl Grey", Price: 1200}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	id, err := s.AddOrder("teas", woosim.OrderSpec{Status: "completed", CreatedAt: at, PaidAt: at, CompletedAt: at.Add(time.Hour),
		Lines: []woosim.LineSpec{{ProductID: 11, Quantity: 2, Discount: 240}}, Coupon: "WELCOME10", Shipping: 595})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddOrder("teas", woosim.OrderSpec{Status: "failed", CreatedAt: at.Add(time.Hour),
		Lines: []woosim.LineSpec{{ProductID: 11, Quantity: 1, Price: 3000}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Refund("teas", id, woosim.RefundSpec{At: time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC),
		Lines: []woosim.RefundLine{{LineIndex: 0, Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := s.AddCustomer("teas", at); err != nil {
			t.Fatal(err)
		}
	}
}

// checkWooDaysSynced waits for the first sync and reads the two days back
// through GetMetrics, as Analytics does, with WooCommerce's average order
// value (net sales ÷ orders) and the daily report's WooCommerce words.
func checkWooDaysSynced(t *testing.T, h *harness, ctx context.Context, cat string) {
	t.Helper()
	eventually(t, func() bool {
		c, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
		return err == nil && c.GetWoocommerce().GetSync().GetPhase() == "DONE"
	}, "the first WooCommerce sync")
	c, _ := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
	if s := c.GetWoocommerce().GetSync(); s.GetOrders() != 2 || s.GetProducts() != 1 || s.GetPercent() != 100 || s.GetLastSyncedAt() == nil {
		t.Errorf("sync progress %v", s)
	}
	// What is stored of the store, as the card's counts line says it: the
	// orders Analytics counts (the failed one is not), the store's products
	// and registered customers.
	if st := c.GetWoocommerce().GetStored(); st.GetOrders() != 1 || st.GetProducts() != 1 || st.GetCustomers() != 2 {
		t.Errorf("stored counts %v", st)
	}
	m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2026-11-02", To: "2026-11-03"})
	if err != nil {
		t.Fatal(err)
	}
	if m.GetSource() != "woocommerce" || m.GetCurrency() != "GBP" {
		t.Errorf("source %q currency %q", m.GetSource(), m.GetCurrency())
	}
	d2, d3 := m.GetDays()[0], m.GetDays()[1]
	if d2.GetOrders() != 1 || d2.GetGrossSales() != "24.00" || d2.GetDiscounts() != "2.40" || d2.GetNetSales() != "21.60" ||
		d2.GetShipping() != "5.95" || d2.GetTotalSales() != "27.55" || d2.GetAverageOrderValue().GetValue() != "21.60" {
		t.Errorf("2 Nov %v", d2)
	}
	if d3.GetOrders() != 0 || d3.GetReturns() != "10.80" || d3.GetNetSales() != "-10.80" || d3.GetTotalSales() != "-10.80" {
		t.Errorf("3 Nov %v", d3)
	}
	// Over both days WooCommerce's AOV is (21.60 − 10.80) ÷ 1; Shopify's
	// rule would say 21.60.
	if tot := m.GetTotals(); tot.GetAverageOrderValue().GetValue() != "10.80" {
		t.Errorf("range AOV %v", tot.GetAverageOrderValue())
	}
	r, err := h.client.GetDailyReport(ctx, &storesv1.GetDailyReportRequest{CategoryId: cat, Date: "2026-11-03"})
	if err != nil {
		t.Fatal(err)
	}
	for _, rm := range r.GetReport().GetMetrics() {
		if rm.GetKey() == "averageOrderValue" && !strings.Contains(rm.GetFormula(), "WooCommerce's rule") {
			t.Errorf("report formula %q", rm.GetFormula())
		}
	}
}

// checkWooWebhooks: the first sync registered Uplift's webhooks, signed
// with a secret of its own; a new order reaches Analytics through
// order.created (read again from the API, not believed from the body); a
// forged delivery is 401 and changes nothing; a hook WooCommerce disabled is
// active again after the next sync.
func checkWooWebhooks(t *testing.T, h *harness, wsim *woosim.Server, store string, ctx context.Context, cat string) {
	t.Helper()
	hooks := wsim.Webhooks("teas")
	topics := map[string]bool{}
	for _, w := range hooks {
		if w.Status == "active" {
			topics[w.Topic] = true
		}
	}
	for _, want := range []string{"order.created", "order.updated", "order.deleted", "product.updated"} {
		if !topics[want] {
			t.Fatalf("webhook %s not registered: %+v", want, hooks)
		}
	}
	at := time.Date(2026, 11, 4, 9, 0, 0, 0, time.UTC)
	if _, err := wsim.AddOrder("teas", woosim.OrderSpec{Status: "processing", CreatedAt: at, PaidAt: at,
		Lines: []woosim.LineSpec{{ProductID: 11, Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	day := func() *storesv1.DayMetrics {
		m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2026-11-04", To: "2026-11-04"})
		if err != nil {
			t.Fatal(err)
		}
		return m.GetDays()[0]
	}
	eventually(t, func() bool { return day().GetOrders() == 1 }, "the order.created webhook")
	if d := day(); d.GetNetSales() != "12.00" {
		t.Errorf("4 Nov after the webhook %v", d)
	}

	// A forged delivery: signed with another secret.
	body := []byte(`{"id":999}`)
	req, _ := http.NewRequest(http.MethodPost, h.gwURL+"/webhooks/woocommerce/"+cat, strings.NewReader(string(body)))
	req.Header.Set("X-WC-Webhook-Topic", "order.created")
	req.Header.Set("X-WC-Webhook-Delivery-ID", "forged-1")
	req.Header.Set("X-WC-Webhook-Signature", woosim.Sign("not-the-secret", body))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("forged delivery: %d", res.StatusCode)
	}
	// The ping WooCommerce sends on creation has no signature and is fine.
	res, err = http.Post(h.gwURL+"/webhooks/woocommerce/"+cat, "application/x-www-form-urlencoded", strings.NewReader("webhook_id=3"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("ping: %d", res.StatusCode)
	}

	// WooCommerce disables a hook after failed deliveries (research §3); the
	// merchant's own key pauses one here the way the admin screen would.
	admin, err := wsim.IssueKey("teas", "admin", "1", "read_write")
	if err != nil {
		t.Fatal(err)
	}
	id := hooks[0].ID
	put, _ := http.NewRequest(http.MethodPut, store+"/wp-json/wc/v3/webhooks/"+strconv.FormatInt(id, 10), strings.NewReader(`{"status":"disabled"}`))
	put.Header.Set("Content-Type", "application/json")
	put.SetBasicAuth(admin.ConsumerKey, admin.ConsumerSecret)
	res, err = http.DefaultClient.Do(put)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	statusOf := func() string {
		for _, w := range wsim.Webhooks("teas") {
			if w.ID == id {
				return w.Status
			}
		}
		return ""
	}
	if res.StatusCode != http.StatusOK || statusOf() != "disabled" {
		t.Fatalf("disabling the hook: %d, %s", res.StatusCode, statusOf())
	}
	if _, err := h.client.SyncWooCommerce(ctx, &storesv1.SyncWooCommerceRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool { return statusOf() == "active" }, "the disabled webhook re-activated by the sync")
}

// TestTheDemoStoreSyncs: the demo store's 120 days (about 1,700 orders,
// refunds, failed, cancelled, pending and on-hold ones) sync whole, and the
// numbers leave out exactly the orders WooCommerce Analytics leaves out.
func TestTheDemoStoreSyncs(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	s := woosim.New(woosim.Options{AutoApprove: true, AllowHTTPCallback: true})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	s.SetBaseURL(srv.URL)
	now := time.Now()
	if err := woosim.SeedDemo(s, now); err != nil {
		t.Fatal(err)
	}
	ctx, cat := h.owner()
	start, err := h.client.StartWooCommerceConnect(ctx, &storesv1.StartWooCommerceConnectRequest{CategoryId: cat, StoreUrl: s.StoreURL(woosim.DemoStore)})
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	approve(t, start.GetRedirectUrl())
	var sync *storesv1.SyncProgress
	eventually(t, func() bool {
		c, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
		sync = c.GetWoocommerce().GetSync()
		return err == nil && sync.GetPhase() == "DONE"
	}, "the demo store's first sync")
	took := time.Since(began)

	// What WooCommerce counts, read from the store's own API with a key.
	admin, err := s.IssueKey(woosim.DemoStore, "admin", "1", "read")
	if err != nil {
		t.Fatal(err)
	}
	counted, paid := 0, 0
	for page := 1; ; page++ {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/wp-json/wc/v3/orders?per_page=100&page=%d", s.StoreURL(woosim.DemoStore), page), nil)
		req.SetBasicAuth(admin.ConsumerKey, admin.ConsumerSecret)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var orders []struct {
			Status   string  `json:"status"`
			DatePaid *string `json:"date_paid_gmt"`
		}
		err = json.NewDecoder(res.Body).Decode(&orders)
		res.Body.Close()
		if err != nil || len(orders) == 0 {
			break
		}
		for _, o := range orders {
			if o.Status != "pending" && o.Status != "failed" && o.Status != "cancelled" {
				counted++
				if o.DatePaid != nil {
					paid++
				}
			}
		}
	}
	m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, LastDays: 130})
	if err != nil {
		t.Fatal(err)
	}
	if int(sync.GetOrders()) < 1000 || int(m.GetTotals().GetOrders()) != paid || m.GetSource() != "woocommerce" || m.GetCurrency() != "USD" ||
		m.GetTimezone() != "America/New_York" || m.GetTotals().GetReturns() == "0.00" {
		t.Fatalf("synced %d orders; Analytics counts %d, WooCommerce %d paid of %d counted; %s %s %s returns %s",
			sync.GetOrders(), m.GetTotals().GetOrders(), paid, counted, m.GetSource(), m.GetCurrency(), m.GetTimezone(), m.GetTotals().GetReturns())
	}
	t.Logf("the demo store (%d orders) synced in %v; %d counted on their paid day", sync.GetOrders(), took.Round(time.Millisecond), paid)
}

// setWooHooks sets every webhook of the store to status with the
// merchant's own key, as the store's admin screen would.
func setWooHooks(t *testing.T, wsim *woosim.Server, store, status string) {
	t.Helper()
	admin, err := wsim.IssueKey("teas", "admin", "1", "read_write")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wsim.Webhooks("teas") {
		put, _ := http.NewRequest(http.MethodPut, store+"/wp-json/wc/v3/webhooks/"+strconv.FormatInt(w.ID, 10),
			strings.NewReader(`{"status":"`+status+`"}`))
		put.Header.Set("Content-Type", "application/json")
		put.SetBasicAuth(admin.ConsumerKey, admin.ConsumerSecret)
		res, err := http.DefaultClient.Do(put)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("webhook %d to %s: %d", w.ID, status, res.StatusCode)
		}
	}
}

// TestATrashedOrderLeavesOnTheNextSync: an order moved to the trash is left
// out of every list the sync reads by default (research §2: "any" excludes
// trash), so the sync asks for the trash too and removes what it finds
// there. The webhooks are paused, as a store whose deliveries failed has
// them (§3), so only the sync can tell.
func TestATrashedOrderLeavesOnTheNextSync(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	wsim, store := newWooSim(t, woosim.StoreSpec{Slug: "teas", Name: "Hill Teas", Currency: "GBP", Timezone: "Europe/London"})
	ctx, cat := h.owner()
	seedWooDays(t, wsim)
	start, err := h.client.StartWooCommerceConnect(ctx, &storesv1.StartWooCommerceConnectRequest{CategoryId: cat, StoreUrl: store})
	if err != nil {
		t.Fatal(err)
	}
	approve(t, start.GetRedirectUrl())
	conn := func() *storesv1.WooCommerceConnection {
		c, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
		if err != nil {
			t.Fatal(err)
		}
		return c.GetWoocommerce()
	}
	eventually(t, func() bool { return conn().GetSync().GetPhase() == "DONE" }, "the first WooCommerce sync")
	first := conn().GetSync().GetLastSyncedAt().AsTime()
	day := func() *storesv1.DayMetrics {
		m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2026-11-02", To: "2026-11-02"})
		if err != nil {
			t.Fatal(err)
		}
		return m.GetDays()[0]
	}
	if d := day(); d.GetOrders() != 1 || conn().GetStored().GetOrders() != 1 {
		t.Fatalf("before the trash: %v, stored %v", d, conn().GetStored())
	}

	setWooHooks(t, wsim, store, "paused")
	var id int64
	for _, o := range wooOrders(t, wsim, store) {
		if o.Status == "completed" {
			id = o.ID
		}
	}
	if err := wsim.DeleteOrder("teas", id, false); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.SyncWooCommerce(ctx, &storesv1.SyncWooCommerceRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		s := conn().GetSync()
		return s.GetPhase() == "DONE" && s.GetLastSyncedAt().AsTime().After(first)
	}, "the second sync")
	if d := day(); d.GetOrders() != 0 || d.GetNetSales() != "0.00" || conn().GetStored().GetOrders() != 0 {
		t.Errorf("after the trash and a sync: %v, stored %v", d, conn().GetStored())
	}
}

// wooOrders lists the store's orders (trash aside) with the merchant's key.
func wooOrders(t *testing.T, wsim *woosim.Server, store string) []struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
} {
	t.Helper()
	admin, err := wsim.IssueKey("teas", "admin", "1", "read")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, store+"/wp-json/wc/v3/orders?per_page=100", nil)
	req.SetBasicAuth(admin.ConsumerKey, admin.ConsumerSecret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out []struct {
		ID     int64  `json:"id"`
		Status string `json:"status"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}
