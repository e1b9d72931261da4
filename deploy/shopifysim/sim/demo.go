package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"uplift.dev/shopifysim/teashop"
)

// demoDays is how much history the demo shop has, ending yesterday (shop time).
const demoDays = 120

const (
	demoCustomers  = 300
	demoCustomerID = 6600000000
	demoTaxPercent = 7
)

// SeedDemo creates the demo shop, the demo business's own (package teashop:
// the website the local stack serves sells the same products), with ~120 days of realistic history ending
// the day before now: a weekly rhythm, a slow upward trend, a dip 8 days ago,
// discounts, shipping, 7 % tax, refunds, cancels, test orders, a gift card and
// sessions. It is deterministic: the same now gives the same shop.
func SeedDemo(s *Server, now time.Time) error {
	return SeedDemoAs(s, DemoShop, teashop.Name, now)
}

// SeedDemoAs creates a shop with the demo history under another domain and
// name, so each browser test can connect a shop of its own (a shop feeds one
// business only).
func SeedDemoAs(s *Server, domain, name string, now time.Time) error {
	err := s.CreateShop(ShopSpec{Domain: domain, Name: name, Currency: "USD", Timezone: "America/New_York"})
	if err != nil {
		return err
	}
	loc, _ := time.LoadLocation("America/New_York")
	r := rand.New(rand.NewPCG(20261124, 42))
	for _, p := range teashop.Catalogue {
		spec := ProductSpec{ID: p.ID, Title: p.Title, Handle: p.Handle, Price: p.PriceCents}
		if base := strings.TrimSuffix(s.o.DemoStoreURL, "/"); base != "" {
			spec.ImageURL = base + p.PhotoPath()
		}
		if err := s.AddProductSpec(domain, spec); err != nil {
			return err
		}
	}
	for i := int64(1); i <= demoCustomers; i++ {
		if err := s.AddCustomer(domain, demoCustomerID+i); err != nil {
			return err
		}
	}
	ln := now.In(loc)
	today := time.Date(ln.Year(), ln.Month(), ln.Day(), 0, 0, 0, 0, loc)
	for i := range demoDays {
		day := today.AddDate(0, 0, i-demoDays)
		n := 8 + 8*i/(demoDays-1) + r.IntN(4)
		switch day.Weekday() {
		case time.Saturday:
			n += 4
		case time.Sunday:
			n += 3
		case time.Friday:
			n += 2
		case time.Monday:
			n++
		}
		if i == demoDays-8 {
			n = 5 // the visible dip
		}
		n = min(max(n, 5), 25)
		times := make([]time.Time, n)
		for k := range times {
			times[k] = day.Add(time.Duration(7*60+r.IntN(17*60)) * time.Minute).Add(time.Duration(r.IntN(60)) * time.Second)
		}
		sort.Slice(times, func(a, b int) bool { return times[a].Before(times[b]) })
		for _, at := range times {
			if err := demoOrder(s, domain, r, at, now, false); err != nil {
				return err
			}
		}
		if i == 30 || i == 60 || i == 100 {
			if err := demoOrder(s, domain, r, day.Add(10*time.Hour), now, true); err != nil {
				return err
			}
		}
		if i == 90 {
			_, err := s.AddOrder(domain, OrderSpec{CreatedAt: day.Add(15 * time.Hour), CustomerID: demoCustomerID + 7,
				Lines: []LineSpec{{Title: teashop.Name + " Gift Card", SKU: "FERNHILL-GIFT-50", Quantity: 1, UnitPrice: 5000, GiftCard: true}}})
			if err != nil {
				return err
			}
		}
		conv := 0.02 + r.Float64()*0.01
		sessions := int64(math.Round(float64(n) / conv))
		if err := s.SetSessions(domain, day.Format("2006-01-02"), sessions, int64(n)); err != nil {
			return err
		}
	}
	return nil
}

func demoOrder(s *Server, domain string, r *rand.Rand, at, now time.Time, test bool) error {
	nLines := 1
	if r.IntN(10) < 3 {
		nLines++
	}
	if r.IntN(10) < 1 {
		nLines++
	}
	discounted := r.IntN(100) < 12
	var lines []LineSpec
	var subtotal int64
	for _, pi := range r.Perm(len(teashop.Catalogue))[:nLines] {
		p := teashop.Catalogue[pi]
		qty := int64(1)
		if r.IntN(5) == 0 {
			qty = 2
		}
		var disc int64
		if discounted {
			disc = p.PriceCents * qty / 10
		}
		net := p.PriceCents*qty - disc
		subtotal += net
		lines = append(lines, LineSpec{Title: p.Title, SKU: p.SKU(), ProductID: p.ID, Quantity: qty, UnitPrice: p.PriceCents,
			Discount: disc, Tax: (net*demoTaxPercent + 50) / 100})
	}
	var shipping int64
	// The website's shipping policy: $5.95, free over $50.
	if subtotal <= 5000 {
		shipping = 595
	}
	spec := OrderSpec{CreatedAt: at, Test: test, CustomerID: demoCustomerID + 1 + r.Int64N(demoCustomers), Lines: lines, Shipping: shipping}
	if test {
		spec.Name = fmt.Sprintf("#T%d", at.Unix()%10000)
	}
	id, err := s.AddOrder(domain, spec)
	if err != nil {
		return err
	}
	roll := r.IntN(100)
	switch {
	case roll < 4: // refunded a few days later, at any hour (so some cross midnight UTC vs shop time)
		rat := at.Add(time.Duration(24+r.IntN(4*24)) * time.Hour).Add(time.Duration(r.IntN(60)) * time.Minute)
		if rat.Before(now) {
			rs := RefundSpec{At: rat, Lines: []RefundLine{{LineIndex: 0, Quantity: 1}}}
			if len(lines) == 1 && lines[0].Quantity == 1 {
				rs.Shipping = shipping
			}
			return s.Refund(domain, id, rs)
		}
	case roll < 5: // cancelled within hours
		cat := at.Add(time.Duration(1+r.IntN(10)) * time.Hour)
		if cat.Before(now) {
			return s.Cancel(domain, id, cat)
		}
	}
	return nil
}
