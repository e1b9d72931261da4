package analysis

import "fmt"

// plural writes a count with the right form of its noun: "1 image has",
// "3 images have".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// someOf writes "k of your n products" with the verb agreeing with k:
// ("1 of your 6 products is", "2 of your 6 products are", "your only
// product is").
func someOf(k, n int, verbOne, verbMany string) string {
	switch {
	case n == 1:
		return "Your only product " + verbOne
	case k == 1:
		return fmt.Sprintf("1 of your %d products %s", n, verbOne)
	}
	return fmt.Sprintf("%d of your %d products %s", k, n, verbMany)
}

// priceRange writes "$12–$45", or one price when both ends are the same.
func priceRange(lo, hi float64, currency string) string {
	if money(lo, currency) == money(hi, currency) {
		return money(lo, currency)
	}
	return money(lo, currency) + "–" + money(hi, currency)
}
