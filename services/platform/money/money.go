// Package money writes amounts for people the same way in every service and
// email: thousands grouped, the currency's symbol before the amount where
// one is unambiguous, else its code after it ("1,250.00 PKR"). Amounts stay
// exact: they arrive as decimal strings or integer minor units, never floats.
package money

import (
	"strconv"
	"strings"
)

// symbols are the currencies written with a symbol; the dollars other than
// the US one carry their country so no amount is ambiguous.
var symbols = map[string]string{"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹",
	"CAD": "CA$", "AUD": "A$", "NZD": "NZ$"}

// Symbol returns the symbol written before amounts of a currency, and
// whether it has one.
func Symbol(currency string) (string, bool) {
	s, ok := symbols[strings.ToUpper(currency)]
	return s, ok
}

// Text writes a decimal amount ("2062.01", "-15", "1234567.5") for people:
// "$2,062.01", "-€15", "1,234,567.5 PKR"; without a currency, just grouped.
func Text(amount, currency string) string {
	neg := strings.HasPrefix(amount, "-")
	whole, frac, hasFrac := strings.Cut(strings.TrimPrefix(amount, "-"), ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	num := b.String()
	if hasFrac {
		num += "." + frac
	}
	sign := ""
	if neg {
		sign = "-"
	}
	if sym, ok := Symbol(currency); ok {
		return sign + sym + num
	}
	if currency != "" {
		return sign + num + " " + strings.ToUpper(currency)
	}
	return sign + num
}

// Decimal writes v minor units with the currency's decimals exactly:
// Decimal(123450, 2) = "1234.50", Decimal(-5, 2) = "-0.05", Decimal(1200, 0) = "1200".
func Decimal(v int64, decimals int) string {
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
	}
	digits := strconv.FormatUint(u, 10)
	if decimals > 0 {
		if len(digits) <= decimals {
			digits = strings.Repeat("0", decimals-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-decimals] + "." + digits[len(digits)-decimals:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}
