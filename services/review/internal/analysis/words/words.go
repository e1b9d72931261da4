// Package words holds the small writing rules every part of the review
// shares: white space, truncation, plurals, lists, prices.
package words

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"uplift.dev/platform/money"
)

// Collapse trims and folds runs of white space into one space.
func Collapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

func ContainsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// Truncate shortens s to at most n bytes at a word boundary, adding "…".
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,.;:-–") + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func Limit(s []string, n int) []string {
	return s[:min(n, len(s))]
}

func TitleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// JoinAnd joins "a", "a and b", "a, b and c".
func JoinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

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

// Money formats an amount for people: "$12", "$12.50", "€1,299".
func Money(v float64, currency string) string {
	var num string
	if v == math.Trunc(v) {
		num = groupThousands(strconv.FormatFloat(v, 'f', 0, 64))
	} else {
		num = groupThousands(strconv.FormatFloat(v, 'f', 2, 64))
	}
	if sym, ok := money.Symbol(currency); ok {
		return sym + num
	}
	if currency != "" {
		return num + " " + currency
	}
	return num
}

func groupThousands(s string) string {
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return b.String()
}

func FirstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func First(s []string) string {
	if len(s) > 0 {
		return s[0]
	}
	return ""
}

// OneStop ends every sentence with one full stop where a name that ends in
// its own ("Fernhill Tea Co.") closes the sentence and the sentence's stop
// was added after it ("… to Fernhill Tea Co.."). Only a pair of dots after
// a word and before a space, a quote, a bracket or the end is folded: an
// ellipsis ("…" or "...") and a path ("../") are left as they are.
func OneStop(s string) string {
	if !strings.Contains(s, "..") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '.' {
			b.WriteByte(s[i])
			continue
		}
		j := i
		for j < len(s) && s[j] == '.' {
			j++
		}
		if j-i == 2 && i > 0 && !isSpaceByte(s[i-1]) && (j == len(s) || endsSentence(s[j])) {
			b.WriteByte('.')
		} else {
			b.WriteString(s[i:j])
		}
		i = j - 1
	}
	return b.String()
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// endsSentence reports whether c may follow a sentence's last full stop.
func endsSentence(c byte) bool {
	return isSpaceByte(c) || strings.IndexByte(`"')]}*_`, c) >= 0
}
