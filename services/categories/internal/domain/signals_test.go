package domain

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func day(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestFormatMinorUnits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v        int64
		decimals int
		currency string
		want     string
	}{
		{123450, 2, "USD", "$1,234.50"},
		{5, 2, "EUR", "€0.05"},
		{-500, 2, "EUR", "-€5.00"},
		{1200, 0, "JPY", "¥1,200"},
		{1694000, 2, "PKR", "16,940.00 PKR"},
		{1234567, 3, "KWD", "1,234.567 KWD"},
		{100000000, 2, "inr", "₹1,000,000.00"},
		{0, 2, "", "0.00"},
		{-9223372036854775808, 2, "USD", "-$92,233,720,368,547,758.08"},
	}
	for _, tt := range tests {
		if got := FormatMinorUnits(tt.v, tt.decimals, tt.currency); got != tt.want {
			t.Errorf("FormatMinorUnits(%d, %d, %q) = %q, want %q", tt.v, tt.decimals, tt.currency, got, tt.want)
		}
	}
}

func TestStoreSignalsNewerThan(t *testing.T) {
	t.Parallel()
	base := StoreSignals{AsOf: day(t, "2026-11-22"), OccurTime: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	tests := []struct {
		name string
		s    StoreSignals
		want bool
	}{
		{"the same signals again", base, false},
		{"a later day", StoreSignals{AsOf: day(t, "2026-11-23"), OccurTime: base.OccurTime.Add(-time.Hour)}, true},
		{"an earlier day computed later", StoreSignals{AsOf: day(t, "2026-11-21"), OccurTime: base.OccurTime.Add(time.Hour)}, false},
		{"the same day computed later", StoreSignals{AsOf: base.AsOf, OccurTime: base.OccurTime.Add(time.Second)}, true},
		{"the same day computed earlier", StoreSignals{AsOf: base.AsOf, OccurTime: base.OccurTime.Add(-time.Second)}, false},
	}
	for _, tt := range tests {
		if got := tt.s.NewerThan(base); got != tt.want {
			t.Errorf("%s: NewerThan = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestValidateStoreSignals(t *testing.T) {
	t.Parallel()
	good := StoreSignals{CategoryID: "6f1c1f2e-8a55-4f7e-9a55-0d3f2b6c1a10", AsOf: day(t, "2026-11-22"), CurrencyDecimals: 2}
	if err := ValidateStoreSignals(good); err != nil {
		t.Fatalf("good signals refused: %v", err)
	}
	for name, s := range map[string]StoreSignals{
		"no category":   {AsOf: good.AsOf},
		"no day":        {CategoryID: good.CategoryID},
		"five decimals": {CategoryID: good.CategoryID, AsOf: good.AsOf, CurrencyDecimals: 5},
	} {
		if ValidateStoreSignals(s) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func signals(t *testing.T) StoreSignals {
	return StoreSignals{
		CategoryID: "cat", Currency: "USD", CurrencyDecimals: 2, AsOf: day(t, "2026-11-22"),
		BestSeller:      &StoreBestSeller{Title: "Trail Mug", NetSales: 123450, Quantity: 82},
		Falling:         &StoreFallingProduct{Title: "Camp Stove", Before: 53400, After: 8900, Percent: 83},
		UnusualHeadline: "Orders fell 45 % against your 7-day average; sessions held steady, so conversion dropped — check checkout.",
	}
}

func TestStoreInsights(t *testing.T) {
	t.Parallel()
	s := signals(t)
	fresh := time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)
	want := []Insight{
		{ID: "store-best-seller-2026-11-22", Text: "Your best seller this week: Trail Mug, $1,234.50 in net sales.",
			Evidence: "82 sold in the 7 days to Sun Nov 22, from your store's orders (net sales = gross sales − discounts − returns)."},
		{ID: "store-falling-product-2026-11-22", Text: "Sales of Camp Stove fell 83 % over the last two weeks.",
			Evidence: "$89.00 in net sales in the 14 days to Sun Nov 22, against $534.00 in the 14 days before, from your store's orders."},
		{ID: "store-daily-report-2026-11-22", Text: s.UnusualHeadline,
			Evidence: "Your daily business report for Sun Nov 22: that day against the 7 days before it."},
	}
	if got := StoreInsights(&s, fresh); !reflect.DeepEqual(got, want) {
		t.Fatalf("fresh:\n got %#v\nwant %#v", got, want)
	}
	ages := []struct {
		name string
		now  time.Time
		n    int
	}{
		{"a store east of UTC is a day ahead", time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), 3},
		{"two days on, yesterday's headline still holds", time.Date(2026, 11, 24, 23, 0, 0, 0, time.UTC), 3},
		{"three days on, the headline is old news", time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), 2},
		{"a week on, the week's signals still hold", time.Date(2026, 11, 29, 23, 59, 0, 0, time.UTC), 2},
		{"eight days on, nothing is said", time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), 0},
	}
	for _, a := range ages {
		if got := StoreInsights(&s, a.now); len(got) != a.n {
			t.Errorf("%s: %d insights, want %d: %v", a.name, len(got), a.n, got)
		}
	}
	if got := StoreInsights(nil, fresh); got != nil {
		t.Errorf("no signals gave %v", got)
	}
	quiet := StoreSignals{AsOf: s.AsOf, Currency: "USD", CurrencyDecimals: 2}
	if got := StoreInsights(&quiet, fresh); len(got) != 0 {
		t.Errorf("signals with nothing to say gave %v", got)
	}
}

func TestStoreIdeas(t *testing.T) {
	t.Parallel()
	s := signals(t)
	ideas := StoreIdeas(Category{Name: "Clay & Co"}, s)
	if len(ideas) != 2 {
		t.Fatalf("%d ideas, want 2", len(ideas))
	}
	best, fall := ideas[0], ideas[1]
	if best.Topic != "best-seller:Trail Mug" || best.Title != "Feature your best seller: Trail Mug" ||
		!reflect.DeepEqual(best.Products, []string{"Trail Mug"}) || best.Channel != "email" ||
		!strings.Contains(best.WhyNow, "82 sold, $1,234.50 in net sales") || !strings.HasSuffix(best.Body, "Clay & Co") {
		t.Errorf("best-seller idea = %#v", best)
	}
	if fall.Topic != "falling:Camp Stove" || fall.Title != "Bring back Camp Stove" ||
		!strings.Contains(fall.WhyNow, "fell 83 %") || !strings.Contains(fall.WhyNow, "$89.00") ||
		!reflect.DeepEqual(fall.Products, []string{"Camp Stove"}) {
		t.Errorf("falling idea = %#v", fall)
	}
	for _, i := range ideas {
		if i.ID != "" || i.SubjectLine == "" || i.Timing == "" || i.Body == "" {
			t.Errorf("idea not complete (or ids not left to the repository): %#v", i)
		}
	}

	// The best seller falling too would make two ideas that contradict.
	same := s
	same.Falling = &StoreFallingProduct{Title: "Trail Mug", Before: 300000, After: 123450, Percent: 59}
	if got := StoreIdeas(Category{}, same); len(got) != 1 || got[0].Topic != "best-seller:Trail Mug" || !strings.HasSuffix(got[0].Body, "The team") {
		t.Errorf("best seller also falling: %#v", got)
	}
	if got := StoreIdeas(Category{}, StoreSignals{AsOf: s.AsOf}); len(got) != 0 {
		t.Errorf("nothing to say gave %#v", got)
	}
}

func TestPlanStoreIdeas(t *testing.T) {
	t.Parallel()
	idea := func(id, topic string) Idea { return Idea{ID: id, Topic: topic} }
	tests := []struct {
		name      string
		current   []Idea
		suggested []Idea
		add       []string // topics
		retire    []string // ids
	}{
		{"first signals", nil, []Idea{idea("", "best-seller:A"), idea("", "falling:B")},
			[]string{"best-seller:A", "falling:B"}, nil},
		{"the same topics keep their ideas", []Idea{idea("1", "best-seller:A"), idea("2", "falling:B")},
			[]Idea{idea("", "best-seller:A"), idea("", "falling:B")}, nil, nil},
		{"a new best seller replaces the old", []Idea{idea("1", "best-seller:A"), idea("2", "falling:B")},
			[]Idea{idea("", "best-seller:C"), idea("", "falling:B")}, []string{"best-seller:C"}, []string{"1"}},
		{"no fall any more", []Idea{idea("1", "best-seller:A"), idea("2", "falling:B")},
			[]Idea{idea("", "best-seller:A")}, nil, []string{"2"}},
		{"nothing to say", []Idea{idea("1", "best-seller:A")}, nil, nil, []string{"1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			add, retire := PlanStoreIdeas(tt.current, tt.suggested)
			var topics []string
			for _, a := range add {
				topics = append(topics, a.Topic)
			}
			if !reflect.DeepEqual(topics, tt.add) || !reflect.DeepEqual(retire, tt.retire) {
				t.Errorf("add %v retire %v, want add %v retire %v", topics, retire, tt.add, tt.retire)
			}
		})
	}
}
