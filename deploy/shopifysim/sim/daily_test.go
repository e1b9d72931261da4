package sim

import (
	"testing"
	"time"
)

func TestDailyCountsOrdersAndRefundsOnTheShopsDays(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	// 03:30 UTC on the 18th is the 17th in New York.
	id, err := e.s.AddOrder(testShop, simpleOrder(time.Date(2026, 3, 18, 3, 30, 0, 0, time.UTC)))
	if err != nil {
		t.Fatal(err)
	}
	test := simpleOrder(time.Date(2026, 3, 18, 15, 0, 0, 0, time.UTC))
	test.Test = true
	if _, err := e.s.AddOrder(testShop, test); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Refund(testShop, id, RefundSpec{At: time.Date(2026, 3, 19, 15, 0, 0, 0, time.UTC), Lines: []RefundLine{{Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.s.SetSessions(testShop, "2026-03-18", 40, 2); err != nil {
		t.Fatal(err)
	}
	got, err := e.s.Daily(testShop)
	if err != nil {
		t.Fatal(err)
	}
	want := []ShopDay{
		{Day: "2026-03-17", Orders: 1, Gross: 2140},
		{Day: "2026-03-18", Sessions: 40},
		{Day: "2026-03-19", Refunds: 1, RefundAmount: 2140},
	}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("day %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := e.s.Daily("nope.myshopify.com"); err == nil {
		t.Fatal("an unknown shop gave days")
	}
}
