package domain

import (
	"cmp"
	"math/big"
	"slices"
	"time"
)

// Windows and thresholds of the store signals (see ComputeSignals).
const (
	// BestSellerDays is the window the best seller is picked in.
	BestSellerDays = 7
	// FallDays is the length of each of the two windows a fall compares.
	FallDays = 14
	// MinFallUnits is the meaningful base of a fall: units sold less units
	// returned in the earlier window.
	MinFallUnits = 5
	// MinFallPercent is the smallest fall worth telling, the same size of
	// move the daily report calls unusual.
	MinFallPercent = unusualPercent
)

// Signals are what a store's own numbers say as of one store-local day, for
// the insights and campaign ideas the categories service writes beside its
// website review. Money is in minor units of Currency.
type Signals struct {
	CategoryID string
	Currency   string
	// AsOf is the last day the signals read (yesterday when computed).
	AsOf Date
	// BestSeller is nil when nothing sold in the BestSellerDays to AsOf.
	BestSeller *BestSeller
	// Falling is nil when no product fell on a meaningful base.
	Falling *FallingProduct
	// UnusualHeadline is the daily report's headline for AsOf when any of
	// its metrics is unusual; empty otherwise.
	UnusualHeadline string
	// Timezone is the store's zone (IANA name or fixed offset), so the
	// categories service schedules the weekly review in the shop's zone.
	Timezone string
}

// BestSeller is the product with the highest net sales in a window.
type BestSeller struct {
	Title    string
	NetSales Money
	// Quantity is units sold less units returned.
	Quantity int64
}

// FallingProduct is a product whose net sales fell between two windows.
type FallingProduct struct {
	Title         string
	Before, After Money
	// Percent is (Before − After) ÷ Before × 100, rounded to a whole
	// percent half away from zero; above 100 when returns outweigh sales.
	Percent int64
}

// ProductDay is one product's sales on one store-local day: what the
// signals are computed from.
type ProductDay struct {
	Date Date
	// Key identifies the product across orders; Title is its name that day
	// (the title of its latest sale).
	Key, Title string
	// Quantity is units sold less units returned.
	Quantity int64
	// NetSales is gross sales − discounts − returns.
	NetSales Money
}

// SignalsDay is the day signals computed at now describe: yesterday in the
// store's zone, the last whole day, as the daily report reads it.
func SignalsDay(now time.Time, loc *time.Location) Date {
	if loc == nil {
		loc = time.UTC
	}
	return DateOf(now.In(loc)).AddDays(-1)
}

// SignalsFrom is the first day the signals of asOf read: the start of the
// earlier of the two fall windows.
func SignalsFrom(asOf Date) Date { return asOf.AddDays(-2*FallDays + 1) }

// ProductDays is the reference computation of per-product daily sales from
// orders; the database's query must agree with it. Only product lines with
// a product key count; test orders are skipped. A sale counts on the day it
// happened in loc, or with a nil loc in its own offset (an imported file's
// days are the file's). Rows are ordered by day, then key.
func ProductDays(orders []Order, loc *time.Location, from, to Date) []ProductDay {
	type key struct {
		day Date
		key string
	}
	type acc struct {
		ProductDay
		latest time.Time
	}
	byKey := map[key]*acc{}
	for _, o := range orders {
		if o.Test {
			continue
		}
		for _, s := range o.Sales {
			if s.Line != LineProduct || s.ProductKey == "" {
				continue
			}
			t := s.HappenedAt
			if loc != nil {
				t = t.In(loc)
			}
			d := DateOf(t)
			if d.Before(from) || d.After(to) {
				continue
			}
			k := key{d, s.ProductKey}
			a := byKey[k]
			if a == nil {
				a = &acc{ProductDay: ProductDay{Date: d, Key: s.ProductKey}}
				byKey[k] = a
			}
			if a.latest.IsZero() || !s.HappenedAt.Before(a.latest) {
				a.latest, a.Title = s.HappenedAt, s.ProductTitle
			}
			a.Quantity += s.Quantity
			a.NetSales += Classify(s).Net()
		}
	}
	out := make([]ProductDay, 0, len(byKey))
	for _, a := range byKey {
		out = append(out, a.ProductDay)
	}
	sortProductDays(out)
	return out
}

