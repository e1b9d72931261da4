package service_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/platform/events"
	"uplift.dev/shopifysim/sim"
)

// A shop connected to one account and then approved on Shopify by a second
// moves to the second: the consent proves the shop is
// theirs. The first account keeps a MOVED connection without the shop's
// numbers, and the shop's webhooks and syncs feed only the second.
func TestAShopMovesToTheAccountThatProvesIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	now := time.Now()
	fixtureShop(t, h.sim, now)
	first, firstCat := h.owner()
	if back := h.connect(first, firstCat, testShop); !strings.HasSuffix(back, "shopify=connected") {
		t.Fatalf("first connect: %s", back)
	}
	h.waitSynced(first, firstCat)

	ny, _ := time.LoadLocation("America/New_York")
	from, to := now.In(ny).AddDate(0, 0, -30).Format("2006-01-02"), now.In(ny).Format("2006-01-02")
	orders := func(ctx context.Context, cat string) int32 {
		t.Helper()
		m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: from, To: to})
		if err != nil {
			t.Fatal(err)
		}
		return m.GetTotals().GetOrders()
	}
	if got := orders(first, firstCat); got != 10 {
		t.Fatalf("first account's orders before the move = %d, want 10", got)
	}

	second, secondCat := h.owner()
	if back := h.connect(second, secondCat, testShop); back != "http://web.test/connections?shopify=connected" {
		t.Fatalf("second connect was not let through: %s", back)
	}
	sc := h.waitSynced(second, secondCat)
	if sc.GetStatus() != "CONNECTED" || sc.GetStored().GetOrders() != 10 {
		t.Fatalf("second account's connection = %v", sc)
	}
	if got := orders(second, secondCat); got != 10 {
		t.Errorf("second account's orders = %d, want 10", got)
	}

	c, err := h.client.GetConnections(first, &storesv1.GetConnectionsRequest{CategoryId: firstCat})
	if err != nil {
		t.Fatal(err)
	}
	if c.GetShopify().GetStatus() != "MOVED" || c.GetShopify().GetShop() != testShop || c.GetShopify().GetStored().GetOrders() != 0 {
		t.Errorf("first account's connection after the move = %v", c.GetShopify())
	}
	if got := orders(first, firstCat); got != 0 {
		t.Errorf("first account still holds %d of the shop's orders", got)
	}
	var tokens int
	if err := h.db.QueryRow(context.Background(), `SELECT count(*) FROM shopify_connections
		WHERE category_id = $1 AND (access_token IS NOT NULL OR refresh_token IS NOT NULL)`, firstCat).Scan(&tokens); err != nil || tokens != 0 {
		t.Errorf("first account keeps the shop's tokens: %d, %v", tokens, err)
	}
	// The account the shop left is told (its owner gets an email), once.
	if got := h.shopMovesIn(firstCat); len(got) != 1 || got[0].GetShop() != testShop || got[0].GetOccurTime() == nil {
		t.Errorf("ShopifyShopMoved for the first account: %v, want one naming %s", got, testShop)
	}
	if got := h.shopMovesIn(secondCat); len(got) != 0 {
		t.Errorf("the account the shop moved to was told it left: %v", got)
	}
	// Nothing the first account can do reaches the shop any more.
	if _, err := h.client.SyncShopify(first, &storesv1.SyncShopifyRequest{CategoryId: firstCat}); err == nil {
		t.Error("the first account could still sync the moved shop")
	}

	// A new order reaches the second account alone, by webhook.
	if _, err := h.sim.AddOrder(testShop, sim.OrderSpec{Name: "#3000", CreatedAt: time.Now().Add(-time.Minute), CustomerID: 200,
		Lines: []sim.LineSpec{{Title: "Trail Mug", SKU: "MUG", ProductID: 1, Quantity: 1, UnitPrice: 1500}}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool { return orders(second, secondCat) == 11 }, "the new order in the second account")
	if got := orders(first, firstCat); got != 0 {
		t.Errorf("the new order reached the first account too: %d orders", got)
	}

	// Moving back takes the same proof: the first account connects again.
	if back := h.connect(first, firstCat, testShop); !strings.HasSuffix(back, "shopify=connected") {
		t.Fatalf("connecting back: %s", back)
	}
	h.waitSynced(first, firstCat)
	c, err = h.client.GetConnections(second, &storesv1.GetConnectionsRequest{CategoryId: secondCat})
	if err != nil || c.GetShopify().GetStatus() != "MOVED" {
		t.Errorf("second account after the shop moved back = %v, %v", c.GetShopify(), err)
	}
	if got := h.shopMovesIn(secondCat); len(got) != 1 {
		t.Errorf("ShopifyShopMoved for the second account after the move back: %v, want one", got)
	}
}

// shopMovesIn returns the ShopifyShopMoved events in the outbox for the
// account a shop left.
func (h *harness) shopMovesIn(cat string) []*eventsv1.ShopifyShopMoved {
	h.t.Helper()
	rows, err := h.db.Query(context.Background(), `SELECT payload FROM outbox WHERE subject = $1`, events.SubjectShopifyShopMoved)
	if err != nil {
		h.t.Fatal(err)
	}
	defer rows.Close()
	var out []*eventsv1.ShopifyShopMoved
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			h.t.Fatal(err)
		}
		var ev eventsv1.ShopifyShopMoved
		if err := proto.Unmarshal(b, &ev); err != nil {
			h.t.Fatal(err)
		}
		if ev.GetCategoryId() == cat {
			out = append(out, &ev)
		}
	}
	if err := rows.Err(); err != nil {
		h.t.Fatal(err)
	}
	return out
}

// A move needs Shopify's consent: a callback whose code cannot be
// exchanged (forged or replayed) leaves the shop where it is.
func TestAShopDoesNotMoveWithoutAValidCodeExchange(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	fixtureShop(t, h.sim, time.Now())
	first, firstCat := h.owner()
	h.connect(first, firstCat, testShop)
	h.waitSynced(first, firstCat)

	second, secondCat := h.owner()
	start, err := h.client.StartShopifyConnect(second, &storesv1.StartShopifyConnectRequest{CategoryId: secondCat, Shop: testShop})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(start.GetRedirectUrl())
	state := u.Query().Get("state")
	auth, err := h.client.AuthorizeShopify(context.Background(), &storesv1.AuthorizeShopifyRequest{State: state})
	if err != nil {
		t.Fatal(err)
	}
	cb := h.followToCallback(auth.GetAuthorizeUrl())
	// Spend the code first, as an attacker replaying a captured callback would find it.
	tampered := cb.Query()
	tampered.Set("code", "not-a-code")
	res, err := h.client.CompleteShopifyConnect(context.Background(), &storesv1.CompleteShopifyConnectRequest{RawQuery: tampered.Encode(), BrowserState: state})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.GetRedirectUrl(), "shopify=error") {
		t.Fatalf("a tampered callback was accepted: %s", res.GetRedirectUrl())
	}
	c, err := h.client.GetConnections(first, &storesv1.GetConnectionsRequest{CategoryId: firstCat})
	if err != nil || c.GetShopify().GetStatus() != "CONNECTED" {
		t.Errorf("the shop left its account without consent: %v, %v", c.GetShopify(), err)
	}
	c, err = h.client.GetConnections(second, &storesv1.GetConnectionsRequest{CategoryId: secondCat})
	if err != nil || c.GetShopify().GetStatus() == "CONNECTED" {
		t.Errorf("the second account got the shop without consent: %v, %v", c.GetShopify(), err)
	}
}
