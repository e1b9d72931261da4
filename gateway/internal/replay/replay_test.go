// Package replay holds the end-to-end tests of replayed webhooks on the
// running local stack: deliveries the Shopify simulator signed for one shop
// are sent again through the gateway, rewritten as an attacker would
// (another shop, another topic, a fresh delivery id).
package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/gateway/internal/stacktest"
)

// simulator is the stack's Shopify simulator, reached through its control API.
type simulator struct {
	t   *testing.T
	url string
}

func simFromEnv(t *testing.T) simulator {
	u := os.Getenv("UPLIFT_SHOPIFY_SIM_URL")
	if u == "" {
		t.Skip("UPLIFT_SHOPIFY_SIM_URL not set; `make test` runs this against the whole local stack")
	}
	return simulator{t: t, url: strings.TrimRight(u, "/")}
}

// call sends one control request and decodes the answer into out (if any).
func (s simulator) call(method, path string, in, out any) {
	s.t.Helper()
	var body io.Reader
	if in != nil {
		b, _ := json.Marshal(in)
		body = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.url+path, body)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		s.t.Fatalf("simulator %s %s: %d %s", method, path, resp.StatusCode, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			s.t.Fatalf("simulator %s %s: %v in %s", method, path, err, b)
		}
	}
}

// shop creates a shop with three orders (customers 100–102) and returns
// their ids. The simulator numbers ids per shop, so two such shops hold
// orders with the same ids.
func (s simulator) shop(domain string) []int64 {
	s.call(http.MethodPost, "/_sim/shops", map[string]any{"domain": domain, "name": domain, "currency": "USD",
		"timezone": "America/New_York"}, nil)
	var ids []int64
	for i := range 3 {
		var o struct {
			ID int64 `json:"id"`
		}
		s.call(http.MethodPost, "/_sim/shops/"+domain+"/orders", map[string]any{
			"createdAt": time.Now().Add(-time.Duration(i+1) * time.Hour), "customerId": 100 + i,
			"lines": []map[string]any{{"title": "Trail Mug", "productId": 1, "quantity": 1, "unitPrice": 1500}}}, &o)
		ids = append(ids, o.ID)
	}
	return ids
}

// delivery is one webhook the simulator sent, with its body and signature.
type delivery struct {
	Topic     string          `json:"topic"`
	EventID   string          `json:"eventId"`
	Delivered bool            `json:"delivered"`
	Body      json.RawMessage `json:"body"`
	HMAC      string          `json:"hmac"`
}

// delivered waits for the shop's first delivered webhook of topic.
func (s simulator) delivered(shop, topic string) delivery {
	s.t.Helper()
	var found delivery
	eventually(s.t, topic+" to reach the gateway for "+shop, func() bool {
		var ds []delivery
		s.call(http.MethodGet, "/_sim/shops/"+shop+"/deliveries", nil, &ds)
		for _, d := range ds {
			if d.Topic == topic && d.Delivered {
				found = d
				return true
			}
		}
		return false
	})
	return found
}

