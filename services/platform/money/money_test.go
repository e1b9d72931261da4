package money

import (
	"math"
	"testing"
)

func TestText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ amount, currency, want string }{
		{"2062.01", "USD", "$2,062.01"},
		{"585942.00", "INR", "₹585,942.00"},
		{"-15.00", "EUR", "-€15.00"},
		{"1250.00", "PKR", "1,250.00 PKR"},
		{"1250.00", "pkr", "1,250.00 PKR"},
		{"100", "JPY", "¥100"},
		{"99.5", "CAD", "CA$99.5"},
		{"1234567.5", "", "1,234,567.5"},
		{"0.00", "GBP", "£0.00"},
		{"-1234.5", "SEK", "-1,234.5 SEK"},
	} {
		if got := Text(c.amount, c.currency); got != c.want {
			t.Errorf("Text(%q, %q) = %q, want %q", c.amount, c.currency, got, c.want)
		}
	}
}

func TestDecimal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v        int64
		decimals int
		want     string
	}{
		{123450, 2, "1234.50"}, {-5, 2, "-0.05"}, {0, 2, "0.00"}, {1200, 0, "1200"}, {1, 3, "0.001"},
		{math.MinInt64, 2, "-92233720368547758.08"},
	} {
		if got := Decimal(c.v, c.decimals); got != c.want {
			t.Errorf("Decimal(%d, %d) = %q, want %q", c.v, c.decimals, got, c.want)
		}
	}
}
