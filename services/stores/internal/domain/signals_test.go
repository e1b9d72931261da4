package domain

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSignalsDay(t *testing.T) {
	t.Parallel()
	zone := func(name string) *time.Location {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name string
		now  time.Time
		loc  *time.Location
		want string
	}{
		// 2026-11-01 is New York's 25-hour fall-back day: 03:30 UTC on Nov 2
		// is 22:30 on Nov 1 there, so yesterday is Oct 31.
		{"New York, evening of the fall-back day", utc("2026-11-02T03:30:00Z"), zone("America/New_York"), "2026-10-31"},
		{"Tokyo, the same instant", utc("2026-11-02T03:30:00Z"), zone("Asia/Tokyo"), "2026-11-01"},
		{"Kolkata, half-hour offset", utc("2026-11-01T18:29:00Z"), zone("Asia/Kolkata"), "2026-10-31"},
		{"Kolkata, a minute later", utc("2026-11-01T18:30:00Z"), zone("Asia/Kolkata"), "2026-11-01"},
		// Spring forward: 02:00 EST on 2026-03-08 becomes 03:00 EDT (07:00 UTC).
		{"New York, just before spring forward", utc("2026-03-08T06:59:00Z"), zone("America/New_York"), "2026-03-07"},
		{"New York, just after spring forward", utc("2026-03-08T07:00:00Z"), zone("America/New_York"), "2026-03-07"},
		{"New York, midnight after the short day", utc("2026-03-09T04:00:00Z"), zone("America/New_York"), "2026-03-08"},
		{"Kiritimati, fourteen hours ahead", utc("2026-11-01T10:00:00Z"), zone("Pacific/Kiritimati"), "2026-11-01"},
		{"an imported file's fixed offset", utc("2026-11-02T03:30:00Z"), time.FixedZone("-05:00", -5*3600), "2026-10-31"},
		{"no zone known counts in UTC", utc("2026-11-02T03:30:00Z"), nil, "2026-11-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SignalsDay(tt.now, tt.loc).String(); got != tt.want {
				t.Errorf("SignalsDay = %s, want %s", got, tt.want)
			}
		})
	}
	asOf := mustDate(t, "2026-11-01")
	if got := SignalsFrom(asOf).String(); got != "2026-10-05" {
		t.Errorf("SignalsFrom = %s, want 2026-10-05 (28 days ending on as-of)", got)
	}
}

func sale(when time.Time, action Action, key, title string, qty int64, total, discount Money) Sale {
	return Sale{HappenedAt: when, Action: action, Line: LineProduct, ProductKey: key, ProductTitle: title,
		Quantity: qty, Total: total, Discount: discount}
}

