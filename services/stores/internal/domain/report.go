package domain

import (
	"fmt"
	"math/big"
	"strings"

	"uplift.dev/platform/money"
)

// Comparison is one number of the daily report against the week before.
// Values are decimal strings (money in the shop's currency, counts with one
// decimal for averages) because the API and the web show them as they are;
// a nil pointer means "not available", never zero.
type Comparison struct {
	// Key is the metric's API name ("totalSales", "orders", …).
	Key, Label, Formula string
	// Value is the day's value; Average is the mean of the prior days (for
	// the ratios it is the ratio of the prior days' sums, so a quiet day
	// does not weigh as much as a busy one).
	Value, Average *string
	// ChangePercent is (value − average) ÷ average × 100 with one decimal;
	// nil when the average is zero or either side is not available.
	ChangePercent *string
	// Unusual marks a change worth a person's attention (see CompareDay).
	Unusual bool
}

// DailyReport is a day against the days before it: the numbers, one
// headline sentence saying what matters most and why, notes for the other
// unusual changes, and Summary, the headline cut to an email subject's
// length ("orders fell 45 %"). Every sentence is built here, from the
// numbers beside it, and the email and the Home card only show it, so the
// two can never tell a day differently.
type DailyReport struct {
	Metrics  []Comparison
	Headline string
	Notes    []string
	Summary  string
	// cause is what the unusual changes point to (see SuggestedAction).
	cause cause
}

// Thresholds of the unusual rule (see CompareDay).
const (
	unusualPercent   = 30 // a change of at least this many percent…
	deviationPercent = 15 // …or at least this much and beyond 2 standard deviations
	minOrdersPerDay  = 3  // order-based metrics need this many orders a day on average
	minSessionsInDay = 30 // session-based metrics need this many sessions a day on average
)

// metric is a comparison with the exact numbers the rule and the sentences
// need.
type metric struct {
	Comparison
	value, avg *big.Rat   // nil when not available
	prior      []*big.Rat // the prior days' values where available
	change     *big.Rat   // percent; nil when not defined
	base       bool       // the average is large enough to judge
}

// CompareDay compares a day with the prior days (normally the seven before
// it) for total sales, orders, average order value, returns, sessions and
// conversion rate.
//
// The unusual rule: a metric is unusual when its base is meaningful and it
// moved a lot. The base is meaningful when the prior days averaged at least
// 3 orders a day (total sales, orders, average order value), at least one
// average order's value of returns a day on top of that (returns), or at
// least 30 sessions a day (sessions, conversion rate). It moved a lot when
// |change| ≥ 30 %, or when |change| ≥ 15 % and the day is more than two
// standard deviations (non-zero) from the prior days' mean. A small shop's
// two orders instead of one is never "unusual": on a tiny base every day
// would be, and a report that always alarms is ignored. Change is not
// defined against a zero average, so such a metric is never unusual either.
//
// When the prior days hold no activity at all the report says there is
// nothing to compare with yet.
func CompareDay(day DayTotals, prior []DayTotals, currency string) DailyReport {
	return CompareDayFor(PlatformShopify, day, prior, currency)
}

