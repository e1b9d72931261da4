package domain

import (
	"strconv"
	"time"
)

// Formulas are the definitions shown to people next to each number, keyed
// like the API's metric keys. They are the single wording the API and the
// web use, so a number is never explained two ways.
var Formulas = map[string]string{
	"netSales":          "Net sales = gross sales − discounts − returns",
	"totalSales":        "Total sales = net sales + shipping + duties + additional fees + taxes",
	"averageOrderValue": "Average order value = (gross sales − discounts) ÷ orders",
	"conversionRate":    "Conversion rate = sessions that completed checkout ÷ sessions",
	"orders":            "Orders = orders placed (test and deleted orders excluded)",
	"returns":           "Returns = value of goods returned (after their discounts), on the day processed",
	"grossSales":        "Gross sales = price × quantity before discounts (gift cards excluded)",
	"sessions":          "Sessions = online-store sessions, from Shopify's analytics",
}

// Amounts are the money columns of Shopify's sales report. Keeping every
// column (not just totals) lets a day be re-added, compared with Shopify's
// own figures and explained line by line.
type Amounts struct {
	Gross, Discounts, Returns, Shipping, Duties, AdditionalFees, Taxes, Tips, GiftCards Money
}

// Classify puts one sale into the report's columns (research 6.2), so the
// same rule serves the stored per-sale rows, the reference computation and
// the tests. Discounts are the discounts given when products were sold; a
// returned product is valued after its discount (what the customer paid for
// it), so its discount is not reversed in the discounts column. Net sales
// come out the same either way, and gross sales − discounts stays the value
// of the orders placed, which is what the average order value divides.
func Classify(s Sale) Amounts {
	a := Amounts{Taxes: s.Tax}
	net := s.Total - s.Tax
	switch s.Line {
	case LineProduct:
		if s.Action == ActionReturn {
			a.Returns = -net
		} else {
			a.Gross = net + s.Discount
			a.Discounts = s.Discount
		}
	case LineShipping:
		a.Shipping = net
	case LineDuty:
		a.Duties = net
	case LineAdditionalFee, LineFee:
		a.AdditionalFees = net
	case LineGiftCard:
		a.GiftCards = net
	case LineTip:
		a.Tips = net
	}
	return a
}

// Add sums column by column, so days and ranges add up exactly.
func (a Amounts) Add(b Amounts) Amounts {
	return Amounts{
		Gross: a.Gross + b.Gross, Discounts: a.Discounts + b.Discounts, Returns: a.Returns + b.Returns,
		Shipping: a.Shipping + b.Shipping, Duties: a.Duties + b.Duties,
		AdditionalFees: a.AdditionalFees + b.AdditionalFees, Taxes: a.Taxes + b.Taxes,
		Tips: a.Tips + b.Tips, GiftCards: a.GiftCards + b.GiftCards,
	}
}

// Net is Shopify's net sales: gross sales − discounts − returns.
func (a Amounts) Net() Money { return a.Gross - a.Discounts - a.Returns }

// TotalSales is Shopify's total sales: net sales + shipping + duties +
// additional fees + taxes. Tips and gift cards are not sales of goods and
// stay out, as in Shopify's report.
func (a Amounts) TotalSales() Money {
	return a.Net() + a.Shipping + a.Duties + a.AdditionalFees + a.Taxes
}

// Counts reports whether an order is counted in "orders": test orders and
// gift-card-only orders are not, as on Shopify's "Total orders" card;
// cancelled, pending and unpaid ones are (for Shopify; a WooCommerce
// order's platform rule is its NotCounted). An order whose order-time sales
// are all gift cards is gift-card-only even if the flag was not set.
func Counts(o Order) bool {
	if o.Test || o.GiftCardOnly || o.NotCounted {
		return false
	}
	giftCards, others := 0, 0
	for _, s := range o.Sales {
		if s.Action != ActionOrder {
			continue
		}
		switch s.Line {
		case LineGiftCard:
			giftCards++
		case LineProduct:
			others++
		}
	}
	return giftCards == 0 || others > 0
}

