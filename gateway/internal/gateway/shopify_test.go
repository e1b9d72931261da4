package gateway

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
)

// fakeStores answers the routes Shopify and the browser reach directly, and
// records what the gateway passed on.
type fakeStores struct {
	storesv1.UnimplementedStoresServiceServer
	mu       sync.Mutex
	callback *storesv1.CompleteShopifyConnectRequest
	webhook  *storesv1.HandleShopifyWebhookRequest
	imported int
	wooKeys  *storesv1.ReceiveWooCommerceKeysRequest
	ga4      *storesv1.CompleteGA4ConnectRequest
}

func (f *fakeStores) AuthorizeShopify(_ context.Context, r *storesv1.AuthorizeShopifyRequest) (*storesv1.AuthorizeShopifyResponse, error) {
	if r.GetState() != "live" {
		return nil, status.Error(codes.NotFound, "This connection link has expired or was already used.")
	}
	return &storesv1.AuthorizeShopifyResponse{AuthorizeUrl: "https://shop.example/admin/oauth/authorize?state=live"}, nil
}

func (f *fakeStores) CompleteShopifyConnect(_ context.Context, r *storesv1.CompleteShopifyConnectRequest) (*storesv1.CompleteShopifyConnectResponse, error) {
	f.mu.Lock()
	f.callback = r
	f.mu.Unlock()
	if strings.Contains(r.GetRawQuery(), "code=boom") {
		return nil, status.Error(codes.Internal, "internal error")
	}
	return &storesv1.CompleteShopifyConnectResponse{RedirectUrl: "http://web.test/connections?shopify=connected"}, nil
}

func (f *fakeStores) HandleShopifyWebhook(_ context.Context, r *storesv1.HandleShopifyWebhookRequest) (*storesv1.HandleShopifyWebhookResponse, error) {
	if r.GetHmac() != "good" {
		return nil, status.Error(codes.Unauthenticated, "The webhook signature does not verify.")
	}
	f.mu.Lock()
	f.webhook = r
	f.mu.Unlock()
	return &storesv1.HandleShopifyWebhookResponse{}, nil
}

func (f *fakeStores) ImportOrders(_ context.Context, r *storesv1.ImportOrdersRequest) (*storesv1.ImportOrdersResponse, error) {
	f.mu.Lock()
	f.imported = len(r.GetCsv())
	f.mu.Unlock()
	return &storesv1.ImportOrdersResponse{Orders: 1}, nil
}

func (f *fakeStores) GetMetrics(_ context.Context, r *storesv1.GetMetricsRequest) (*storesv1.GetMetricsResponse, error) {
	day := &storesv1.DayMetrics{Date: r.GetFrom(), Orders: 3, GrossSales: "16940.00", NetSales: "16940.00",
		TotalSales: "16940.00", AverageOrderValue: wrapperspb.String("5646.67")}
	return &storesv1.GetMetricsResponse{Currency: "PKR", Source: "import", Days: []*storesv1.DayMetrics{day}, Totals: day}, nil
}

