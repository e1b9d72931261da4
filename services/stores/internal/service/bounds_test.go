package service_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/shopifysim/sim"
	"uplift.dev/stores/internal/domain"
)

// TestAHugeTitleCannotReachAnEvent: a shop whose best seller has a
// megabyte title (Shopify bounds titles; its API is still someone else's
// text) syncs, and the title is cut to domain.MaxTitleRunes before it is
// stored, shown or published: StoreSignalsUpdated and DailyReportReady stay
// far below NATS's 1 MiB, where before they carried the whole title and
// NATS refused them.
func TestAHugeTitleCannotReachAnEvent(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	const shop = "huge-title.myshopify.com"
	huge := strings.Repeat("Mug ", 1<<18) // 1 MiB
	if err := h.sim.CreateShop(sim.ShopSpec{Domain: shop, Name: "Huge Title", Currency: "USD", Timezone: "UTC"}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	y := time.Date(now.Year(), now.Month(), now.Day()-1, 10, 0, 0, 0, time.UTC)
	for i, line := range []sim.LineSpec{
		{Title: huge, SKU: "HUGE", ProductID: 1, Quantity: 3, UnitPrice: 2000},
		{Title: huge + "with no product", Quantity: 1, UnitPrice: 500},
		{Title: "Camp Stove", SKU: "STOVE", ProductID: 2, Quantity: 1, UnitPrice: 1000},
	} {
		if _, err := h.sim.AddOrder(shop, sim.OrderSpec{Name: "#10" + string(rune('0'+i)), CreatedAt: y, CustomerID: 7,
			Lines: []sim.LineSpec{line}}); err != nil {
			t.Fatal(err)
		}
	}
	_ = h.sim.AddProduct(shop, 1, huge)
	_ = h.sim.AddProduct(shop, 2, "Camp Stove")
	ctx, cat := h.owner()
	h.connect(ctx, cat, "huge-title")
	h.waitSynced(ctx, cat)

	clipped := func(what, title string) {
		t.Helper()
		if n := utf8.RuneCountInString(title); n != domain.MaxTitleRunes || !strings.HasPrefix(title, "Mug Mug") || !strings.HasSuffix(title, "…") {
			t.Errorf("%s: %d characters (%.20q…), want cut to %d", what, n, title, domain.MaxTitleRunes)
		}
	}
	top, err := h.client.GetTopProducts(ctx, &storesv1.GetTopProductsRequest{CategoryId: cat,
		From: y.Format(time.DateOnly), To: y.Format(time.DateOnly)})
	if err != nil || len(top.GetProducts()) != 3 {
		t.Fatalf("top products: %v, %v", top, err)
	}
	for _, p := range top.GetProducts() {
		if p.GetTitle() != "Camp Stove" {
			clipped("top product", p.GetTitle())
		}
	}

	var size int
	eventually(t, func() bool {
		ev, _ := h.lastSignals()
		if ev == nil || ev.GetCategoryId() != cat {
			return false
		}
		size = proto.Size(ev)
		clipped("StoreSignalsUpdated best seller", ev.GetBestSeller().GetTitle())
		return true
	}, "StoreSignalsUpdated after the sync")
	if size > 4<<10 {
		t.Errorf("StoreSignalsUpdated is %d bytes", size)
	}

	if _, err := h.replica(time.Now).SendDailyReportNow(context.Background(), domain.Caller{UID: "ops", Admin: true}, cat); err != nil {
		t.Fatal(err)
	}
	reports := h.dailyReportsIn(cat)
	if len(reports) != 1 {
		t.Fatalf("%d daily reports", len(reports))
	}
	clipped("DailyReportReady best seller", reports[0].GetBestSeller())
	if n := proto.Size(reports[0]); n > 8<<10 {
		t.Errorf("DailyReportReady is %d bytes", n)
	}
}
