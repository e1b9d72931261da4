package domain

import (
	"testing"
	"time"
)

func at(t testing.TB, loc *time.Location, s string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func product(when time.Time, action Action, total, discount, tax Money) Sale {
	return Sale{HappenedAt: when, Action: action, Line: LineProduct, ProductKey: "p", Quantity: 1,
		Total: total, Discount: discount, Tax: tax}
}

func other(when time.Time, line Line, total, tax Money) Sale {
	return Sale{HappenedAt: when, Action: ActionOrder, Line: line, Quantity: 1, Total: total, Tax: tax}
}

// day is an expected day written out by hand.
type day struct {
	date                                                                   string
	orders                                                                 int64
	value, gross, disc, returns, ship, duties, fees, taxes, tips, gift, ts Money
}

func checkDays(t *testing.T, got []DayTotals, want []day) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d days, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		exp := DayTotals{Date: mustDate(t, w.date), Orders: w.orders, Amounts: Amounts{
			Gross: w.gross, Discounts: w.disc, Returns: w.returns, Shipping: w.ship, Duties: w.duties,
			AdditionalFees: w.fees, Taxes: w.taxes, Tips: w.tips, GiftCards: w.gift}}
		if g != exp {
			t.Errorf("%s:\n got %+v\nwant %+v", w.date, g, exp)
		}
		if g.OrderValue() != w.value {
			t.Errorf("%s: order value %d, want %d", w.date, g.OrderValue(), w.value)
		}
		if g.TotalSales() != w.ts {
			t.Errorf("%s: total sales %d, want %d", w.date, g.TotalSales(), w.ts)
		}
	}
}

// New York: the 2026-11-01 fall-back day lasts 25 hours; a refund just
// after midnight lands on the next day; test, cancelled and gift-card-only
// orders; a tip and a duty.
func TestDailyTotalsNewYork(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	cancel := at(t, ny, "2026-11-02 09:00")
	orders := []Order{
		{ID: "a1", CreatedAt: at(t, ny, "2026-10-31 23:30"), Sales: []Sale{ // 03:30 UTC on Nov 1, still Oct 31 here
			{HappenedAt: at(t, ny, "2026-10-31 23:30"), Action: ActionOrder, Line: LineProduct, Quantity: 2,
				Total: 1944, Discount: 200, Tax: 144}, // 2 × 10.00 − 2.00 + 8 % tax 1.44
			other(at(t, ny, "2026-10-31 23:30"), LineShipping, 500, 0),
			// one item returned 40 minutes later, after midnight: −(10.00 − 1.00 + 0.72)
			{HappenedAt: at(t, ny, "2026-11-01 00:10"), Action: ActionReturn, Line: LineProduct, Quantity: -1,
				Total: -972, Discount: -100, Tax: -72},
		}},
		{ID: "a2", CreatedAt: at(t, ny, "2026-11-01 23:30"), Sales: []Sale{ // the 25th hour's evening
			product(at(t, ny, "2026-11-01 23:30"), ActionOrder, 5400, 0, 400),
			other(at(t, ny, "2026-11-01 23:30"), LineTip, 300, 0),
			other(at(t, ny, "2026-11-01 23:30"), LineDuty, 250, 0),
		}},
		{ID: "a3", Test: true, CreatedAt: at(t, ny, "2026-11-01 12:00"), Sales: []Sale{
			product(at(t, ny, "2026-11-01 12:00"), ActionOrder, 10000, 0, 0)}},
		{ID: "a4", CreatedAt: at(t, ny, "2026-11-01 10:00"), CancelledAt: &cancel, Sales: []Sale{
			product(at(t, ny, "2026-11-01 10:00"), ActionOrder, 3000, 0, 0),
			product(cancel, ActionReturn, -3000, 0, 0)}},
		{ID: "a5", GiftCardOnly: true, CreatedAt: at(t, ny, "2026-11-02 12:00"), Sales: []Sale{
			other(at(t, ny, "2026-11-02 12:00"), LineGiftCard, 2500, 0)}},
		{ID: "a6", CreatedAt: at(t, ny, "2026-11-02 01:30"), Sales: []Sale{
			product(at(t, ny, "2026-11-02 01:30"), ActionOrder, 3000, 1000, 0), // 40.00 − 10.00
			other(at(t, ny, "2026-11-02 01:30"), LineGiftCard, 2000, 0)}},
		// 01:30 happens twice on Nov 1: this is the second one (EST), 06:30 UTC.
		{ID: "a7", CreatedAt: time.Date(2026, 11, 1, 6, 30, 0, 0, time.UTC), Sales: []Sale{
			product(time.Date(2026, 11, 1, 6, 30, 0, 0, time.UTC), ActionOrder, 500, 0, 0)}},
	}
	got := DailyTotals(orders, ny, mustDate(t, "2026-10-31"), mustDate(t, "2026-11-03"))
	checkDays(t, got, []day{
		// Oct 31: a1. gross 2×10.00; disc 2.00; value 20.00−2.00; total 18.00+5.00+1.44
		{date: "2026-10-31", orders: 1, value: 1800, gross: 2000, disc: 200, ship: 500, taxes: 144, ts: 2444},
		// Nov 1: a2, a4, a7 (a3 is a test). gross 50.00+30.00+5.00 = 85.00; a1's return, valued after
		// its discount: returns 10.00−1.00 = 9.00, taxes −0.72; taxes 4.00−0.72 = 3.28;
		// net 85.00−9.00 = 76.00; total 76.00 + duties 2.50 + 3.28 = 81.78; the tip stays apart.
		{date: "2026-11-01", orders: 3, value: 8500, gross: 8500, returns: 900, duties: 250,
			taxes: 328, tips: 300, ts: 8178},
		// Nov 2: a6 counted, a5 (gift cards only) not. gross 40.00, disc 10.00, a4's cancel returns 30.00;
		// net 40.00−10.00−30.00 = 0; gift cards 25.00+20.00 apart.
		{date: "2026-11-02", orders: 1, value: 3000, gross: 4000, disc: 1000, returns: 3000, gift: 4500, ts: 0},
		{date: "2026-11-03"},
	})
	if aov, ok := AverageOrderValue(got[1]); !ok || aov != 2833 { // 85.00 / 3 = 28.333…
		t.Errorf("AOV = %d, %v, want 2833", aov, ok)
	}
	if _, ok := AverageOrderValue(got[3]); ok {
		t.Error("AOV of a day without orders must be unavailable")
	}
	// The same orders counted in UTC move a1 to Nov 1: the zone matters.
	utc := DailyTotals(orders, time.UTC, mustDate(t, "2026-10-31"), mustDate(t, "2026-10-31"))
	if utc[0].Orders != 0 {
		t.Errorf("in UTC Oct 31 has %d orders, want 0", utc[0].Orders)
	}
}

