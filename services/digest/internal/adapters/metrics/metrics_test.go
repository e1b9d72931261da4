package metrics_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"uplift.dev/digest/internal/adapters/metrics"
	"uplift.dev/digest/internal/domain"
)

func TestCountsByKindAndOutcome(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	c, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	c.Count(domain.KindAIDigest, "queued")
	c.Count(domain.KindAIDigest, "suppressed")
	c.Count(domain.KindAIDigest, "suppressed")
	if n, err := testutil.GatherAndCount(reg, "uplift_digest_emails_total"); err != nil || n != 10*5 { // every kind × outcome starts at 0
		t.Fatalf("series %d %v", n, err)
	}
	again, err := metrics.New(reg) // a second wiring shares the counters
	if err != nil {
		t.Fatal(err)
	}
	again.Count(domain.KindAIDigest, "suppressed")
	mfs, _ := reg.Gather()
	got := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			got[m.GetLabel()[0].GetValue()+"/"+m.GetLabel()[1].GetValue()] = m.GetCounter().GetValue()
		}
	}
	if got["ai_digest/queued"] != 1 || got["ai_digest/suppressed"] != 3 || got["welcome/sent"] != 0 {
		t.Fatalf("counters %v", got)
	}
	if _, ok := got["shop_moved/sent"]; !ok {
		t.Fatalf("counters %v", got)
	}
}
