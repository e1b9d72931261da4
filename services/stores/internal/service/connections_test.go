package service_test

import (
	"testing"
	"time"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/shopifysim/sim"
)

// TestSyncNowKeepsTheStoresCounts: Connections counts
// what is stored of the shop, not what the running sync has brought in.
// "Sync now" of what changed starts from zero and brings in a handful of
// orders, which used to read "0 orders · 0 products · 0 customers" during
// the sync and "1 order" after it, while Analytics kept everything.
func TestSyncNowKeepsTheStoresCounts(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true, TokenTTL: time.Minute})
	now := time.Now()
	fixtureShop(t, h.sim, now)
	ctx, cat := h.owner()
	h.connect(ctx, cat, "fixture-goods")
	first := h.waitSynced(ctx, cat)
	// 11 orders, the test order not counted (as Analytics counts them); two products.
	want := &storesv1.StoreCounts{Orders: 10, Products: 2, Customers: first.GetStored().GetCustomers()}
	if got := first.GetStored(); got.GetOrders() != 10 || got.GetProducts() != 2 {
		t.Fatalf("after the first import: stored %v, want 10 orders and 2 products", got)
	}

	// One new order, then "Sync now": a sync of what changed since the last.
	if _, err := h.sim.AddOrder(testShop, sim.OrderSpec{Name: "#3000", CreatedAt: now.Add(-time.Minute), CustomerID: 100,
		Lines: []sim.LineSpec{{Title: "Trail Mug", SKU: "MUG", ProductID: 1, Quantity: 1, UnitPrice: 1500}}}); err != nil {
		t.Fatal(err)
	}
	last := first.GetSync().GetLastSyncedAt().AsTime()
	if _, err := h.client.SyncShopify(ctx, &storesv1.SyncShopifyRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	want.Orders++
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
		if err != nil {
			t.Fatal(err)
		}
		sc := c.GetShopify()
		// During the sync and after it: the store's size, never below what was stored.
		if got := sc.GetStored(); got.GetOrders() < 10 || got.GetProducts() != want.GetProducts() || got.GetCustomers() < want.GetCustomers() {
			t.Fatalf("%s: stored %v during a sync, the shop holds %v", sc.GetSync().GetPhase(), got, want)
		}
		if sc.GetSync().GetPhase() == "DONE" && sc.GetSync().GetLastSyncedAt().AsTime().After(last) {
			if got := sc.GetStored(); got.GetOrders() != want.GetOrders() || got.GetProducts() != want.GetProducts() {
				t.Fatalf("after Sync now: stored %v, want %v", got, want)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Sync now did not finish: %v", sc)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// What a reload reads.
	c, err := h.client.GetConnections(ctx, &storesv1.GetConnectionsRequest{CategoryId: cat})
	if err != nil || c.GetShopify().GetStored().GetOrders() != want.GetOrders() {
		t.Fatalf("reloaded: %v, %v", c.GetShopify().GetStored(), err)
	}
}
