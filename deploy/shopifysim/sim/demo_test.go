package sim

import (
	"reflect"
	"testing"
	"time"

	"uplift.dev/shopifysim/teashop"
)

func TestSeedDemoIsDeterministicAndPlausible(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
	seed := func() *Server {
		s := New(Options{APIKey: testKey, APISecret: testSecret, Clock: func() time.Time { return now }})
		t.Cleanup(s.Close)
		if err := SeedDemo(s, now); err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := seed(), seed()
	sa, sb := a.shops[DemoShop], b.shops[DemoShop]
	if !reflect.DeepEqual(salesByDay(sa), salesByDay(sb)) || !reflect.DeepEqual(sa.sessions, sb.sessions) || len(sa.orders) != len(sb.orders) {
		t.Fatal("two seeds with the same now differ")
	}
	if len(sa.products) != len(teashop.Catalogue) || len(sa.customers) != 300 || len(sa.orders) < 120*8 || len(sa.orders) > 120*25+10 {
		t.Fatalf("products %d customers %d orders %d", len(sa.products), len(sa.customers), len(sa.orders))
	}
	var tests, cancelled, refunded, gift int
	for _, o := range sa.orders {
		if o.test {
			tests++
		}
		if o.cancelledAt != nil {
			cancelled++
		} else if len(o.agreements) > 1 {
			refunded++
		}
		if o.lines[0].spec.GiftCard {
			gift++
		}
		if !o.createdAt.Before(now) {
			t.Fatalf("order in the future: %v", o.createdAt)
		}
	}
	if tests != 3 || gift != 1 || cancelled == 0 || refunded < 20 {
		t.Fatalf("tests %d gift %d cancelled %d refunded %d", tests, gift, cancelled, refunded)
	}
	yesterday := now.In(sa.loc).AddDate(0, 0, -1).Format("2006-01-02")
	ses := sa.sessions[yesterday]
	if ses[0] == 0 || float64(ses[1])/float64(ses[0]) < 0.019 || float64(ses[1])/float64(ses[0]) > 0.031 {
		t.Fatalf("sessions yesterday: %v", ses)
	}
	if _, ok := sa.sessions[now.In(sa.loc).Format("2006-01-02")]; ok {
		t.Fatal("the demo must end yesterday")
	}
}

// The demo shop is the demo website's business: every product the website
// sells, with its handle, price and photo, and every order line one of them
// (or the business's gift card), so ideas drawn from both never mix two shops.
func TestSeedDemoSellsTheTeaShopsCatalogue(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
	s := New(Options{APIKey: testKey, APISecret: testSecret, Clock: func() time.Time { return now }, DemoStoreURL: "http://127.0.0.1:9400/"})
	t.Cleanup(s.Close)
	if err := SeedDemo(s, now); err != nil {
		t.Fatal(err)
	}
	sh := s.shops[DemoShop]
	if sh.spec.Name != teashop.Name {
		t.Fatalf("shop name %q, want %q", sh.spec.Name, teashop.Name)
	}
	titles := map[string]bool{teashop.Name + " Gift Card": true}
	for _, want := range teashop.Catalogue {
		p, ok := sh.products[want.ID]
		if !ok {
			t.Fatalf("no product %d (%s)", want.ID, want.Title)
		}
		got := [4]any{p.title, p.handle, p.price, p.imageURL}
		exp := [4]any{want.Title, want.Handle, want.PriceCents, "http://127.0.0.1:9400/photos/" + want.Handle + ".jpg"}
		if got != exp {
			t.Errorf("product %d: %v, want %v", want.ID, got, exp)
		}
		titles[want.Title] = true
	}
	for _, o := range sh.orders {
		for _, l := range o.lines {
			if !titles[l.spec.Title] {
				t.Fatalf("order %s sells %q, which the tea shop does not", o.name, l.spec.Title)
			}
		}
	}
}