// New York's fall-back day (25 hours) with a sale at 23:30 that UTC puts on
// the next day, a refund after midnight, a renamed product, a test order,
// shipping and a line without a product key.
func TestProductDaysAcrossTheFallBackDay(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	late := at(t, ny, "2026-11-01 23:30") // 04:30 UTC on Nov 2
	orders := []Order{
		{ID: "o1", CreatedAt: at(t, ny, "2026-11-01 01:30"), Sales: []Sale{
			// 01:30 happens twice on this day; both are Nov 1.
			sale(at(t, ny, "2026-11-01 01:30"), ActionOrder, "mug", "Mug", 2, 3000, 0),
			{HappenedAt: at(t, ny, "2026-11-01 01:30"), Action: ActionOrder, Line: LineShipping, Quantity: 1, Total: 500},
		}},
		{ID: "o2", CreatedAt: late, Sales: []Sale{
			sale(late, ActionOrder, "mug", "Trail Mug", 1, 1500, 100),
			// Refunded ten minutes after midnight: a return on Nov 2.
			sale(at(t, ny, "2026-11-02 00:10"), ActionReturn, "mug", "Trail Mug", -1, -1500, -100),
		}},
		{ID: "o3", CreatedAt: late, Sales: []Sale{sale(late, ActionOrder, "", "Custom item", 1, 999, 0)}},
		{ID: "test", Test: true, CreatedAt: late, Sales: []Sale{sale(late, ActionOrder, "mug", "Mug", 9, 13500, 0)}},
	}
	from, to := mustDate(t, "2026-10-31"), mustDate(t, "2026-11-03")
	want := []ProductDay{
		{Date: mustDate(t, "2026-11-01"), Key: "mug", Title: "Trail Mug", Quantity: 3, NetSales: 4500},
		{Date: mustDate(t, "2026-11-02"), Key: "mug", Title: "Trail Mug", Quantity: -1, NetSales: -1500},
	}
	if got := ProductDays(orders, ny, from, to); !reflect.DeepEqual(got, want) {
		t.Errorf("New York:\n got %+v\nwant %+v", got, want)
	}
	// With no zone each time keeps its own offset: the same days here.
	if got := ProductDays(orders, nil, from, to); !reflect.DeepEqual(got, want) {
		t.Errorf("own offsets:\n got %+v\nwant %+v", got, want)
	}
	// In Tokyo the late sale and the refund fall on Nov 2, and the early
	// one on Nov 1 (in the afternoon there).
	wantTokyo := []ProductDay{
		{Date: mustDate(t, "2026-11-01"), Key: "mug", Title: "Mug", Quantity: 2, NetSales: 3000},
		{Date: mustDate(t, "2026-11-02"), Key: "mug", Title: "Trail Mug", Quantity: 0, NetSales: 0},
	}
	if got := ProductDays(orders, tokyo, from, to); !reflect.DeepEqual(got, wantTokyo) {
		t.Errorf("Tokyo:\n got %+v\nwant %+v", got, wantTokyo)
	}
	if got := ProductDays(orders, ny, mustDate(t, "2026-11-02"), to); len(got) != 1 || got[0].NetSales != -1500 {
		t.Errorf("range start not honoured: %+v", got)
	}
}

// pd is a product day relative to as-of: ago 0 is as-of itself.
func pd(asOf Date, ago int, key, title string, qty int64, net Money) ProductDay {
	return ProductDay{Date: asOf.AddDays(-ago), Key: key, Title: title, Quantity: qty, NetSales: net}
}

