package analysis

import "fmt"

// Plural writes a count with the right form of its noun: "1 image has",
// "3 images have".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// SomeOf writes "k of your n products" with the verb agreeing with k:
// ("1 of your 6 products is", "2 of your 6 products are", "your only
// product is").
func SomeOf(k, n int, verbOne, verbMany string) string {
	switch {
	case n == 1:
		return "Your only product " + verbOne
	case k == 1:
		return fmt.Sprintf("1 of your %d products %s", n, verbOne)
	}
	return fmt.Sprintf("%d of your %d products %s", k, n, verbMany)
}

// PriceRange writes "$12–$45", or one price when both ends are the same.
func PriceRange(lo, hi float64, currency string) string {
	if Money(lo, currency) == Money(hi, currency) {
		return Money(lo, currency)
	}
	return Money(lo, currency) + "–" + Money(hi, currency)
}