// DayTotals are one store-local day's numbers. Sessions and
// CompletedSessions come only from Shopify's analytics and are nil when it
// did not report them: they are never estimated from orders.
type DayTotals struct {
	Date   Date
	Orders int64
	Amounts
	Sessions, CompletedSessions *int64
}

// DailyTotals is the reference computation of the daily numbers from
// orders: the database's aggregates must agree with it. Every day of
// [from, to] is present, zero-filled. A sale counts on the day it happened
// and an order on the day it was created, both in loc; with a nil loc each
// time keeps its own offset (an imported file's days are the file's).
// Test orders are skipped; deleted orders are simply not passed in.
func DailyTotals(orders []Order, loc *time.Location, from, to Date) []DayTotals {
	n := DaysBetween(from, to) + 1
	if n <= 0 {
		return nil
	}
	out := make([]DayTotals, n)
	for i := range out {
		out[i].Date = from.AddDays(i)
	}
	base := from.days()
	index := func(t time.Time) int {
		if loc != nil {
			t = t.In(loc)
		}
		i := DateOf(t).days() - base
		if i < 0 || i >= int64(n) {
			return -1
		}
		return int(i)
	}
	for _, o := range orders {
		if o.Test {
			continue
		}
		if i := index(o.CreatedAt); i >= 0 && Counts(o) {
			out[i].Orders++
		}
		for _, s := range o.Sales {
			if i := index(s.HappenedAt); i >= 0 {
				out[i].Amounts = out[i].Amounts.Add(Classify(s))
			}
		}
	}
	return out
}

// SumTotals adds days into one range total, dated with the first day.
// Sessions are summed only when every day has them: a partial sum would
// understate traffic and look like a real number.
func SumTotals(days []DayTotals) DayTotals {
	var t DayTotals
	if len(days) == 0 {
		return t
	}
	t.Date = days[0].Date
	var sessions, completed int64
	all := true
	for _, d := range days {
		t.Orders += d.Orders
		t.Amounts = t.Amounts.Add(d.Amounts)
		if d.Sessions == nil || d.CompletedSessions == nil {
			all = false
			continue
		}
		sessions += *d.Sessions
		completed += *d.CompletedSessions
	}
	if all {
		t.Sessions, t.CompletedSessions = &sessions, &completed
	}
	return t
}

// roundDiv divides rounding half away from zero, as money is rounded for
// people; b must be positive.
func roundDiv(a, b int64) int64 {
	if a >= 0 {
		return (a + b/2) / b
	}
	return -((-a + b/2) / b)
}

// OrderValue is the average order value's numerator: gross sales −
// discounts, the products' value when they were sold (Shopify's definition
// since 2023-01-09: returns do not lower it). It is read from the same
// columns the table by day shows, so a card and a table can never disagree.
func (d DayTotals) OrderValue() Money { return d.Gross - d.Discounts }

// AverageOrderValue is (gross sales − discounts) ÷ orders over exactly the
// day's or range's stored sums, rounded once, to the minor unit, half away
// from zero; false when there were no orders, since an average of nothing
// is not zero.
func AverageOrderValue(d DayTotals) (Money, bool) {
	return AverageOrderValueFor(PlatformShopify, d)
}

// ConversionPercent is sessions that completed checkout ÷ sessions, as a
// percent with two decimals ("2.13"), rounded exactly; false when Shopify's
// analytics gave no sessions, so nothing is ever estimated.
func ConversionPercent(d DayTotals) (string, bool) {
	if d.Sessions == nil || d.CompletedSessions == nil || *d.Sessions <= 0 {
		return "", false
	}
	return fixed(roundDiv(*d.CompletedSessions*10000, *d.Sessions), 2), true
}

// fixed writes v/10^dec as a decimal with dec places.
func fixed(v int64, dec int) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.FormatInt(v, 10)
	for len(s) <= dec {
		s = "0" + s
	}
	if dec > 0 {
		s = s[:len(s)-dec] + "." + s[len(s)-dec:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