// Kolkata (+05:30, INR): orders just after and before midnight, a full
// refund processed five minutes into the next day.
func TestDailyTotalsKolkata(t *testing.T) {
	t.Parallel()
	kol, _ := time.LoadLocation("Asia/Kolkata")
	orders := []Order{
		{ID: "b1", CreatedAt: at(t, kol, "2026-03-10 23:45"), Sales: []Sale{ // 18:15 UTC
			{HappenedAt: at(t, kol, "2026-03-10 23:45"), Action: ActionOrder, Line: LineProduct, Quantity: 3,
				Total: 176646, Tax: 26946}, // 3 × 499.00 + 18 % GST 269.46
			other(at(t, kol, "2026-03-10 23:45"), LineShipping, 5782, 882), // 49.00 + 8.82
		}},
		{ID: "b2", CreatedAt: at(t, kol, "2026-03-10 00:15"), Sales: []Sale{ // 18:45 UTC on Mar 9
			product(at(t, kol, "2026-03-10 00:15"), ActionOrder, 106200, 10000, 16200), // 1000 − 100 + 162
			product(at(t, kol, "2026-03-11 00:05"), ActionReturn, -106200, -10000, -16200),
		}},
	}
	got := DailyTotals(orders, kol, mustDate(t, "2026-03-10"), mustDate(t, "2026-03-11"))
	checkDays(t, got, []day{
		// value 1497.00 + 900.00; gross 1497.00 + 1000.00; taxes 269.46 + 8.82 + 162.00 = 440.28;
		// net 2497.00 − 100.00 = 2397.00; total 2397.00 + 49.00 + 440.28 = 2886.28
		{date: "2026-03-10", orders: 2, value: 239700, gross: 249700, disc: 10000, ship: 4900, taxes: 44028, ts: 288628},
		// the refund, valued after its discount: returns 1000.00 − 100.00 = 900.00, taxes −162.00;
		// net −900.00; total −900.00 − 162.00 = −1062.00
		{date: "2026-03-11", returns: 90000, taxes: -16200, ts: -106200},
	})
	if aov, ok := AverageOrderValue(got[0]); !ok || aov != 119850 { // 2397.00 / 2
		t.Errorf("AOV = %d, want 119850", aov)
	}
}

