package service_test

import (
	"context"
	"testing"
	"time"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/shopifysim/sim"
)

// customers/redact is owed for as long as the shop's orders are stored, so
// it applies after the owner disconnected the shop too.
func TestCustomerRedactionAfterDisconnect(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	fixtureShop(t, h.sim, time.Now())
	ctx, cat := h.owner()
	h.connect(ctx, cat, testShop)
	h.waitSynced(ctx, cat)
	if _, err := h.client.DisconnectShopify(ctx, &storesv1.DisconnectShopifyRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	keyed := func(key string) int {
		var n int
		if err := h.db.QueryRow(context.Background(),
			`SELECT count(*) FROM orders WHERE category_id = $1 AND customer_key = $2`, cat, key).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if keyed("shopify:100") == 0 {
		t.Fatal("the fixture's customer 100 has no stored order")
	}
	if err := h.sim.SendCompliance(testShop, "customers/redact", 100, nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool { return keyed("shopify:100") == 0 && keyed("redacted") > 0 },
		"customer 100 to be forgotten in the disconnected shop's orders")
	if keyed("shopify:101") == 0 {
		t.Error("another customer was redacted too")
	}
}
