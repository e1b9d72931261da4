package sim

import (
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"uplift.dev/shopifysim/teashop"
)

// demoDays is how much history the demo store has, ending yesterday (store time).
const demoDays = 120

const (
	demoCustomers  = 300
	demoTaxPercent = 7
	demoZone       = "America/New_York"
	demoCoupon     = "WELCOME10"
	// demoProductID is the first product's post id; WordPress numbers posts
	// from 1 and a fresh store's first products come soon after the pages.
	demoProductID = 11
)

// SeedDemo creates the demo store, the demo business's own (package teashop:
// the website the local stack serves and the Shopify simulator's demo shop
// sell the same teas), with ~120 days of history ending the day before now.
func SeedDemo(s *Server, now time.Time) error {
	return SeedDemoAs(s, DemoStore, teashop.Name, now)
}

// SeedDemoAs creates a store with the demo history under another slug and
// name, so each browser test can connect a store of its own. The history
// has a weekly rhythm, a slow upward trend, a dip 8 days ago, a coupon, 7 %
// tax on goods and shipping, refunds (most on a later day than their
// order), and cancelled, failed, pending and on-hold orders, which
// WooCommerce's Analytics leaves out. It is deterministic: the same now
// gives the same store.
func SeedDemoAs(s *Server, slug, name string, now time.Time) error {
	if err := s.CreateStore(StoreSpec{Slug: slug, Name: name, Currency: "USD", Timezone: demoZone, TaxPercent: demoTaxPercent}); err != nil {
		return err
	}
	loc, _ := time.LoadLocation(demoZone)
	r := rand.New(rand.NewPCG(20261203, 7))
	ln := now.In(loc)
	today := time.Date(ln.Year(), ln.Month(), ln.Day(), 0, 0, 0, 0, loc)
	start := today.AddDate(0, 0, -demoDays)

	s.mu.Lock()
	st := s.stores[slug]
	for i, p := range teashop.Catalogue {
		spec := ProductSpec{ID: int64(demoProductID + i), Name: p.Title, Slug: p.Handle, SKU: p.SKU(), Price: p.PriceCents, Category: p.Type, Status: "publish"}
		if base := strings.TrimSuffix(s.o.DemoStoreURL, "/"); base != "" {
			spec.ImageURL = base + p.PhotoPath()
		}
		at := start.AddDate(0, -6, i)
		st.products[spec.ID] = &product{spec: spec, createdAt: at, updatedAt: at}
	}
	var customers []int64
	for range demoCustomers {
		st.users++
		at := start.AddDate(0, 0, -r.IntN(365)).Add(time.Duration(r.IntN(24*60)) * time.Minute)
		st.customers[st.users] = &customer{id: st.users, createdAt: at, updatedAt: at}
		customers = append(customers, st.users)
	}
	s.mu.Unlock()

	for i := range demoDays {
		// AddDate keeps local midnight across the DST change, where adding 24 h would not.
		day := start.AddDate(0, 0, i)
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
		times := make([]time.Time, n)
		for k := range times {
			times[k] = day.Add(time.Duration(7*60+r.IntN(17*60)) * time.Minute).Add(time.Duration(r.IntN(60)) * time.Second)
		}
		sort.Slice(times, func(a, b int) bool { return times[a].Before(times[b]) })
		for _, at := range times {
			if err := demoOrder(s, slug, r, customers, at, now); err != nil {
				return err
			}
		}
	}
	return nil
}

func demoOrder(s *Server, slug string, r *rand.Rand, customers []int64, at, now time.Time) error {
	nLines := 1
	if r.IntN(10) < 3 {
		nLines++
	}
	if r.IntN(10) < 1 {
		nLines++
	}
	spec := OrderSpec{CreatedAt: at}
	if r.IntN(100) < 12 {
		spec.Coupon = demoCoupon
	}
	var subtotal int64
	for _, pi := range r.Perm(len(teashop.Catalogue))[:nLines] {
		p := teashop.Catalogue[pi]
		qty := int64(1)
		if r.IntN(5) == 0 {
			qty = 2
		}
		var disc int64
		if spec.Coupon != "" {
			disc = p.PriceCents * qty / 10
		}
		subtotal += p.PriceCents*qty - disc
		spec.Lines = append(spec.Lines, LineSpec{ProductID: int64(demoProductID + pi), Quantity: qty, Discount: disc})
	}
	// The website's shipping policy: $5.95, free over $50.
	if subtotal <= 5000 {
		spec.Shipping = 595
	}
	if r.IntN(10) < 7 {
		spec.CustomerID = customers[r.IntN(len(customers))]
	}
	roll := r.IntN(100)
	switch {
	case roll < 2:
		spec.Status = "failed" // the card was declined
	case roll < 4:
		spec.Status = "cancelled" // left unpaid and cancelled when the held stock ran out
	case roll < 5:
		spec.Status = "pending"
	case roll < 7:
		spec.Status = "on-hold" // awaiting a bank transfer
	default:
		spec.Status = "processing"
		if done := at.Add(time.Duration(20+r.IntN(52)) * time.Hour); done.Before(now) {
			spec.Status, spec.CompletedAt = "completed", done
		}
	}
	id, err := s.AddOrder(slug, spec)
	if err != nil || spec.Status == "failed" || spec.Status == "cancelled" || spec.Status == "pending" || spec.Status == "on-hold" {
		return err
	}
	refundRoll := r.IntN(100)
	rat := at.Add(time.Duration(24+r.IntN(4*24)) * time.Hour).Add(time.Duration(r.IntN(60)) * time.Minute)
	if refundRoll >= 6 || !rat.Before(now) {
		return nil
	}
	var rs RefundSpec
	switch {
	case refundRoll < 2: // the whole order back, shipping included
		rs = RefundSpec{Reason: "Arrived damaged", Shipping: true}
		for i, l := range spec.Lines {
			rs.Lines = append(rs.Lines, RefundLine{LineIndex: i, Quantity: l.Quantity})
		}
	case refundRoll < 5:
		rs = RefundSpec{Reason: "Customer changed their mind", Lines: []RefundLine{{LineIndex: 0, Quantity: 1}}}
	default:
		rs = RefundSpec{Reason: "Goodwill: late delivery", Amount: 500}
		rat = at.Add(2 * time.Hour) // the same day: a delay noticed at once
	}
	rs.At = rat
	_, err = s.Refund(slug, id, rs)
	return err
}
