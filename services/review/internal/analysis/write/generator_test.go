package write

import (
	"context"
	"strings"
	"testing"

	"uplift.dev/review/internal/analysis/page"
)

func TestOnePriceIsNoRangeAndOneProductIsSingular(t *testing.T) {
	// One product at one price: no "$19.99–$19.99", no "1 products".
	b := Brief{StoreName: "Acme", SiteURL: "https://acme.example/", Currency: "USD", Today: "2026-11-10",
		Products:  []page.Product{{Name: "Mug", Price: 19.99, Currency: "USD", Available: true}},
		Prices:    PriceStats{Count: 1, Min: 19.99, Max: 19.99, Median: 19.99, Low: 19.99, High: 19.99},
		Occasions: []BriefDate{{Name: "Black Friday", Date: "2026-11-27", DaysAway: 17, Gift: true}}}
	text, _ := Deterministic{}.Generate(context.Background(), b)
	all := text.Summary
	for _, i := range text.Ideas {
		all += "\n" + strings.Join([]string{i.Title, i.WhyNow, i.SubjectLine, i.Body, i.Timing}, "\n")
	}
	for _, bad := range []string{"$19.99–$19.99", "1 products"} {
		if strings.Contains(all, bad) {
			t.Errorf("text says %q:\n%s", bad, all)
		}
	}
}
