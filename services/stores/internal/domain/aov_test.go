package domain

import (
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// The average order value on Analytics' card and the one a person works
// out from the table by day are one number: for many
// random stores, with discounts, returns of discounted products (some on a
// later day), cancellations and gift cards, the range's AOV equals
// (Σ gross sales − Σ discounts) ÷ Σ orders over the table's own figures as
// the API writes them, rounded once, half away from zero; and without order
// edits that numerator is Shopify's order-time value of the orders placed.
func TestAverageOrderValueAgreesWithTheTable(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 21))
		currency := []string{"USD", "JPY", "EUR"}[rng.IntN(3)]
		from := Date{2026, 10, 20}
		days := 3 + rng.IntN(30)
		to := from.AddDays(days - 1)
		var orders []Order
		var orderTime Money // Shopify's numerator: products' value when ordered
		for i := range 1 + rng.IntN(60) {
			start, _ := from.AddDays(rng.IntN(days)).In(ny)
			when := start.Add(time.Duration(rng.IntN(24*60)) * time.Minute)
			o := Order{ID: string(rune('a' + i)), CreatedAt: when}
			for range 1 + rng.IntN(3) {
				qty := int64(1 + rng.IntN(3))
				price := Money(100 + rng.IntN(20000))
				discount := Money(rng.IntN(int(price)*int(qty)/3 + 1))
				tax := Money(rng.IntN(300))
				total := price*Money(qty) - discount + tax
				o.Sales = append(o.Sales, Sale{HappenedAt: when, Action: ActionOrder, Line: LineProduct,
					Quantity: qty, Total: total, Discount: discount, Tax: tax})
				orderTime += total - tax
				if rng.IntN(3) == 0 { // returned whole, the same day or up to a week later
					back := when.Add(time.Duration(rng.IntN(7*24)) * time.Hour)
					o.Sales = append(o.Sales, Sale{HappenedAt: back, Action: ActionReturn, Line: LineProduct,
						Quantity: -qty, Total: -total, Discount: -discount, Tax: -tax})
				}
			}
			if rng.IntN(5) == 0 {
				o.Sales = append(o.Sales, Sale{HappenedAt: when, Action: ActionOrder, Line: LineGiftCard,
					Quantity: 1, Total: 2500})
			}
			orders = append(orders, o)
		}
		table := DailyTotals(orders, ny, from, to)
		card, ok := AverageOrderValue(SumTotals(table))
		if !ok {
			continue
		}
		// The table's own numbers, as the API writes them.
		var gross, discounts Money
		var n int64
		for _, d := range table {
			g, err1 := ParseMoney(FormatMoney(d.Gross, currency), currency)
			disc, err2 := ParseMoney(FormatMoney(d.Discounts, currency), currency)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			gross, discounts, n = gross+g, discounts+disc, n+d.Orders
		}
		if want := roundHalfAway(big.NewRat(int64(gross-discounts), n)); card != want {
			t.Fatalf("seed %d: card AOV %s, the table's (%s − %s) ÷ %d = %s", seed,
				FormatMoney(card, currency), FormatMoney(gross, currency), FormatMoney(discounts, currency), n,
				FormatMoney(want, currency))
		}
		// Sales after the range's end are outside the table; inside it, the
		// numerator is the orders' value when placed, whatever came back later.
		if inRange := gross - discounts; inRange != orderTime {
			t.Fatalf("seed %d: gross − discounts %d, the orders' value when placed %d", seed, inRange, orderTime)
		}
	}
}

func roundHalfAway(r *big.Rat) Money {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2)).Cmp(r.Denom()) >= 0 {
		if r.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return Money(q.Int64())
}
