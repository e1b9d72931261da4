package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	shopify "uplift.dev/shopifysim/sim"
	"uplift.dev/shopifysim/teashop"
)

// The demo Google user, account and properties: the demo business's
// analytics, whose days track the Shopify simulator's demo shop.
const (
	DemoUser            = "owner@fernhill-tea.example"
	DemoAccount         = "310000001"
	DemoProperty        = "420000001"
	DemoStagingProperty = "420000002"
	demoTimeZone        = "America/New_York"
)

// demoTracked is the share of the shop's visits and orders GA4 sees: consent
// banners, blockers and thank-you pages that never load lose the rest.
const demoTracked = 0.94

// SeedDemo creates the demo user, account and properties. The web property
// has a day for each of the demo shop's ~120 days (ending yesterday in the
// property's time zone, which is the shop's): ecommercePurchases a little
// under the shop's orders, transactions adding its refunds, sessions a little
// under the shop's. It is deterministic: the same now gives the same data.
func SeedDemo(s *Server, now time.Time) error {
	shop := shopify.New(shopify.Options{APIKey: "demo", APISecret: "demo", Clock: func() time.Time { return now }})
	defer shop.Close()
	if err := shopify.SeedDemo(shop, now); err != nil {
		return fmt.Errorf("the demo shop: %w", err)
	}
	shopDays, err := shop.Daily(shopify.DemoShop)
	if err != nil {
		return err
	}
	if err := s.CreateUser(DemoUser); err != nil {
		return err
	}
	if err := s.CreateAccount(AccountSpec{ID: DemoAccount, DisplayName: teashop.Name, Users: []string{DemoUser}}); err != nil {
		return err
	}
	for _, p := range []PropertySpec{
		{ID: DemoProperty, Account: DemoAccount, DisplayName: "fernhilltea.example - GA4", TimeZone: demoTimeZone, CurrencyCode: "USD"},
		{ID: DemoStagingProperty, Account: DemoAccount, DisplayName: "Fernhill staging", TimeZone: demoTimeZone, CurrencyCode: "USD"},
	} {
		if err := s.CreateProperty(p); err != nil {
			return err
		}
	}
	r := rand.New(rand.NewPCG(20261203, 4))
	seen := func(n int64) int64 { // how many of n the tag records
		var k int64
		for range n {
			if r.Float64() < demoTracked {
				k++
			}
		}
		return k
	}
	share := func(amount, of, n int64) float64 { // n of the of orders' amount, in currency units
		if of == 0 {
			return 0
		}
		return math.Round(float64(amount)*float64(n)/float64(of)) / 100
	}
	days := make([]Day, 0, len(shopDays))
	for _, sd := range shopDays {
		d := Day{Date: sd.Day, Purchases: seen(sd.Orders), Refunds: seen(sd.Refunds)}
		d.Sessions = int64(math.Round(float64(sd.Sessions) * (demoTracked - 0.08 + 0.08*r.Float64())))
		d.Sessions = max(d.Sessions, d.Purchases)
		d.Revenue = share(sd.Gross, sd.Orders, d.Purchases)
		d.RefundAmount = share(sd.RefundAmount, sd.Refunds, d.Refunds)
		d.PurchaseSessions = d.Purchases
		if d.Purchases > 1 && r.IntN(10) == 0 {
			d.PurchaseSessions-- // one visitor bought twice in a session
		}
		d.KeyEvents = int64(math.Round(float64(d.Sessions) * 0.004 * r.Float64() * 2)) // newsletter sign-ups
		d.KeyEventSessions = min(d.PurchaseSessions+d.KeyEvents, d.Sessions)
		days = append(days, d)
	}
	return s.SetDays(DemoProperty, days)
}
