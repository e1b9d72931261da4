package domain

import (
	"errors"
	"strings"

	"uplift.dev/platform/money"
)

// minorUnits lists the ISO 4217 currencies whose minor unit is not 2, so
// amounts are stored and shown with exactly the decimals the currency has.
var minorUnits = map[string]int{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
	"PYG": 0, "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
	"CLF": 4, "UYW": 4,
}

// MinorUnits is how many decimals the currency's minor unit has (ISO 4217).
// Unknown codes get 2, the common case, rather than an error, so a new
// currency still shows sensible numbers.
func MinorUnits(currency string) int {
	if n, ok := minorUnits[strings.ToUpper(strings.TrimSpace(currency))]; ok {
		return n
	}
	return 2
}

// FormatMoney writes an amount as a plain decimal with the currency's
// decimals ("16940.00", "-5.50", "1200" for JPY): no symbol and no grouping,
// because the API and the web format for people, not this package.
func FormatMoney(m Money, currency string) string {
	return money.Decimal(int64(m), MinorUnits(currency))
}

// errBadMoney is returned for anything ParseMoney refuses.
var errBadMoney = errors.New("not an amount like 19.99")

// ParseMoney reads a plain decimal amount exactly into minor units. It
// accepts an optional leading "-", digits, and an optional "." followed by
// at most the currency's decimals ("19.99", "19.9", "19", "-3.00"); more
// decimals are accepted only when the extra ones are zeros ("1200.00" in
// JPY). It refuses grouping separators ("1,299.00"), symbols, exponents and
// empty strings: Shopify's exports never write them, and in many locales a
// comma is the decimal mark, so guessing would silently multiply amounts.
func ParseMoney(s, currency string) (Money, error) {
	return ParseMoneyDecimals(s, MinorUnits(currency))
}

// ParseMoneyDecimals is ParseMoney for a currency with e decimals
// (MinorUnits), for a caller that reads many amounts in one currency.
func ParseMoneyDecimals(s string, e int) (Money, error) {
	neg := false
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" || (hasDot && frac == "") {
		return 0, errBadMoney
	}
	var v uint64
	const limit = 1 << 63
	for i := 0; i < len(intPart); i++ {
		c := intPart[i]
		if c < '0' || c > '9' {
			return 0, errBadMoney
		}
		v = v*10 + uint64(c-'0')
		if v >= limit/1000000 {
			return 0, errBadMoney
		}
	}
	for i := 0; i < len(frac); i++ {
		c := frac[i]
		if c < '0' || c > '9' {
			return 0, errBadMoney
		}
		if i >= e && c != '0' {
			return 0, errBadMoney
		}
	}
	for i := 0; i < e; i++ {
		v *= 10
		if i < len(frac) {
			v += uint64(frac[i] - '0')
		}
	}
	if v >= limit {
		return 0, errBadMoney
	}
	if neg {
		return -Money(v), nil
	}
	return Money(v), nil
}
