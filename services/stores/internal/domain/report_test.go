package domain

import (
	"reflect"
	"strings"
	"testing"
)

// week builds seven prior days from per-day orders (each worth 100.00 of
// total sales and order value) and optional sessions.
func week(orders []int64, sessions, completed int64) []DayTotals {
	var out []DayTotals
	start := Date{2026, 11, 16}
	for i, n := range orders {
		d := DayTotals{Date: start.AddDays(i), Orders: n,
			Amounts: Amounts{Gross: Money(n) * 10000}}
		if sessions > 0 {
			s, c := sessions, completed
			d.Sessions, d.CompletedSessions = &s, &c
		}
		out = append(out, d)
	}
	return out
}

func dayOf(orders, sessions, completed int64) DayTotals {
	d := DayTotals{Date: Date{2026, 11, 23}, Orders: orders,
		Amounts: Amounts{Gross: Money(orders) * 10000}}
	if sessions > 0 {
		d.Sessions, d.CompletedSessions = &sessions, &completed
	}
	return d
}

func metricOf(t *testing.T, r DailyReport, key string) Comparison {
	t.Helper()
	for _, m := range r.Metrics {
		if m.Key == key {
			return m
		}
	}
	t.Fatalf("no metric %q", key)
	return Comparison{}
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestCompareDayOrdersFellSessionsSteady(t *testing.T) {
	t.Parallel()
	prior := week([]int64{20, 20, 20, 20, 20, 20, 20}, 1000, 20)
	r := CompareDay(dayOf(11, 1000, 11), prior, "USD")
	want := "Orders fell 45 % against your 7-day average; sessions held steady, so conversion dropped — check checkout."
	if r.Headline != want {
		t.Errorf("headline = %q\nwant %q", r.Headline, want)
	}
	o := metricOf(t, r, "orders")
	// 11 against 20.0: (11 − 20) / 20 = −45.0 %
	if str(o.Value) != "11" || str(o.Average) != "20.0" || str(o.ChangePercent) != "-45.0" || !o.Unusual {
		t.Errorf("orders = %s %s %s %v", str(o.Value), str(o.Average), str(o.ChangePercent), o.Unusual)
	}
	ts := metricOf(t, r, "totalSales")
	if str(ts.Value) != "1100.00" || str(ts.Average) != "2000.00" || !ts.Unusual || ts.Formula != Formulas["totalSales"] {
		t.Errorf("totalSales = %+v", ts)
	}
	cr := metricOf(t, r, "conversionRate")
	// 11/1000 = 1.10 % against 140/7000 = 2.00 %
	if str(cr.Value) != "1.10" || str(cr.Average) != "2.00" || str(cr.ChangePercent) != "-45.0" || !cr.Unusual {
		t.Errorf("conversionRate = %s %s %s", str(cr.Value), str(cr.Average), str(cr.ChangePercent))
	}
	if a := metricOf(t, r, "averageOrderValue"); str(a.ChangePercent) != "0.0" || a.Unusual {
		t.Errorf("AOV = %+v", a)
	}
	// returns average 0: no change, never unusual
	if rt := metricOf(t, r, "returns"); rt.ChangePercent != nil || rt.Unusual || str(rt.Average) != "0.00" {
		t.Errorf("returns = %+v", rt)
	}
	if len(r.Notes) != 0 {
		t.Errorf("notes = %q (conversion and total sales are explained by the headline)", r.Notes)
	}
	if len(r.Metrics) != 6 {
		t.Errorf("%d metrics, want 6", len(r.Metrics))
	}
}

func TestCompareDaySessionsNotAvailable(t *testing.T) {
	t.Parallel()
	r := CompareDay(dayOf(30, 0, 0), week([]int64{20, 20, 20, 20, 20, 20, 20}, 0, 0), "USD")
	if !strings.HasPrefix(r.Headline, "Orders rose 50 % against your 7-day average; sessions are not available") {
		t.Errorf("headline = %q", r.Headline)
	}
	s, c := metricOf(t, r, "sessions"), metricOf(t, r, "conversionRate")
	if s.Value != nil || s.Average != nil || s.ChangePercent != nil || s.Unusual || c.Value != nil || c.Unusual {
		t.Error("sessions must be unavailable, never estimated")
	}
}

func TestCompareDayUnusualEdges(t *testing.T) {
	t.Parallel()
	steady := []int64{10, 10, 10, 10, 10, 10, 10}
	cases := []struct {
		name    string
		prior   []int64
		day     int64
		unusual bool
	}{
		{"exactly 30 % up", steady, 13, true},
		{"exactly 30 % down", steady, 7, true},
		{"20 % with no spread", steady, 12, false},
		{"tiny base: 1 a day to 3", []int64{1, 1, 1, 1, 1, 1, 1}, 3, false},
		{"base of exactly 3 a day", []int64{3, 3, 3, 3, 3, 3, 3}, 6, true},
		{"just under 3 a day", []int64{3, 3, 3, 3, 3, 3, 2}, 6, false},
		// mean 71/7 = 10.14, σ = 0.35; 12 is +18.3 % and 5σ away
		{"beyond 2σ and ≥ 15 %", []int64{10, 10, 10, 10, 10, 10, 11}, 12, true},
		// 11 is +8.5 %: under 15 % however far in σ
		{"beyond 2σ but under 15 %", []int64{10, 10, 10, 10, 10, 10, 11}, 11, false},
		// mean 10, σ = 4.1; 12.0 is +20 % but within 2σ
		{"≥ 15 % within 2σ", []int64{5, 15, 5, 15, 10, 10, 10}, 12, false},
		{"zero average", []int64{0, 0, 0, 0, 0, 0, 0}, 12, false},
	}
	for _, c := range cases {
		r := CompareDay(dayOf(c.day, 0, 0), week(c.prior, 0, 0), "USD")
		if got := metricOf(t, r, "orders").Unusual; got != c.unusual {
			t.Errorf("%s: unusual = %v, want %v (%s)", c.name, got, c.unusual, str(metricOf(t, r, "orders").ChangePercent))
		}
	}
}

func TestCompareDayNothingToCompare(t *testing.T) {
	t.Parallel()
	for _, prior := range [][]DayTotals{nil, week([]int64{0, 0, 0, 0, 0, 0, 0}, 0, 0)} {
		r := CompareDay(dayOf(4, 0, 0), prior, "EUR")
		if r.Headline != "There is nothing to compare with yet: the 7 days before had no orders or sales." {
			t.Errorf("headline = %q", r.Headline)
		}
		if len(r.Notes) != 1 || r.Notes[0] != "This day had 4 orders and 400.00 in total sales." {
			t.Errorf("notes = %q", r.Notes)
		}
		o := metricOf(t, r, "orders")
		if o.ChangePercent != nil || o.Unusual || str(o.Value) != "4" {
			t.Errorf("orders = %+v", o)
		}
		if len(prior) == 0 && o.Average != nil {
			t.Error("no prior days means no average")
		}
	}
}

func TestCompareDayUsualAndReturns(t *testing.T) {
	t.Parallel()
	prior := week([]int64{10, 10, 10, 10, 10, 10, 10}, 0, 0)
	r := CompareDay(dayOf(11, 0, 0), prior, "USD")
	if r.Headline != "Sales were 10 % above your 7-day average, within your usual range." {
		t.Errorf("headline = %q", r.Headline)
	}
	// returns: 100.00 a day on average (one order's value), then 300.00
	for i := range prior {
		prior[i].Returns = 10000
	}
	d := dayOf(10, 0, 0)
	d.Returns = 30000
	r = CompareDay(d, prior, "USD")
	rt := metricOf(t, r, "returns")
	// total sales 1000.00 − 300.00 = 700.00 against 900.00: −22.2 %, not unusual; returns +200 %
	if !rt.Unusual || str(rt.ChangePercent) != "200.0" || metricOf(t, r, "totalSales").Unusual {
		t.Errorf("returns = %+v, total = %+v", rt, metricOf(t, r, "totalSales"))
	}
	if r.Headline != "Returns rose 200 % against your 7-day average — check which products came back." {
		t.Errorf("headline = %q", r.Headline)
	}
	// below one order's value a day, returns are never unusual
	for i := range prior {
		prior[i].Returns = 5000
	}
	if metricOf(t, CompareDay(d, prior, "USD"), "returns").Unusual {
		t.Error("returns on a small base must not be unusual")
	}
}

func TestCompareDaySpendPerOrder(t *testing.T) {
	t.Parallel()
	prior := week([]int64{10, 10, 10, 10, 10, 10, 10}, 0, 0)
	d := dayOf(10, 0, 0)
	d.Gross = 150000 // 10 orders worth 150.00 each
	r := CompareDay(d, prior, "USD")
	want := "Total sales rose 50 % against your 7-day average while orders held steady, so customers spent more per order."
	if r.Headline != want {
		t.Errorf("headline = %q", r.Headline)
	}
	if a := metricOf(t, r, "averageOrderValue"); str(a.Value) != "150.00" || str(a.Average) != "100.00" || !a.Unusual {
		t.Errorf("AOV = %+v", a)
	}
	if len(r.Notes) != 0 {
		t.Errorf("notes = %q", r.Notes)
	}
	// Sessions up with orders: the note explains traffic.
	r = CompareDay(dayOf(20, 2000, 40), week([]int64{10, 10, 10, 10, 10, 10, 10}, 1000, 20), "USD")
	if !strings.HasPrefix(r.Headline, "Orders rose 100 % against your 7-day average; sessions rose too, so more people visited") {
		t.Errorf("headline = %q", r.Headline)
	}
}

func TestCompareDayNotes(t *testing.T) {
	t.Parallel()
	prior := week([]int64{20, 20, 20, 20, 20, 20, 20}, 1000, 20)
	for i := range prior {
		prior[i].Returns = 10000 // one average order's value a day
	}
	d := dayOf(11, 1000, 11)
	d.Returns = 40000
	r := CompareDay(d, prior, "USD")
	if !strings.HasPrefix(r.Headline, "Orders fell 45 % against your 7-day average; sessions held steady") {
		t.Errorf("headline = %q", r.Headline)
	}
	// returns 400.00 against 100.00: +300 %; total sales (1100 − 400) against (2000 − 100) is −63.2 %,
	// explained with orders
	want := []string{"Returns rose 300 % against your 7-day average — check which products came back."}
	if !reflect.DeepEqual(r.Notes, want) {
		t.Errorf("notes = %q", r.Notes)
	}
}

// Sessions are whole visits, on average too: a week of
// 100 and 101 sessions a day averages "100", not "100.4".
func TestSessionsAverageIsWhole(t *testing.T) {
	t.Parallel()
	prior := week([]int64{5, 5, 5, 5, 5, 5, 5}, 100, 2)
	for i := range 3 {
		s := int64(101)
		prior[i].Sessions = &s
	}
	r := CompareDay(dayOf(5, 90, 2), prior, "USD")
	m := metricOf(t, r, "sessions")
	if str(m.Average) != "100" || str(m.Value) != "90" {
		t.Errorf("sessions value %q, average %q; want 90 and 100", str(m.Value), str(m.Average))
	}
}