// Sydney, prices including GST, across the 23-hour 2026-10-04 (clocks go
// from 02:00 to 03:00): tax sits inside each total and is taken out of
// gross sales.
func TestDailyTotalsSydneyTaxIncluded(t *testing.T) {
	t.Parallel()
	syd, _ := time.LoadLocation("Australia/Sydney")
	orders := []Order{
		{ID: "c1", CreatedAt: at(t, syd, "2026-10-04 01:30"), Sales: []Sale{ // 15:30 UTC on Oct 3
			{HappenedAt: at(t, syd, "2026-10-04 01:30"), Action: ActionOrder, Line: LineProduct, Quantity: 2,
				Total: 3960, Discount: 440, Tax: 360}, // 2 × 22.00 − 4.40, GST inside 3.60
			other(at(t, syd, "2026-10-04 01:30"), LineShipping, 1100, 100),
		}},
		{ID: "c2", CreatedAt: at(t, syd, "2026-10-04 23:59"), Sales: []Sale{
			product(at(t, syd, "2026-10-04 23:59"), ActionOrder, 11000, 0, 1000),
			other(at(t, syd, "2026-10-04 23:59"), LineAdditionalFee, 500, 0),
		}},
		{ID: "c3", CreatedAt: at(t, syd, "2026-10-03 23:00"), Sales: []Sale{
			product(at(t, syd, "2026-10-03 23:00"), ActionOrder, 1100, 0, 100),
			other(at(t, syd, "2026-10-03 23:00"), LineFee, 200, 0),
		}},
	}
	got := DailyTotals(orders, syd, mustDate(t, "2026-10-03"), mustDate(t, "2026-10-04"))
	checkDays(t, got, []day{
		// c3: gross 11.00 − 1.00 GST = 10.00; fee 2.00; total 10.00 + 2.00 + 1.00 = 13.00
		{date: "2026-10-03", orders: 1, value: 1000, gross: 1000, fees: 200, taxes: 100, ts: 1300},
		// c1 + c2: gross (39.60 − 3.60 + 4.40) + (110.00 − 10.00) = 140.40; value 36.00 + 100.00;
		// shipping 11.00 − 1.00; fee 5.00; taxes 3.60 + 1.00 + 10.00 = 14.60;
		// total 136.00 + 10.00 + 5.00 + 14.60 = 165.60 = the totals paid (39.60 + 11.00 + 110.00 + 5.00)
		{date: "2026-10-04", orders: 2, value: 13600, gross: 14040, disc: 440, ship: 1000, fees: 500, taxes: 1460, ts: 16560},
	})
}

// Without a zone each time keeps its own offset: an imported file's days.
func TestDailyTotalsFileOffset(t *testing.T) {
	t.Parallel()
	east := time.FixedZone("", -5*3600)
	when := time.Date(2025, 12, 6, 22, 0, 0, 0, east) // 03:00 UTC on Dec 7
	orders := []Order{{ID: "x", CreatedAt: when, Sales: []Sale{product(when, ActionOrder, 1000, 0, 0)}}}
	got := DailyTotals(orders, nil, mustDate(t, "2025-12-06"), mustDate(t, "2025-12-07"))
	if got[0].Orders != 1 || got[0].Gross != 1000 || got[1].Orders != 0 {
		t.Errorf("got %+v", got)
	}
	if DailyTotals(orders, nil, mustDate(t, "2025-12-07"), mustDate(t, "2025-12-06")) != nil {
		t.Error("an empty range must give no days")
	}
}