func TestComputeSignals(t *testing.T) {
	t.Parallel()
	// As-of is New York's fall-back day: every window counts calendar days,
	// so the 25-hour day is one day like any other.
	asOf := Date{2026, 11, 1}
	type best = BestSeller
	type fall = FallingProduct
	tests := []struct {
		name string
		days []ProductDay
		best *best
		fall *fall
	}{
		{name: "nothing sold", days: nil},
		{name: "a megabyte title is cut to its bound",
			days: []ProductDay{pd(asOf, 0, "m", strings.Repeat("Mug ", 1<<18), 1, 500)},
			best: &best{strings.Repeat("Mug ", MaxTitleRunes/4) + "Mu…", 500, 1}},
		{name: "best seller by net sales, not units",
			days: []ProductDay{pd(asOf, 0, "a", "Apron", 10, 10000), pd(asOf, 6, "b", "Bowl", 2, 30000)},
			best: &best{"Bowl", 30000, 2}},
		{name: "a sale 7 days back is outside the week",
			days: []ProductDay{pd(asOf, 7, "a", "Apron", 50, 90000), pd(asOf, 1, "b", "Bowl", 1, 100)},
			best: &best{"Bowl", 100, 1}},
		{name: "the week sums across days",
			days: []ProductDay{pd(asOf, 0, "a", "Apron", 1, 4000), pd(asOf, 3, "a", "Apron", 1, 4000), pd(asOf, 2, "b", "Bowl", 1, 7000)},
			best: &best{"Apron", 8000, 2}},
		{name: "a tie goes to more units, then to the title",
			days: []ProductDay{pd(asOf, 0, "c", "Cup", 1, 5000), pd(asOf, 0, "b", "Bowl", 2, 5000), pd(asOf, 0, "a", "Apron", 2, 5000)},
			best: &best{"Apron", 5000, 2}},
		{name: "returns count against a product; nothing positive, no best seller",
			days: []ProductDay{pd(asOf, 0, "a", "Apron", -1, -4000), pd(asOf, 2, "b", "Bowl", 0, 0)}},
		{name: "a renamed product shows its newest title",
			days: []ProductDay{pd(asOf, 5, "a", "Apron", 1, 4000), pd(asOf, 1, "a", "Linen Apron", 1, 4000)},
			best: &best{"Linen Apron", 8000, 2}},
		{name: "stopped selling altogether fell 100 %",
			days: []ProductDay{pd(asOf, 20, "a", "Apron", 6, 24000)},
			fall: &fall{"Apron", 24000, 0, 100}},
		{name: "fewer than 5 units before is no base",
			days: []ProductDay{pd(asOf, 20, "a", "Apron", 4, 900000)}},
		{name: "exactly 5 units is a base",
			days: []ProductDay{pd(asOf, 20, "a", "Apron", 5, 5000)},
			fall: &fall{"Apron", 5000, 0, 100}},
		{name: "units returned do not make a base",
			days: []ProductDay{pd(asOf, 20, "a", "Apron", 7, 28000), pd(asOf, 19, "a", "Apron", -3, -12000)}},
		{name: "a 29.9 % fall is not told",
			days: []ProductDay{pd(asOf, 20, "a", "Apron", 10, 100000), pd(asOf, 3, "a", "Apron", 7, 70100)},
			best: &best{"Apron", 70100, 7}},
		{name: "a 30 % fall is told",
			days: []ProductDay{pd(asOf, 20, "a", "Apron", 10, 100000), pd(asOf, 10, "a", "Apron", 7, 70000)},
			fall: &fall{"Apron", 100000, 70000, 30}},
		{name: "the window edges: 13 days back is after, 14 before, 27 before, 28 outside",
			days: []ProductDay{
				pd(asOf, 28, "a", "Apron", 100, 999999),
				pd(asOf, 27, "a", "Apron", 3, 3000), pd(asOf, 14, "a", "Apron", 3, 3000),
				pd(asOf, 13, "a", "Apron", 1, 1000), pd(asOf, 15, "b", "Bowl", 5, 5000), pd(asOf, 13, "b", "Bowl", 5, 5000),
			},
			fall: &fall{"Apron", 6000, 1000, 83}},
		{name: "the biggest loss in money wins over the bigger percent",
			days: []ProductDay{
				pd(asOf, 20, "a", "Apron", 5, 10000),                                       // −100 %, −100.00
				pd(asOf, 20, "b", "Bowl", 50, 100000), pd(asOf, 5, "b", "Bowl", 30, 60000), // −40 %, −400.00
			},
			best: &best{"Bowl", 60000, 30},
			fall: &fall{"Bowl", 100000, 60000, 40}},
		{name: "equal losses go to the bigger percent",
			days: []ProductDay{
				pd(asOf, 20, "a", "Apron", 5, 10000), pd(asOf, 2, "a", "Apron", 1, 5000), // −50 %
				pd(asOf, 20, "b", "Bowl", 5, 6000), pd(asOf, 9, "b", "Bowl", 1, 1000), // −83 %
			},
			best: &best{"Apron", 5000, 1},
			fall: &fall{"Bowl", 6000, 1000, 83}},
		{name: "percent rounds half away from zero",
			days: []ProductDay{pd(asOf, 20, "a", "Apron", 8, 800), pd(asOf, 10, "a", "Apron", 4, 404)}, // 49.5 %
			fall: &fall{"Apron", 800, 404, 50}},
		{name: "returns outweighing sales fall past 100 %",
			days: []ProductDay{pd(asOf, 20, "a", "Apron", 5, 10000), pd(asOf, 4, "a", "Apron", -2, -4000)},
			fall: &fall{"Apron", 10000, -4000, 140}},
		{name: "a product without a title cannot be named",
			days: []ProductDay{pd(asOf, 20, "x", "", 9, 9000), pd(asOf, 1, "y", "", 1, 500)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ComputeSignals("cat", "USD", asOf, tt.days, DailyReport{})
			if s.CategoryID != "cat" || s.Currency != "USD" || s.AsOf != asOf || s.UnusualHeadline != "" {
				t.Errorf("header = %+v", s)
			}
			if !reflect.DeepEqual(s.BestSeller, tt.best) {
				t.Errorf("best seller = %+v, want %+v", s.BestSeller, tt.best)
			}
			if !reflect.DeepEqual(s.Falling, tt.fall) {
				t.Errorf("falling = %+v, want %+v", s.Falling, tt.fall)
			}
		})
	}
}

