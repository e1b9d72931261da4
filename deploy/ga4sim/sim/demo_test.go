package sim

import (
	"reflect"
	"testing"
	"time"

	shopify "uplift.dev/shopifysim/sim"
)

func TestDemoPropertyTracksTheDemoShop(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
	seed := func() *Server {
		s := New(Options{ClientID: testClient, ClientSecret: testSecret, Clock: func() time.Time { return now }})
		if err := SeedDemo(s, now); err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := seed(), seed()
	if !reflect.DeepEqual(a.props[DemoProperty].days, b.props[DemoProperty].days) {
		t.Fatal("two seeds with the same now differ")
	}
	shop := shopify.New(shopify.Options{APIKey: "k", APISecret: "s"})
	defer shop.Close()
	if err := shopify.SeedDemo(shop, now); err != nil {
		t.Fatal(err)
	}
	shopDays, err := shop.Daily(shopify.DemoShop)
	if err != nil {
		t.Fatal(err)
	}
	days := a.props[DemoProperty].days
	var orders, purchases, refundDays, withSessions int64
	for _, sd := range shopDays {
		d, ok := days[sd.Day]
		if !ok {
			t.Fatalf("shop day %s has no GA4 day", sd.Day)
		}
		orders += sd.Orders
		purchases += d.Purchases
		if d.Purchases > sd.Orders || d.Sessions > sd.Sessions {
			t.Fatalf("%s: GA4 sees more than the shop: %+v vs %+v", sd.Day, d, sd)
		}
		if d.Refunds > 0 {
			refundDays++
		}
		if d.Sessions > 0 {
			withSessions++
		}
	}
	if share := float64(purchases) / float64(orders); share < 0.9 || share > 0.98 {
		t.Fatalf("GA4 saw %.3f of the shop's orders", share)
	}
	if withSessions != 120 || refundDays < 15 {
		t.Fatalf("%d days with sessions, %d with refunds", withSessions, refundDays)
	}
	yesterday := now.In(a.props[DemoProperty].loc).AddDate(0, 0, -1).Format(time.DateOnly)
	if days[yesterday].Sessions == 0 || days[now.AddDate(0, 0, -121).Format(time.DateOnly)].Sessions != 0 {
		t.Fatal("the demo's sessions must cover the 120 days ending yesterday")
	}
}

func TestDemoReportShowsRefundsInTransactionsOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	e.must(SeedDemo(e.s, e.clock.Now()))
	resp := e.authorizeResp(func() map[string][]string { q := authQuery(); q.Set("login_hint", DemoUser); return q }(), nil)
	_, tok := e.token(exchangeForm(mustQuery(t, resp.Header.Get("Location")).Get("code")))
	_, out := e.report(tok["access_token"].(string), DemoProperty, dailyBody("120daysAgo", "yesterday", "ecommercePurchases", "transactions"))
	rows := table(out)
	if len(rows) != 120 {
		t.Fatalf("%d rows", len(rows))
	}
	differ := 0
	for _, r := range rows {
		if r[1] != r[2] {
			differ++
		}
	}
	if differ < 15 {
		t.Fatalf("transactions differ from ecommercePurchases on %d days", differ)
	}
}