// CompareDayFor is CompareDay with the platform's average order value and
// the platform's words for each number (FormulasFor).
func CompareDayFor(platform Platform, day DayTotals, prior []DayTotals, currency string) DailyReport {
	n := int64(len(prior))
	sum := SumTotals(prior)
	var sessDays, sessSum, complSum int64
	for _, p := range prior {
		if p.Sessions != nil && p.CompletedSessions != nil {
			sessDays++
			sessSum += *p.Sessions
			complSum += *p.CompletedSessions
		}
	}
	cash := func(r *big.Rat) string { return FormatMoney(Money(roundRat(r, 0)), currency) }
	count := func(r *big.Rat) string { return ratDecimal(r, 1) }
	// Sessions are visits, counted whole even on average: "412 sessions a
	// day", never "412.3".
	visits := func(r *big.Rat) string { return ratDecimal(r, 0) }
	percent := func(r *big.Rat) string { return ratDecimal(r, 2) }
	ordersBase := n > 0 && sum.Orders >= minOrdersPerDay*n
	sessionsBase := sessDays > 0 && sessSum >= minSessionsInDay*sessDays

	ms := []*metric{
		{Comparison: Comparison{Key: "totalSales", Label: "Total sales"}, base: ordersBase},
		{Comparison: Comparison{Key: "orders", Label: "Orders"}, base: ordersBase},
		{Comparison: Comparison{Key: "averageOrderValue", Label: "Average order value"}, base: ordersBase},
		{Comparison: Comparison{Key: "returns", Label: "Returns"}},
		{Comparison: Comparison{Key: "sessions", Label: "Sessions"}, base: sessionsBase},
		{Comparison: Comparison{Key: "conversionRate", Label: "Conversion rate"}, base: sessionsBase},
	}
	ratio := func(a, b int64) *big.Rat {
		if b == 0 {
			return nil
		}
		return big.NewRat(a, b)
	}
	valueOf := func(key string, d DayTotals) *big.Rat {
		switch key {
		case "totalSales":
			return big.NewRat(int64(d.TotalSales()), 1)
		case "orders":
			return big.NewRat(d.Orders, 1)
		case "averageOrderValue":
			return ratio(int64(OrderValueFor(platform, d)), d.Orders)
		case "returns":
			return big.NewRat(int64(d.Returns), 1)
		case "sessions":
			if d.Sessions == nil {
				return nil
			}
			return big.NewRat(*d.Sessions, 1)
		default: // conversionRate
			if d.Sessions == nil || d.CompletedSessions == nil || *d.Sessions <= 0 {
				return nil
			}
			return big.NewRat(*d.CompletedSessions*100, *d.Sessions)
		}
	}
	for _, m := range ms {
		m.Formula = FormulasFor(platform)[m.Key]
		m.value = valueOf(m.Key, day)
		for _, p := range prior {
			if v := valueOf(m.Key, p); v != nil {
				m.prior = append(m.prior, v)
			}
		}
		switch m.Key {
		case "averageOrderValue":
			m.avg = ratio(int64(OrderValueFor(platform, sum)), sum.Orders)
		case "conversionRate":
			if sessSum > 0 {
				m.avg = big.NewRat(complSum*100, sessSum)
			}
		case "sessions":
			m.avg = ratio(sessSum, sessDays)
		default:
			m.avg = ratio(int64(valueSum(m.prior)), n)
		}
		if m.Key == "returns" && ordersBase && m.avg != nil && sum.Orders > 0 {
			m.base = m.avg.Cmp(big.NewRat(int64(OrderValueFor(platform, sum)), sum.Orders)) >= 0
		}
		show := count
		switch m.Key {
		case "totalSales", "averageOrderValue", "returns":
			show = cash
		case "conversionRate":
			show = percent
		case "sessions":
			show = visits
		}
		if m.value != nil {
			s := show(m.value)
			if m.Key == "orders" || m.Key == "sessions" {
				s = m.value.Num().String()
			}
			m.Value = &s
		}
		if m.avg != nil {
			s := show(m.avg)
			m.Average = &s
		}
		if m.value != nil && m.avg != nil && m.avg.Sign() != 0 {
			c := new(big.Rat).Sub(m.value, m.avg)
			c.Quo(c, new(big.Rat).Abs(m.avg))
			c.Mul(c, big.NewRat(100, 1))
			m.change = c
			s := ratDecimal(c, 1)
			m.ChangePercent = &s
		}
		m.Unusual = m.base && m.change != nil && moved(m)
	}

	r := DailyReport{Metrics: make([]Comparison, len(ms))}
	for i, m := range ms {
		r.Metrics[i] = m.Comparison
	}
	if sum.Orders == 0 && sum.Amounts == (Amounts{}) && sessSum == 0 {
		r.Headline = "There is nothing to compare with yet: the 7 days before had no orders or sales."
		if day.Orders > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("This day had %d %s and %s in total sales.",
				day.Orders, plural(day.Orders, "order", "orders"), FormatMoney(day.TotalSales(), currency)))
		}
		r.Summary = fmt.Sprintf("%s in sales from %d %s", money.Text(FormatMoney(day.TotalSales(), currency), currency),
			day.Orders, plural(day.Orders, "order", "orders"))
		return r
	}
	r.Headline, r.Notes = explain(ms, currency)
	r.Summary = summary(ms, currency)
	r.cause = causeOf(byKey(ms))
	return r
}