// connection reads the category's Shopify connection.
func connection(t *testing.T, s *stacktest.Stack, u stacktest.User) (status, phase string) {
	t.Helper()
	code, b, err := s.Do(http.MethodGet, "/internal/categories/"+u.CategoryID+"/connections", u.Token, nil)
	if err != nil || code != http.StatusOK {
		t.Fatalf("connections: %d %s %v", code, b, err)
	}
	var c struct {
		Shopify struct {
			Status string `json:"status"`
			Sync   struct {
				Phase string `json:"phase"`
				Error string `json:"error"`
			} `json:"sync"`
		} `json:"shopify"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if c.Shopify.Sync.Phase == "FAILED" {
		t.Fatalf("sync failed: %s", c.Shopify.Sync.Error)
	}
	return c.Shopify.Status, c.Shopify.Sync.Phase
}

// orders is how many orders the store counts over the last week, as
// Analytics reads them.
func orders(t *testing.T, s *stacktest.Stack, u stacktest.User) int {
	t.Helper()
	today := time.Now().UTC()
	q := fmt.Sprintf("?from=%s&to=%s", today.AddDate(0, 0, -7).Format(time.DateOnly), today.AddDate(0, 0, 1).Format(time.DateOnly))
	code, b, err := s.Do(http.MethodGet, "/internal/categories/"+u.CategoryID+"/business-data/metrics"+q, u.Token, nil)
	if err != nil || code != http.StatusOK {
		t.Fatalf("metrics: %d %s %v", code, b, err)
	}
	var m struct {
		Totals struct {
			Orders int `json:"orders"`
		} `json:"totals"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m.Totals.Orders
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestReplayedShopifyWebhooksLeaveAnotherShopAlone: a genuine signature
// must not let one shop's deliveries act on another. Shop A's genuine deliveries (an order's deletion, a customer's
// redaction, the uninstall and the shop's redaction) apply to A; sent again
// through the gateway with shop B's domain, under the topics that once
// erased B, they are refused with a 400 or, for the deletion (an id only),
// change nothing, since B's API still has its order of that id. B keeps its
// orders and its connection.
func TestReplayedShopifyWebhooksLeaveAnotherShopAlone(t *testing.T) {
	s, sim := stacktest.FromEnv(t), simFromEnv(t)
	suffix := strings.ReplaceAll(uuid.NewString()[:13], "-", "")
	shopA, shopB := "replay-a-"+suffix+".myshopify.com", "replay-b-"+suffix+".myshopify.com"
	idsA, idsB := sim.shop(shopA), sim.shop(shopB)
	if idsA[0] != idsB[0] {
		t.Fatalf("the shops' first orders are %d and %d: the replayed id would find nothing in B", idsA[0], idsB[0])
	}
	ownerA, ownerB := s.SignUp(t), s.SignUp(t)
	s.ConnectShopify(t, ownerA, shopA)
	s.ConnectShopify(t, ownerB, shopB)
	if n := orders(t, s, ownerB); n != 3 {
		t.Fatalf("shop B counts %d orders, want 3", n)
	}

	// Shop A's own deliveries, which apply to A.
	sim.call(http.MethodDelete, fmt.Sprintf("/_sim/shops/%s/orders/%d", shopA, idsA[0]), nil, nil)
	deletion := sim.delivered(shopA, "orders/delete")
	eventually(t, "A's deletion to apply to A", func() bool { return orders(t, s, ownerA) == 2 })
	sim.call(http.MethodPost, "/_sim/shops/"+shopA+"/compliance/customers/redact", map[string]any{"customerId": 101}, nil)
	redaction := sim.delivered(shopA, "customers/redact")
	sim.call(http.MethodPost, "/_sim/shops/"+shopA+"/uninstall", nil, nil)
	uninstall := sim.delivered(shopA, "app/uninstalled")
	sim.call(http.MethodPost, "/_sim/shops/"+shopA+"/compliance/shop/redact", nil, nil)
	erasure := sim.delivered(shopA, "shop/redact")
	eventually(t, "A's shop/redact to erase A", func() bool { return orders(t, s, ownerA) == 0 })

	replay := func(d delivery, topic, eventID string) (int, []byte) {
		t.Helper()
		h := http.Header{"Content-Type": {"application/json"}}
		h.Set("X-Shopify-Hmac-Sha256", d.HMAC)
		h.Set("X-Shopify-Topic", topic)
		h.Set("X-Shopify-Shop-Domain", shopB)
		h.Set("X-Shopify-Webhook-Id", uuid.NewString())
		h.Set("X-Shopify-Event-Id", eventID)
		h.Set("X-Shopify-API-Version", "2026-10")
		code, b, err := s.DoWithHeader(http.MethodPost, "/webhooks/shopify", "", d.Body, h)
		if err != nil {
			t.Fatal(err)
		}
		return code, b
	}
	for _, c := range []struct {
		d     delivery
		topic string
	}{
		{erasure, "shop/redact"}, {erasure, "customers/redact"}, {erasure, "customers/data_request"},
		{redaction, "customers/redact"}, {redaction, "shop/redact"}, {uninstall, "app/uninstalled"},
		{uninstall, "shop/redact"}, {deletion, "shop/redact"}, {deletion, "app/uninstalled"},
	} {
		for _, eventID := range []string{c.d.EventID, uuid.NewString()} {
			code, b := replay(c.d, c.topic, eventID)
			var e struct {
				Message string `json:"message"`
			}
			_ = json.Unmarshal(b, &e)
			if code != http.StatusBadRequest || e.Message == "" {
				t.Errorf("A's %s replayed as %s for B: %d %s, want 400 with a message", c.d.Topic, c.topic, code, stacktest.Excerpt(b))
			}
		}
	}
	if code, b := replay(deletion, "orders/delete", deletion.EventID); code != http.StatusOK {
		t.Fatalf("A's orders/delete replayed for B: %d %s, want 200 (it names an order by id only)", code, stacktest.Excerpt(b))
	}

	// Deliveries are applied oldest first: once B's next genuine order is
	// counted, the replayed deletion before it was applied too.
	sim.call(http.MethodPost, "/_sim/shops/"+shopB+"/orders", map[string]any{"createdAt": time.Now().Add(-time.Minute), "customerId": 103,
		"lines": []map[string]any{{"title": "Trail Mug", "productId": 1, "quantity": 1, "unitPrice": 1500}}}, nil)
	eventually(t, "B's new order to count", func() bool { return orders(t, s, ownerB) >= 4 })
	if n := orders(t, s, ownerB); n != 4 {
		t.Errorf("after the replays shop B counts %d orders, want its 4", n)
	}
	if st, _ := connection(t, s, ownerB); st != "CONNECTED" {
		t.Errorf("after the replays shop B's connection is %s, want CONNECTED", st)
	}
}