// The whole computation from orders in New York: the week and the two
// fortnights end on the fall-back day, and the late sale of Oct 18 (the
// earlier fortnight's last day, 03:30 UTC on Oct 19) counts before.
func TestSignalsFromOrdersAcrossZones(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	now := at(t, ny, "2026-11-02 09:00")
	asOf := SignalsDay(now, ny)
	if asOf.String() != "2026-11-01" {
		t.Fatalf("as-of = %s", asOf)
	}
	var orders []Order
	add := func(when, key, title string, qty int64, unit Money) {
		w := at(t, ny, when)
		orders = append(orders, Order{ID: when + key, CreatedAt: w,
			Sales: []Sale{sale(w, ActionOrder, key, title, qty, unit*Money(qty), 0)}})
	}
	add("2026-10-10 12:00", "stove", "Camp Stove", 3, 8900)
	add("2026-10-18 23:30", "stove", "Camp Stove", 3, 8900) // the earlier fortnight's last day
	add("2026-10-19 00:30", "mug", "Trail Mug", 1, 1500)    // the later fortnight's first day
	add("2026-10-26 10:00", "mug", "Trail Mug", 4, 1500)
	add("2026-11-01 23:59", "mug", "Trail Mug", 2, 1500) // 04:59 UTC on Nov 2, still as-of here
	days := ProductDays(orders, ny, SignalsFrom(asOf), asOf)
	s := ComputeSignals("cat", "USD", asOf, days, DailyReport{})
	if want := (&BestSeller{"Trail Mug", 9000, 6}); !reflect.DeepEqual(s.BestSeller, want) {
		t.Errorf("best seller = %+v, want %+v", s.BestSeller, want)
	}
	if want := (&FallingProduct{"Camp Stove", 53400, 0, 100}); !reflect.DeepEqual(s.Falling, want) {
		t.Errorf("falling = %+v, want %+v", s.Falling, want)
	}
	// Counted in UTC the late stove sale moves into the later fortnight,
	// leaving 3 units before (no base), and the last mugs leave the week.
	utcDays := ProductDays(orders, time.UTC, SignalsFrom(asOf), asOf)
	u := ComputeSignals("cat", "USD", asOf, utcDays, DailyReport{})
	if u.Falling != nil {
		t.Errorf("UTC falling = %+v, want none", u.Falling)
	}
	if want := (&BestSeller{"Trail Mug", 6000, 4}); !reflect.DeepEqual(u.BestSeller, want) {
		t.Errorf("UTC best seller = %+v, want %+v", u.BestSeller, want)
	}
}

func TestUnusualHeadline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		r    DailyReport
		want string
	}{
		{"orders fell 45 % on a meaningful base",
			CompareDay(dayOf(11, 1000, 11), week([]int64{20, 20, 20, 20, 20, 20, 20}, 1000, 20), "USD"),
			"Orders fell 45 % against your 7-day average; sessions held steady, so conversion dropped — check checkout."},
		{"a usual day is not news",
			CompareDay(dayOf(20, 1000, 20), week([]int64{20, 20, 20, 20, 20, 20, 20}, 1000, 20), "USD"), ""},
		{"a tiny shop's doubling is not news",
			CompareDay(dayOf(2, 0, 0), week([]int64{1, 1, 1, 1, 1, 1, 1}, 0, 0), "USD"), ""},
		{"nothing to compare with is not news",
			CompareDay(dayOf(5, 0, 0), week([]int64{0, 0, 0, 0, 0, 0, 0}, 0, 0), "USD"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UnusualHeadline(tt.r); got != tt.want {
				t.Errorf("UnusualHeadline = %q, want %q", got, tt.want)
			}
		})
	}
}
