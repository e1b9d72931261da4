package sim

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

type received struct {
	header http.Header
	body   []byte
}

// receiver fails the first failFirst requests with 500, then answers 200;
// like a real app it answers 401 to a bad signature.
func receiver(t *testing.T, failFirst int) (*httptest.Server, func() []received) {
	var mu sync.Mutex
	var got []received
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		calls++
		got = append(got, received{r.Header.Clone(), body})
		switch {
		case r.Header.Get("X-Shopify-Hmac-Sha256") != Sign(testSecret, body):
			w.WriteHeader(http.StatusUnauthorized)
		case calls <= failFirst:
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []received { mu.Lock(); defer mu.Unlock(); return append([]received(nil), got...) }
}

func (e *env) subscribe(tok, topic, uri string) {
	e.t.Helper()
	d := e.gql(testShop, tok, `mutation($t: WebhookSubscriptionTopic!, $u: String!) { webhookSubscriptionCreate(topic: $t, webhookSubscription: {uri: $u}) { userErrors { message } } }`,
		map[string]any{"t": topic, "u": uri})
	if dig(d, "webhookSubscriptionCreate", "userErrors", 0) != nil {
		e.t.Fatalf("subscribe: %v", d)
	}
}

func TestWebhookSignedAndRetriedUntil2xx(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	tok := e.install(testShop, "read_orders")
	rcv, got := receiver(t, 2)
	e.subscribe(tok, "ORDERS_CREATE", rcv.URL+"/orders")
	id, err := e.s.AddOrder(testShop, simpleOrder(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "delivery", func() bool { d := e.s.Deliveries(testShop); return len(d) == 1 && d[0].Delivered })
	d := e.s.Deliveries(testShop)[0]
	if d.Attempts != 3 || d.Status != 200 || d.Topic != "orders/create" {
		t.Fatalf("delivery: %+v", d)
	}
	reqs := got()
	if len(reqs) != 3 || string(reqs[0].body) != string(reqs[2].body) {
		t.Fatalf("requests: %d", len(reqs))
	}
	h := reqs[2].header
	for k, want := range map[string]string{"X-Shopify-Topic": "orders/create", "X-Shopify-Shop-Domain": testShop, "X-Shopify-Api-Version": APIVersion,
		"Content-Type": "application/json", "X-Shopify-Event-Id": d.EventID, "X-Shopify-Webhook-Id": d.WebhookID, "X-Shopify-Triggered-At": "2026-03-20T12:00:00Z"} {
		if h.Get(k) != want {
			t.Fatalf("header %s = %q, want %q", k, h.Get(k), want)
		}
	}
	var p map[string]any
	_ = json.Unmarshal(reqs[2].body, &p)
	if p["id"] != float64(id) || p["admin_graphql_api_id"] != gid("Order", id) || p["name"] != "#1001" || p["test"] != false || p["cancelled_at"] != nil {
		t.Fatalf("payload: %v", p)
	}
}

func TestWebhookFaultsUninstallAndCompliance(t *testing.T) {
	t.Parallel()
	rcv, got := receiver(t, 0)
	e := newEnv(t, Options{AutoApprove: true, ComplianceURL: rcv.URL + "/compliance"})
	tok := e.install(testShop, "read_orders")
	for _, topic := range []string{"ORDERS_CREATE", "ORDERS_CANCELLED", "ORDERS_UPDATED", "REFUNDS_CREATE", "APP_UNINSTALLED"} {
		e.subscribe(tok, topic, rcv.URL+"/wh")
	}
	_ = e.s.InjectFault(testShop, Fault{Kind: "webhook-duplicate"})
	_ = e.s.InjectFault(testShop, Fault{Kind: "webhook-fail"})
	id, _ := e.s.AddOrder(testShop, simpleOrder(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)))
	if err := e.s.Cancel(testShop, id, time.Date(2026, 3, 1, 13, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if err := e.s.SendCompliance(testShop, "customers/redact", 77, []int64{id}); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Uninstall(testShop); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "deliveries", func() bool {
		for _, d := range e.s.Deliveries(testShop) {
			if !d.Delivered {
				return false
			}
		}
		return len(e.s.Deliveries(testShop)) == 6
	})
	ds := e.s.Deliveries(testShop)
	topics := []string{}
	retried := 0
	for _, d := range ds {
		topics = append(topics, d.Topic)
		if d.Attempts > 1 {
			retried++
		}
	}
	want := []string{"orders/create", "orders/create", "orders/cancelled", "orders/updated", "customers/redact", "app/uninstalled"}
	for i := range want {
		if topics[i] != want[i] {
			t.Fatalf("topics %v", topics)
		}
	}
	if ds[0].EventID != ds[1].EventID || retried != 1 {
		t.Fatalf("duplicate/bad-signature faults: %+v", ds)
	}
	for _, r := range got() {
		if r.header.Get("X-Shopify-Topic") == "customers/redact" {
			var p map[string]any
			_ = json.Unmarshal(r.body, &p)
			if r.header.Get("X-Shopify-Shop-Domain") != testShop || dig(p, "customer", "id") != 77.0 || dig(p, "orders_to_redact", 0) != float64(id) || p["shop_domain"] != testShop {
				t.Fatalf("compliance payload: %v", p)
			}
		}
	}
	// the subscriptions are gone with the app
	tok = e.install(testShop, "read_orders")
	if d := e.gql(testShop, tok, `{ webhookSubscriptions(first: 5) { nodes { id } } }`, nil); len(dig(d, "webhookSubscriptions", "nodes").([]any)) != 0 {
		t.Fatalf("subscriptions survived uninstall: %v", d)
	}
}