func sortProductDays(ds []ProductDay) {
	slices.SortFunc(ds, func(a, b ProductDay) int {
		if c := DaysBetween(b.Date, a.Date); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	})
}

// window is one product's sums over a range of days.
type window struct {
	title    string
	titleDay Date
	quantity int64
	net      Money
}

// sumWindow adds the product days of [from, to] by product key. A product's
// title is the one of its latest day in days, so a renamed product shows
// its current name.
func sumWindow(days []ProductDay, from, to Date) map[string]*window {
	out := map[string]*window{}
	for _, d := range days {
		if d.Date.Before(from) || d.Date.After(to) {
			continue
		}
		w := out[d.Key]
		if w == nil {
			w = &window{}
			out[d.Key] = w
		}
		w.quantity += d.Quantity
		w.net += d.NetSales
	}
	for _, d := range days {
		if w := out[d.Key]; w != nil && (w.title == "" || d.Date.After(w.titleDay)) && d.Title != "" {
			w.title, w.titleDay = ClipTitle(d.Title), d.Date
		}
	}
	return out
}

// ComputeSignals says what the product days and the daily report of asOf
// tell about a store.
//
//   - Best seller: the product with the highest positive net sales in the 7
//     days ending on asOf; ties go to more units, then to the title.
//   - Falling product: compare the 14 days ending on asOf with the 14 days
//     before. A product qualifies only on a meaningful base — at least 5
//     units sold less returned and positive net sales in the earlier window
//     — and only when its net sales fell at least 30 %. Of those, the one
//     that lost the most money is named (ties: the bigger fall in percent,
//     then the title). A product that stopped selling altogether fell
//     100 %: that is the case most worth telling. On a smaller base every
//     wobble would be a "fall", and a signal that always alarms is ignored.
//   - Unusual headline: the daily report's headline when any metric in it
//     is unusual (the report's own rule), else empty.
//
// Products without a title cannot be named and are skipped.
func ComputeSignals(categoryID, currency string, asOf Date, days []ProductDay, report DailyReport) Signals {
	s := Signals{CategoryID: categoryID, Currency: currency, AsOf: asOf, UnusualHeadline: UnusualHeadline(report)}

	week := sumWindow(days, asOf.AddDays(-BestSellerDays+1), asOf)
	for _, k := range sortedKeys(week) {
		w := week[k]
		if w.net <= 0 || w.title == "" {
			continue
		}
		b := s.BestSeller
		if b == nil || w.net > b.NetSales || (w.net == b.NetSales &&
			(w.quantity > b.Quantity || (w.quantity == b.Quantity && w.title < b.Title))) {
			s.BestSeller = &BestSeller{Title: w.title, NetSales: w.net, Quantity: w.quantity}
		}
	}

	after := sumWindow(days, asOf.AddDays(-FallDays+1), asOf)
	before := sumWindow(days, asOf.AddDays(-2*FallDays+1), asOf.AddDays(-FallDays))
	all := sumWindow(days, SignalsFrom(asOf), asOf) // for the newest title
	var best *FallingProduct
	var bestDrop Money
	var bestPct *big.Rat
	for _, k := range sortedKeys(before) {
		b := before[k]
		if b.quantity < MinFallUnits || b.net <= 0 {
			continue
		}
		var a Money
		if w := after[k]; w != nil {
			a = w.net
		}
		drop := b.net - a
		pct := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(int64(drop)), big.NewInt(100)), big.NewInt(int64(b.net)))
		if pct.Cmp(big.NewRat(MinFallPercent, 1)) < 0 {
			continue
		}
		title := all[k].title
		if title == "" {
			continue
		}
		if best == nil || drop > bestDrop || (drop == bestDrop && (pct.Cmp(bestPct) > 0 ||
			(pct.Cmp(bestPct) == 0 && title < best.Title))) {
			best = &FallingProduct{Title: title, Before: b.net, After: a, Percent: roundRat(pct, 0)}
			bestDrop, bestPct = drop, pct
		}
	}
	s.Falling = best
	return s
}

// UnusualHeadline is the report's headline when any of its metrics is
// unusual, else empty: a usual day is not news.
func UnusualHeadline(r DailyReport) string {
	for _, m := range r.Metrics {
		if m.Unusual {
			return r.Headline
		}
	}
	return ""
}

func sortedKeys(m map[string]*window) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp.Compare[string])
	return keys
}
