package ordercsv

import (
	"os"
	"testing"

	"uplift.dev/stores/internal/domain"
	"uplift.dev/stores/internal/ordercsv/ordercsvtest"
)

// corpusPath is the real export; it is a required fixture.
func corpusPath(t testing.TB) string {
	p, err := ordercsvtest.CorpusExport()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCorpusTotals(t *testing.T) {
	t.Parallel()
	f, err := os.Open(corpusPath(t))
	if err != nil {
		t.Fatalf("the real export is missing: %v", err)
	}
	defer f.Close()
	res, err := parseAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var sum domain.Amounts
	counted := 0
	for _, o := range res.Orders {
		if domain.Counts(o) {
			counted++
		}
		for _, s := range o.Sales {
			sum = sum.Add(domain.Classify(s))
		}
	}
	day, _ := domain.ParseDate("2025-12-06")
	if len(res.Orders) != 51 || counted != 51 {
		t.Errorf("orders = %d (counted %d), want 51", len(res.Orders), counted)
	}
	if res.Currency != "INR" {
		t.Errorf("currency = %q, want INR", res.Currency)
	}
	if got := domain.FormatMoney(sum.Gross, "INR"); got != "585942.00" {
		t.Errorf("gross = %s, want 585942.00", got)
	}
	if got := domain.FormatMoney(sum.Discounts, "INR"); got != "0.00" {
		t.Errorf("discounts = %s, want 0.00", got)
	}
	if got := domain.FormatMoney(sum.Net(), "INR"); got != "585942.00" {
		t.Errorf("net = %s, want 585942.00", got)
	}
	if res.FirstDay != day || res.LastDay != day {
		t.Errorf("days = %s…%s, want 2025-12-06", res.FirstDay, res.LastDay)
	}
	if got := domain.FormatMoney(sum.TotalSales(), "INR"); got != "590683.29" { // 585942.00 + taxes 4741.29
		t.Errorf("total sales = %s, want 590683.29", got)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings = %q", res.Warnings)
	}
	// The same through the reference computation, in the file's own offset.
	days := domain.DailyTotals(res.Orders, nil, day.AddDays(-1), day.AddDays(1))
	if d := days[1]; d.Orders != 51 || d.Gross != 58594200 || d.Net() != 58594200 || days[0].Orders+days[2].Orders != 0 {
		t.Errorf("daily = %+v", days)
	}
}
