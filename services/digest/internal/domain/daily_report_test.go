package domain

import (
	"errors"
	"strings"
	"testing"
)

func s(v string) *string { return &v }

// metrics builds a report's six metrics from value/average/change triples;
// "" is not available. unusual names the unusual keys.
func metrics(vals map[string][3]string, unusual ...string) []ReportMetric {
	labels := map[string]string{"totalSales": "Total sales", "orders": "Orders", "averageOrderValue": "Average order value",
		"returns": "Returns", "sessions": "Sessions", "conversionRate": "Conversion rate"}
	var out []ReportMetric
	for _, k := range []string{"totalSales", "orders", "averageOrderValue", "returns", "sessions", "conversionRate"} {
		m := ReportMetric{Key: k, Label: labels[k]}
		opt := func(v string) *string {
			if v == "" {
				return nil
			}
			return s(v)
		}
		m.Value, m.Average, m.ChangePercent = opt(vals[k][0]), opt(vals[k][1]), opt(vals[k][2])
		for _, u := range unusual {
			m.Unusual = m.Unusual || u == k
		}
		out = append(out, m)
	}
	return out
}

func TestSuggestAction(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		ms   []ReportMetric
		best string
		want string
	}{
		{"orders fell, sessions steady → checkout", metrics(map[string][3]string{
			"orders": {"1", "4.0", "-75.0"}, "sessions": {"100", "104.0", "-3.8"}}, "orders"), "Mug", ActionCheckout},
		{"conversion fell, sessions steady → checkout", metrics(map[string][3]string{
			"conversionRate": {"0.50", "2.00", "-75.0"}, "sessions": {"100", "95.0", "5.3"}}, "conversionRate"), "", ActionCheckout},
		{"orders fell with sessions unknown → not checkout", metrics(map[string][3]string{
			"orders": {"1", "4.0", "-75.0"}}, "orders"), "Mug", strings.Replace(ActionFeature, "%s", "Mug", 1)},
		{"orders and sessions fell → traffic", metrics(map[string][3]string{
			"orders": {"1", "4.0", "-75.0"}, "sessions": {"40", "100.0", "-60.0"}}, "orders", "sessions"), "Mug", ActionTraffic},
		{"sessions fell alone → traffic", metrics(map[string][3]string{
			"sessions": {"40", "100.0", "-60.0"}}, "sessions"), "", ActionTraffic},
		{"sessions rose → not traffic", metrics(map[string][3]string{
			"sessions": {"160", "100.0", "60.0"}}, "sessions"), "", ActionLook},
		{"returns rose → returns", metrics(map[string][3]string{
			"returns": {"120.00", "20.00", "500.0"}}, "returns"), "Mug", ActionReturns},
		{"returns fell → best seller", metrics(map[string][3]string{
			"returns": {"0.00", "20.00", "-100.0"}}, "returns"), "Mug", strings.Replace(ActionFeature, "%s", "Mug", 1)},
		{"a big fall that is not unusual (small base) → best seller", metrics(map[string][3]string{
			"orders": {"0", "1.0", "-100.0"}, "sessions": {"10", "10.0", "0.0"}}), "Mug", strings.Replace(ActionFeature, "%s", "Mug", 1)},
		{"usual day, nothing sold → look", metrics(map[string][3]string{"orders": {"0", "4.0", "-100.0"}}), "", ActionLook},
	}
	for _, c := range cases {
		if got := SuggestAction(c.ms, c.best); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestReportSummary(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		ms   []ReportMetric
		want string
	}{
		{"first unusual in the headline's order", metrics(map[string][3]string{
			"totalSales": {"89.00", "80.00", "11.3"}, "orders": {"1", "4.0", "-75.0"}, "returns": {"50.00", "0.00", ""}}, "orders", "totalSales"),
			"orders fell 75 %"},
		{"a rise, rounded", metrics(map[string][3]string{"totalSales": {"1500.00", "1000.00", "50.4"}}, "totalSales"), "total sales rose 50 %"},
		{"usual day", metrics(map[string][3]string{"totalSales": {"1234567.50", "1200000.00", "2.9"}}), "$1,234,567.50 in sales, a usual day"},
		{"nothing to compare with", metrics(map[string][3]string{"totalSales": {"20.00", "0.00", ""}, "orders": {"1", "0.0", ""}}), "$20.00 in sales from 1 order"},
	}
	for _, c := range cases {
		if got := ReportSummary(c.ms, "USD"); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestNewDailyReport(t *testing.T) {
	t.Parallel()
	ok := DailyReport{CategoryID: "c1", OwnerUserID: "u1", StoreName: "Clay", Date: "2026-03-07", Currency: "USD", Status: ReportReady,
		Metrics:  metrics(map[string][3]string{"orders": {"1", "4.0", "-75.0"}, "sessions": {"100", "100.0", "0.0"}}, "orders"),
		Headline: "Orders fell 75 %.", BestSeller: "Mug"}
	e, err := NewDailyReport(ok, "owner@shop.example")
	if err != nil || e.Key != "daily-report:c1:2026-03-07" || e.Kind != KindDailyReport || e.UserID != "u1" ||
		e.Params.Action != ActionCheckout || e.Params.Summary != "orders fell 75 %" || !e.Kind.Unsubscribable() {
		t.Fatalf("%+v %v", e, err)
	}
	for name, c := range map[string]struct {
		mut  func(*DailyReport)
		want error
	}{
		"no data": {func(r *DailyReport) { r.Status = "NO_DATA" }, ErrNothingToReport},
		"all zero": {func(r *DailyReport) {
			r.Metrics = metrics(map[string][3]string{"totalSales": {"0.00", "0.00", ""}, "orders": {"0", "0.0", ""}})
		}, ErrNothingToReport},
		"nothing at all":   {func(r *DailyReport) { r.Metrics = nil }, ErrNothingToReport},
		"no owner":         {func(r *DailyReport) { r.OwnerUserID = "" }, ErrMissingID},
		"bad date":         {func(r *DailyReport) { r.Date = "2026-3-7" }, ErrMissingID},
		"sessions only ok": {func(r *DailyReport) { r.Metrics = metrics(map[string][3]string{"sessions": {"12", "10.0", "20.0"}}) }, nil},
	} {
		r := ok
		c.mut(&r)
		if _, err := NewDailyReport(r, "owner@shop.example"); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}
