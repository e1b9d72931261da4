package gateway

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
)

func (f *fakeStores) ReceiveWooCommerceKeys(_ context.Context, r *storesv1.ReceiveWooCommerceKeysRequest) (*storesv1.ReceiveWooCommerceKeysResponse, error) {
	f.mu.Lock()
	f.wooKeys = r
	f.mu.Unlock()
	if r.GetState() != "live" {
		return nil, status.Error(codes.NotFound, "This connection link has expired or was already used.")
	}
	return &storesv1.ReceiveWooCommerceKeysResponse{}, nil
}

func (f *fakeStores) ReturnWooCommerce(_ context.Context, r *storesv1.ReturnWooCommerceRequest) (*storesv1.ReturnWooCommerceResponse, error) {
	if r.GetState() == "boom" {
		return nil, status.Error(codes.Internal, "internal error")
	}
	return &storesv1.ReturnWooCommerceResponse{RedirectUrl: "http://web.test/connections?woocommerce=connected"}, nil
}

// WooCommerce keeps a key only when its callback gets exactly 200
// (research §1): the gateway passes the body's fields on and answers 200
// only when the service took them; an unknown state is 404, a body that is
// not the key JSON 400, both without reaching past the gateway's bound.
func TestWooCommerceKeyCallback(t *testing.T) {
	t.Parallel()
	e := setup(t)
	post := func(body string) int {
		t.Helper()
		resp, err := http.Post(e.url+"/connections/woocommerce/callback", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	good := `{"key_id":7,"user_id":"live","consumer_key":"ck_a","consumer_secret":"cs_b","key_permissions":"read_write"}`
	if c := post(good); c != http.StatusOK {
		t.Fatalf("genuine callback: %d", c)
	}
	e.stores.mu.Lock()
	got := e.stores.wooKeys
	e.stores.mu.Unlock()
	if got.GetState() != "live" || got.GetKeyId() != 7 || got.GetConsumerKey() != "ck_a" || got.GetConsumerSecret() != "cs_b" ||
		got.GetKeyPermissions() != "read_write" {
		t.Fatalf("stores got %v", got)
	}
	for body, want := range map[string]int{
		strings.Replace(good, `"live"`, `"gone"`, 1): http.StatusNotFound,
		`not json`:                          http.StatusBadRequest,
		strings.Replace(good, `7`, `-1`, 1): http.StatusBadRequest,
		`{"key_id":"x"}`:                    http.StatusBadRequest,
		`{"user_id":"live","junk":"` + strings.Repeat("x", 5000) + `"}`: http.StatusRequestEntityTooLarge,
	} {
		if c := post(body); c != want {
			t.Errorf("%.60s: %d, want %d", body, c, want)
		}
	}
}

func TestWooCommerceReturnLandsOnConnections(t *testing.T) {
	t.Parallel()
	e := setup(t)
	resp := get(t, e.url+"/connections/woocommerce/return?success=1&user_id=live")
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "http://web.test/connections?woocommerce=connected" {
		t.Fatalf("return: %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp = get(t, e.url+"/connections/woocommerce/return?success=1&user_id=boom")
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Path != "/connections" || loc.Query().Get("woocommerce") != "error" ||
		loc.Query().Get("message") != unavailableMessage {
		t.Fatalf("failed return: %d → %v", resp.StatusCode, loc)
	}
}

func (f *fakeStores) HandleWooCommerceWebhook(_ context.Context, r *storesv1.HandleWooCommerceWebhookRequest) (*storesv1.HandleWooCommerceWebhookResponse, error) {
	if r.GetSignature() != "good" || r.GetCategoryId() != "cat-1" || string(r.GetPayload()) != `{"id":7}` ||
		r.GetTopic() != "order.updated" || r.GetDeliveryId() != "d1" {
		return nil, status.Error(codes.Unauthenticated, "The webhook signature does not verify.")
	}
	return &storesv1.HandleWooCommerceWebhookResponse{}, nil
}

// A WooCommerce delivery reaches the service with its raw body, the
// category from the path and the X-WC-Webhook-* headers; a signature that
// does not verify is 401 (WooCommerce counts it as a failed delivery).
func TestWooCommerceWebhookRoute(t *testing.T) {
	t.Parallel()
	e := setup(t)
	post := func(sig string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, e.url+"/webhooks/woocommerce/cat-1", strings.NewReader(`{"id":7}`))
		req.Header.Set("X-WC-Webhook-Signature", sig)
		req.Header.Set("X-WC-Webhook-Topic", "order.updated")
		req.Header.Set("X-WC-Webhook-Delivery-ID", "d1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := post("good"); c != http.StatusOK {
		t.Fatalf("signed delivery: %d", c)
	}
	if c := post("forged"); c != http.StatusUnauthorized {
		t.Fatalf("forged delivery: %d", c)
	}
}