// byKey indexes metrics by their key.
func byKey(ms []*metric) map[string]*metric {
	by := make(map[string]*metric, len(ms))
	for _, m := range ms {
		by[m.Key] = m
	}
	return by
}

// valueSum adds whole-number values (money or counts).
func valueSum(vs []*big.Rat) int64 {
	var s int64
	for _, v := range vs {
		s += v.Num().Int64()
	}
	return s
}

// moved applies the size part of the unusual rule.
func moved(m *metric) bool {
	abs := new(big.Rat).Abs(m.change)
	if abs.Cmp(big.NewRat(unusualPercent, 1)) >= 0 {
		return true
	}
	if abs.Cmp(big.NewRat(deviationPercent, 1)) < 0 || len(m.prior) < 2 {
		return false
	}
	mean := new(big.Rat)
	for _, v := range m.prior {
		mean.Add(mean, v)
	}
	mean.Quo(mean, big.NewRat(int64(len(m.prior)), 1))
	variance := new(big.Rat)
	for _, v := range m.prior {
		d := new(big.Rat).Sub(v, mean)
		variance.Add(variance, d.Mul(d, d))
	}
	variance.Quo(variance, big.NewRat(int64(len(m.prior)), 1))
	if variance.Sign() == 0 {
		return false
	}
	d := new(big.Rat).Sub(m.value, mean)
	d.Mul(d, d)
	return d.Cmp(variance.Mul(variance, big.NewRat(4, 1))) > 0
}

// headlineOrder is the order in which unusual metrics are told: the one
// first in it that is unusual is the headline's.
var headlineOrder = []string{"orders", "totalSales", "conversionRate", "sessions", "averageOrderValue", "returns"}

// explain writes the headline and notes: the most important unusual metric
// with the reason the others suggest, then one sentence per other unusual
// metric.
func explain(ms []*metric, currency string) (headline string, notes []string) {
	by := byKey(ms)
	steady := func(k string) bool { return steady(by[k]) }
	used := map[string]bool{}
	for _, k := range headlineOrder {
		m := by[k]
		if !m.Unusual || used[k] {
			continue
		}
		s := movement(m)
		switch k {
		case "orders":
			switch {
			case by["sessions"].Unusual && sameWay(by["sessions"], m):
				s += fmt.Sprintf("; sessions %s too, so %s people visited — %s", verb(by["sessions"]),
					pick(m, "more", "fewer"), pick(m, "see which traffic source grew.", "check your traffic sources."))
				used["sessions"] = true
			case steady("sessions"):
				s += pick(m, "; sessions held steady, so conversion rose — more visitors bought.",
					"; sessions held steady, so conversion dropped — check checkout.")
				used["conversionRate"] = true
			case by["sessions"].value == nil:
				s += "; sessions are not available, so we cannot tell whether traffic or checkout changed."
			default:
				s += "."
			}
			if by["totalSales"].Unusual && sameWay(by["totalSales"], m) {
				used["totalSales"] = true
			}
		case "totalSales":
			switch {
			case steady("orders") && by["averageOrderValue"].Unusual:
				s += pick(m, " while orders held steady, so customers spent more per order.",
					" while orders held steady, so customers spent less per order.")
				used["averageOrderValue"] = true
			case by["returns"].Unusual && by["returns"].change.Sign() > 0 && m.change.Sign() < 0:
				s += " because more goods came back — check which products were returned."
				used["returns"] = true
			default:
				s += "."
			}
		case "conversionRate":
			if steady("sessions") {
				s += pick(m, "; sessions held steady, so more visitors bought.",
					"; sessions held steady, so fewer visitors bought — check checkout.")
			} else {
				s += "."
			}
		case "sessions":
			if steady("conversionRate") {
				s += pick(m, "; conversion held, so more visits should mean more orders.",
					"; conversion held, so fewer visits mean fewer orders — check your traffic sources.")
			} else {
				s += "."
			}
		case "averageOrderValue":
			s += pick(m, "; customers bought more per order.", "; customers bought less per order.")
		case "returns":
			s += pick(m, " — check which products came back.", ".")
		}
		used[k] = true
		if headline == "" {
			headline = s
		} else {
			notes = append(notes, s)
		}
	}
	if headline == "" {
		headline = usualDay(by["totalSales"], currency)
	}
	return headline, notes
}