// noFollow returns redirects instead of following them, as the test reads them.
var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func get(t *testing.T, u string, cookies ...*http.Cookie) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	resp, err := noFollow.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestShopifyAuthorizeBindsTheStateToTheBrowser(t *testing.T) {
	t.Parallel()
	e := setup(t)
	resp := get(t, e.url+"/connections/shopify/authorize?state=live")
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(resp.Header.Get("Location"), "https://shop.example/admin/oauth/authorize") {
		t.Fatalf("authorize: %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == shopifyStateCookie {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != "live" || !cookie.HttpOnly || cookie.Path != shopifyCookiePath || cookie.SameSite != http.SameSiteLaxMode {
		t.Fatalf("state cookie = %+v", cookie)
	}

	// An expired or used link sends the person back to Connections with the reason.
	resp = get(t, e.url+"/connections/shopify/authorize?state=used")
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Host != "web.test" || loc.Path != "/connections" ||
		loc.Query().Get("shopify") != "error" || !strings.Contains(loc.Query().Get("message"), "expired") {
		t.Fatalf("expired state: %d → %v", resp.StatusCode, loc)
	}
}

func TestShopifyCallbackPassesTheQueryAndTheBrowserState(t *testing.T) {
	t.Parallel()
	e := setup(t)
	raw := "code=abc&hmac=h1&shop=demo.myshopify.com&state=live&timestamp=1"
	resp := get(t, e.url+"/connections/shopify/callback?"+raw, &http.Cookie{Name: shopifyStateCookie, Value: "live"})
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "http://web.test/connections?shopify=connected" {
		t.Fatalf("callback: %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	e.stores.mu.Lock()
	got := e.stores.callback
	e.stores.mu.Unlock()
	if got.GetRawQuery() != raw || got.GetBrowserState() != "live" {
		t.Fatalf("stores got %v", got)
	}
	cleared := false
	for _, c := range resp.Cookies() {
		cleared = cleared || (c.Name == shopifyStateCookie && c.MaxAge < 0)
	}
	if !cleared {
		t.Error("the state cookie is not cleared after the callback")
	}

	// Without the cookie the service is told so (and refuses); a failure of
	// ours still lands the person on Connections, never on a JSON error.
	resp = get(t, e.url+"/connections/shopify/callback?code=boom&state=live")
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Path != "/connections" || loc.Query().Get("message") != unavailableMessage {
		t.Fatalf("failed callback: %d → %v", resp.StatusCode, loc)
	}
	e.stores.mu.Lock()
	defer e.stores.mu.Unlock()
	if e.stores.callback.GetBrowserState() != "" {
		t.Fatalf("browser state without a cookie = %q", e.stores.callback.GetBrowserState())
	}
}

func TestShopifyWebhookPassesRawBodyAndHeaders(t *testing.T) {
	t.Parallel()
	e := setup(t)
	body := `{"id": 820982911946154508,  "total_price":"10.00"}`
	h := map[string]string{"X-Shopify-Hmac-Sha256": "good", "X-Shopify-Topic": "orders/create",
		"X-Shopify-Shop-Domain": "demo.myshopify.com", "X-Shopify-Webhook-Id": "w1", "X-Shopify-Event-Id": "e1",
		"X-Shopify-API-Version": "2026-10", "X-Shopify-Triggered-At": "2026-11-25T10:00:00Z"}
	if code, _, b := do(t, "POST", e.url+"/webhooks/shopify", body, h); code != 200 || b["received"] != true {
		t.Fatalf("webhook: %d %v", code, b)
	}
	e.stores.mu.Lock()
	w := e.stores.webhook
	e.stores.mu.Unlock()
	if string(w.GetPayload()) != body || w.GetTopic() != "orders/create" || w.GetShopDomain() != "demo.myshopify.com" ||
		w.GetWebhookId() != "w1" || w.GetEventId() != "e1" || w.GetApiVersion() != "2026-10" || w.GetTriggeredAt() == "" {
		t.Fatalf("stores got %v", w)
	}
	h["X-Shopify-Hmac-Sha256"] = "forged"
	if code, _, _ := do(t, "POST", e.url+"/webhooks/shopify", body, h); code != http.StatusUnauthorized {
		t.Fatalf("forged webhook: %d, want 401", code)
	}
	if code, _, _ := do(t, "POST", e.url+"/webhooks/shopify", strings.Repeat("x", 1<<20+1), h); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized webhook: %d, want 413", code)
	}
}

// A header holding bytes that are not UTF-8 (0xff) cannot travel in the
// gRPC request's string fields: it is the client's mistake, a 400 naming the
// header, not a 500. The Stripe route passes a header on the same way.
func TestWebhookHeaderThatIsNotTextIsA400(t *testing.T) {
	t.Parallel()
	e := setup(t)
	h := map[string]string{"X-Shopify-Hmac-Sha256": "good", "X-Shopify-Topic": "orders/create",
		"X-Shopify-Shop-Domain": "demo.myshopify.com", "X-Shopify-Webhook-Id": "w1"}
	for _, name := range []string{"X-Shopify-Topic", "X-Shopify-Shop-Domain", "X-Shopify-Hmac-Sha256", "X-Shopify-Webhook-Id",
		"X-Shopify-Event-Id", "X-Shopify-API-Version", "X-Shopify-Triggered-At"} {
		bad := maps.Clone(h)
		bad[name] = "orders\xff/create"
		code, _, b := do(t, "POST", e.url+"/webhooks/shopify", `{"id":1}`, bad)
		if msg, _ := b["message"].(string); code != http.StatusBadRequest || !strings.Contains(msg, name) {
			t.Errorf("0xff in %s: %d %v, want 400 naming the header", name, code, b)
		}
	}
	code, _, b := do(t, "POST", e.url+"/webhooks/stripe", `{"id":"evt_1"}`, map[string]string{"Stripe-Signature": "t=1,v1=\xff"})
	if msg, _ := b["message"].(string); code != http.StatusBadRequest || !strings.Contains(msg, "Stripe-Signature") {
		t.Errorf("0xff in Stripe-Signature: %d %v, want 400 naming the header", code, b)
	}
}

func TestOnlyTheOrderImportTakesLargeBodies(t *testing.T) {
	t.Parallel()
	e := setup(t) // MaxBodyBytes is 1024
	csv := strings.Repeat("a", 4096)
	body := `{"format":"shopify-orders-csv","csv":"` + csv + `"}`
	if code, _, b := do(t, "POST", e.url+"/internal/categories/c1/business-data/orders/import", body, nil); code != 200 {
		t.Fatalf("import of 4 KB: %d %v", code, b)
	}
	e.stores.mu.Lock()
	n := e.stores.imported
	e.stores.mu.Unlock()
	if n != len(csv) {
		t.Fatalf("stores got %d bytes of CSV, want %d", n, len(csv))
	}
	if code, _, _ := do(t, "POST", e.url+"/internal/users", `{"email":"`+csv+`"}`, nil); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("4 KB sign-up: %d, want 413", code)
	}
}

// The contract for metrics: counts are JSON integers, money decimal
// strings, and a number that is not available is null, never missing.
func TestMetricsJSONShape(t *testing.T) {
	t.Parallel()
	e := setup(t)
	code, _, b := do(t, "GET", e.url+"/internal/categories/c1/business-data/metrics?from=2025-12-06&to=2025-12-06", "", nil)
	if code != 200 {
		t.Fatalf("metrics: %d %v", code, b)
	}
	day := b["days"].([]any)[0].(map[string]any)
	if day["orders"] != float64(3) || day["grossSales"] != "16940.00" || day["averageOrderValue"] != "5646.67" {
		t.Fatalf("day = %v", day)
	}
	for _, k := range []string{"sessions", "conversionRate"} {
		v, present := day[k]
		if !present || v != nil {
			t.Errorf("%s = %v (present %v), want null", k, v, present)
		}
	}
}