func TestCounts(t *testing.T) {
	t.Parallel()
	now := time.Now()
	gc := Order{Sales: []Sale{other(now, LineGiftCard, 5000, 0)}}
	if Counts(gc) {
		t.Error("an order of gift cards only is not counted")
	}
	mixed := Order{Sales: []Sale{other(now, LineGiftCard, 5000, 0), product(now, ActionOrder, 1080, 100, 80),
		product(now, ActionEdit, 500, 0, 0), product(now, ActionReturn, -1080, -100, -80)}}
	if !Counts(mixed) || Counts(Order{Test: true}) || !Counts(Order{}) {
		t.Error("Counts is wrong")
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	now := time.Now()
	cases := []struct {
		s    Sale
		want Amounts
	}{
		{product(now, ActionOrder, 1080, 100, 80), Amounts{Gross: 1100, Discounts: 100, Taxes: 80}},
		{product(now, ActionEdit, 500, 0, 0), Amounts{Gross: 500}},
		{product(now, ActionReturn, -1080, -100, -80), Amounts{Returns: 1000, Taxes: -80}}, // valued after its discount
		{other(now, LineShipping, 1100, 100), Amounts{Shipping: 1000, Taxes: 100}},
		{other(now, LineDuty, 300, 0), Amounts{Duties: 300}},
		{other(now, LineFee, 300, 0), Amounts{AdditionalFees: 300}},
		{other(now, LineAdditionalFee, 200, 0), Amounts{AdditionalFees: 200}},
		{other(now, LineGiftCard, 2500, 0), Amounts{GiftCards: 2500}},
		{other(now, LineTip, 300, 0), Amounts{Tips: 300}},
		{other(now, LineUnknown, 300, 20), Amounts{Taxes: 20}},
	}
	for _, c := range cases {
		if got := Classify(c.s); got != c.want {
			t.Errorf("Classify(%s %s) = %+v, want %+v", c.s.Action, c.s.Line, got, c.want)
		}
	}
}

func TestSumTotalsAndConversion(t *testing.T) {
	t.Parallel()
	s1, c1, s2, c2 := int64(300), int64(7), int64(100), int64(1)
	days := []DayTotals{
		{Date: Date{2026, 11, 1}, Orders: 2, Amounts: Amounts{Gross: 100}, Sessions: &s1, CompletedSessions: &c1},
		{Date: Date{2026, 11, 2}, Orders: 1, Amounts: Amounts{Gross: 50}, Sessions: &s2, CompletedSessions: &c2},
	}
	sum := SumTotals(days)
	if sum.Orders != 3 || sum.OrderValue() != 150 || *sum.Sessions != 400 || *sum.CompletedSessions != 8 || sum.Date != days[0].Date {
		t.Errorf("SumTotals = %+v", sum)
	}
	if p, ok := ConversionPercent(sum); !ok || p != "2.00" { // 8 / 400
		t.Errorf("conversion = %q", p)
	}
	if p, _ := ConversionPercent(days[0]); p != "2.33" { // 7 / 300 = 2.333…
		t.Errorf("conversion = %q, want 2.33", p)
	}
	third := int64(2)
	if p, _ := ConversionPercent(DayTotals{Sessions: &third, CompletedSessions: &c2}); p != "50.00" {
		t.Errorf("conversion = %q, want 50.00", p)
	}
	eighth := int64(8)
	if p, _ := ConversionPercent(DayTotals{Sessions: &eighth, CompletedSessions: &c2}); p != "12.50" {
		t.Errorf("conversion = %q, want 12.50", p)
	}
	days = append(days, DayTotals{Date: Date{2026, 11, 3}})
	if sum := SumTotals(days); sum.Sessions != nil {
		t.Error("a range with a day lacking sessions must not report sessions")
	}
	if _, ok := ConversionPercent(days[2]); ok {
		t.Error("no sessions must mean no conversion rate")
	}
	if aov, _ := AverageOrderValue(DayTotals{Orders: 2, Amounts: Amounts{Gross: -5}}); aov != -3 { // −2.5 away from zero
		t.Errorf("AOV rounding = %d, want -3", aov)
	}
}

func BenchmarkDailyTotals(b *testing.B) {
	loc, _ := time.LoadLocation("America/New_York")
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, loc)
	orders := make([]Order, 100000)
	for i := range orders {
		when := start.Add(time.Duration(i) * 315 * time.Second) // spread over 365 days
		orders[i] = Order{ID: "o", CreatedAt: when, Sales: []Sale{
			product(when, ActionOrder, 1080, 100, 80), other(when, LineShipping, 500, 0)}}
	}
	from := DateOf(start)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		DailyTotals(orders, loc, from, from.AddDays(364))
	}
	b.ReportMetric(float64(len(orders))*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
}
