package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/shopifysim/sim"
)

// replayShop is a small shop: three orders by customers 100–102. The
// simulator numbers ids per shop, so two such shops hold orders with the
// same ids, which is what a replayed order id needs to find something.
func replayShop(t *testing.T, s *sim.Server, domain string) []int64 {
	t.Helper()
	if err := s.CreateShop(sim.ShopSpec{Domain: domain, Name: domain, Currency: "USD", Timezone: "America/New_York"}); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i := range 3 {
		id, err := s.AddOrder(domain, sim.OrderSpec{CreatedAt: time.Now().Add(-time.Duration(i+1) * time.Hour), CustomerID: int64(100 + i),
			Lines: []sim.LineSpec{{Title: "Trail Mug", ProductID: 1, Quantity: 1, UnitPrice: 1500}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// delivered waits for the shop's first delivered webhook of topic: its
// body and signature, as anyone who saw it pass holds them.
func delivered(t *testing.T, s *sim.Server, shop, topic string) sim.Delivery {
	t.Helper()
	var found sim.Delivery
	eventually(t, func() bool {
		for _, d := range s.Deliveries(shop) {
			if d.Topic == topic && d.Delivered {
				found = d
				return true
			}
		}
		return false
	}, topic+" to be delivered for "+shop)
	return found
}

// On real PostgreSQL: deliveries Shopify signed for
// shop A (an order's deletion, a customer's redaction, the uninstall, the
// shop's redaction) are sent again with shop B in the header. The ones
// whose body names shop A are refused; the deletion is queued for B but
// deletes nothing, because B's API still has its order of that id. B keeps
// its orders, its customers' keys and its connection, and A's event id is
// kept apart from B's.
func TestReplayedWebhooksLeaveAnotherShopAlone(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true, WebhookRetryBase: 20 * time.Millisecond})
	const shopA, shopB = "replay-a.myshopify.com", "replay-b.myshopify.com"
	idsA, idsB := replayShop(t, h.sim, shopA), replayShop(t, h.sim, shopB)
	if idsA[0] != idsB[0] {
		t.Fatalf("the shops' first orders are %d and %d: the replayed id would find nothing in B", idsA[0], idsB[0])
	}
	ctxA, catA := h.owner()
	ctxB, catB := h.owner()
	h.connect(ctxA, catA, shopA)
	h.connect(ctxB, catB, shopB)
	h.waitSynced(ctxA, catA)
	h.waitSynced(ctxB, catB)

	count := func(query, cat string) int {
		t.Helper()
		var n int
		if err := h.db.QueryRow(context.Background(), query, cat).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	const ordersOf = `SELECT count(*) FROM orders WHERE category_id = $1`
	const keyedOf = `SELECT count(*) FROM orders WHERE category_id = $1 AND customer_key <> 'redacted'`
	if count(ordersOf, catB) != 3 || count(keyedOf, catB) != 3 {
		t.Fatalf("shop B stored %d orders (%d keyed), want 3", count(ordersOf, catB), count(keyedOf, catB))
	}

	// Genuine deliveries for shop A, which apply to A.
	if err := h.sim.DeleteOrder(shopA, idsA[0]); err != nil {
		t.Fatal(err)
	}
	deletion := delivered(t, h.sim, shopA, "orders/delete")
	eventually(t, func() bool { return count(ordersOf, catA) == 2 }, "A's deletion to apply to A")

	replay := func(d sim.Delivery, topic, eventID string) error {
		_, err := h.client.HandleShopifyWebhook(context.Background(), &storesv1.HandleShopifyWebhookRequest{
			Payload: d.Body, Hmac: d.HMAC, Topic: topic, ShopDomain: shopB, WebhookId: uuid.NewString(), EventId: eventID})
		return err
	}
	// A's deletion names an order by id only: queued for B, under A's own
	// event id, which B's deliveries are kept apart from.
	if err := replay(deletion, "orders/delete", deletion.EventID); err != nil {
		t.Fatalf("A's orders/delete replayed for B: %v", err)
	}
	var kept int
	if err := h.db.QueryRow(context.Background(), `SELECT count(*) FROM webhook_events WHERE event_id = $1`, deletion.EventID).Scan(&kept); err != nil {
		t.Fatal(err)
	}
	if kept != 2 {
		t.Errorf("A's event id is stored %d times, want once for A and once for B", kept)
	}

	if err := h.sim.SendCompliance(shopA, "customers/redact", 100, []int64{idsA[1]}); err != nil {
		t.Fatal(err)
	}
	redaction := delivered(t, h.sim, shopA, "customers/redact")
	if err := h.sim.Uninstall(shopA); err != nil {
		t.Fatal(err)
	}
	uninstall := delivered(t, h.sim, shopA, "app/uninstalled")
	if err := h.sim.SendCompliance(shopA, "shop/redact", 0, nil); err != nil {
		t.Fatal(err)
	}
	erasure := delivered(t, h.sim, shopA, "shop/redact")
	eventually(t, func() bool { return count(ordersOf, catA) == 0 }, "A's shop/redact to erase A")

	for _, c := range []struct {
		d     sim.Delivery
		topic string
	}{
		{erasure, "shop/redact"}, {erasure, "customers/redact"}, {erasure, "customers/data_request"},
		{redaction, "customers/redact"}, {redaction, "shop/redact"}, {uninstall, "app/uninstalled"},
		{uninstall, "shop/redact"}, {deletion, "shop/redact"}, {deletion, "app/uninstalled"},
	} {
		for _, eventID := range []string{c.d.EventID, uuid.NewString()} {
			if err := replay(c.d, c.topic, eventID); status.Code(err) != codes.InvalidArgument {
				t.Errorf("A's %s replayed as %s for B: %v, want InvalidArgument", c.d.Topic, c.topic, err)
			}
		}
	}
	eventually(t, func() bool {
		var pending int
		_ = h.db.QueryRow(context.Background(), `SELECT count(*) FROM webhook_events WHERE processed_at IS NULL`).Scan(&pending)
		return pending == 0
	}, "the replayed deletion to be applied")

	if n, k := count(ordersOf, catB), count(keyedOf, catB); n != 3 || k != 3 {
		t.Errorf("after the replays shop B has %d orders (%d keyed), want 3 (3)", n, k)
	}
	c, err := h.client.GetConnections(ctxB, &storesv1.GetConnectionsRequest{CategoryId: catB})
	if err != nil || c.GetShopify().GetStatus() != "CONNECTED" {
		t.Errorf("after the replays shop B's connection is %v (%v), want CONNECTED", c.GetShopify().GetStatus(), err)
	}
}