// usualDay is the headline of a day on which nothing was unusual: what
// total sales did against the average, in the figure the report shows
// beside it, and whether the rule judged that (only a meaningful base is
// judged: a small shop's day is neither "usual" nor "unusual").
func usualDay(ts *metric, currency string) string {
	if ts.change == nil {
		if ts.Value == nil {
			return "There are no sales to compare with your 7-day average."
		}
		return fmt.Sprintf("Sales were %s; the 7 days before had no sales to compare them with.", money.Text(*ts.Value, currency))
	}
	var s string
	switch pct := wholePercent(ts); {
	case pct == 0:
		s = "Sales were in line with your 7-day average"
	default:
		s = fmt.Sprintf("Sales were %d %% %s your 7-day average", pct, pick(ts, "above", "below"))
	}
	if ts.base {
		return s + ", within your usual range."
	}
	return fmt.Sprintf("%s; with fewer than %d orders a day before it, no change is called unusual yet.", s, minOrdersPerDay)
}

// summary is the report in a few words for an email's subject: the first
// unusual change ("orders fell 45 %"), else the day's sales against the
// average, in the same figures as the headline.
func summary(ms []*metric, currency string) string {
	by := byKey(ms)
	for _, k := range headlineOrder {
		if m := by[k]; m.Unusual {
			return strings.ToLower(m.Label[:1]) + m.Label[1:] + " " + verb(m) + fmt.Sprintf(" %d %%", wholePercent(m))
		}
	}
	ts := by["totalSales"]
	if ts.Value == nil {
		return "no sales"
	}
	s := money.Text(*ts.Value, currency) + " in sales"
	switch {
	case ts.change == nil:
		return s
	case wholePercent(ts) == 0:
		return s + ", in line with your 7-day average"
	}
	return s + fmt.Sprintf(", %d %% %s your 7-day average", wholePercent(ts), pick(ts, "above", "below"))
}

// steady says a metric held: the rule judged it (a meaningful base) and it
// moved less than the smallest change the rule would ever flag.
func steady(m *metric) bool {
	return m.base && m.change != nil && new(big.Rat).Abs(m.change).Cmp(big.NewRat(deviationPercent, 1)) < 0
}

// wholePercent is a change's size in whole percent, rounded from the
// one-decimal figure the report shows (ChangePercent), so a sentence never
// says 45 % beside a "−44.4 %" it was not rounded from.
func wholePercent(m *metric) int64 {
	shown, _ := new(big.Rat).SetString(*m.ChangePercent)
	return roundRat(shown.Abs(shown), 0)
}

// roundRat is r × 10^dec rounded half away from zero.
func roundRat(r *big.Rat, dec int) int64 {
	num := new(big.Int).Mul(r.Num(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(dec)), nil))
	den := r.Denom()
	neg := num.Sign() < 0
	num.Abs(num)
	num.Mul(num, big.NewInt(2)).Add(num, den)
	num.Quo(num, new(big.Int).Mul(den, big.NewInt(2)))
	if neg {
		num.Neg(num)
	}
	return num.Int64()
}

// ratDecimal writes r with dec decimals, rounded half away from zero.
func ratDecimal(r *big.Rat, dec int) string { return fixed(roundRat(r, dec), dec) }

// movement is the start of a sentence: "Orders fell 45 % against your 7-day average".
func movement(m *metric) string {
	return fmt.Sprintf("%s %s %d %% against your 7-day average", m.Label, verb(m), wholePercent(m))
}

// verb says which way a metric moved.
func verb(m *metric) string { return pick(m, "rose", "fell") }

// pick chooses the wording for a rise or a fall.
func pick(m *metric, up, down string) string {
	if m.change != nil && m.change.Sign() < 0 {
		return down
	}
	return up
}

// sameWay reports whether two metrics moved in the same direction.
func sameWay(a, b *metric) bool {
	return a.change != nil && b.change != nil && a.change.Sign() == b.change.Sign()
}

// plural picks the word for a count.
func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
