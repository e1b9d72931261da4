package domain

import (
	"errors"
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

func TestNewDailyReport(t *testing.T) {
	t.Parallel()
	ok := DailyReport{CategoryID: "c1", OwnerUserID: "u1", StoreName: "Clay", Date: "2026-03-07", Currency: "USD", Status: ReportReady,
		Metrics:  metrics(map[string][3]string{"orders": {"1", "4.0", "-75.0"}, "sessions": {"100", "100.0", "0.0"}}, "orders"),
		Headline: "Orders fell 75 %.", BestSeller: "Mug", Summary: "orders fell 75 %", Action: "Check your checkout."}
	e, err := NewDailyReport(ok, "owner@shop.example")
	// The headline, summary and action are the stores service's, shown as they are.
	if err != nil || e.Key != "daily-report:c1:2026-03-07" || e.Kind != KindDailyReport || e.UserID != "u1" ||
		e.Params.Headline != ok.Headline || e.Params.Action != ok.Action || e.Params.Summary != ok.Summary ||
		!e.Kind.Unsubscribable() {
		t.Fatalf("%+v %v", e, err)
	}
	old := ok
	old.Summary, old.Action = "", ""
	if e, err := NewDailyReport(old, "owner@shop.example"); err != nil || e.Params.Summary != reportSummaryFallback || e.Params.Action != "" {
		t.Fatalf("a report from before summaries: %+v %v", e.Params, err)
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
