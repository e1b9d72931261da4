package apibench

import (
	"strings"
	"testing"
	"time"
)

func TestGoBenchLinesPairProductWithBaseline(t *testing.T) {
	out := `goos: linux
BenchmarkParse/baseline=encoding-csv-2         	      10	 100000000 ns/op	  2000 orders/s	 5.0 peak-heap-MiB
BenchmarkParse/product=ordercsv-2              	      10	 200000000 ns/op	  1000 orders/s	 7.0 peak-heap-MiB
BenchmarkReview/baseline=fetch-2   1   4000000 ns/op
BenchmarkReview/product=review-2   1   8000000 ns/op   12 peak-heap-MiB
BenchmarkMaskIoU-2   1   5000000 ns/op   0.91 iou-no-shadow
PASS
`
	lines := GoBenchLines(strings.NewReader(out))
	if len(lines) != 3 {
		t.Fatalf("%d lines: %+v", len(lines), lines)
	}
	if l := lines[0]; l.Measure != "Parse" || l.Ratio != "0.50×" || l.Product != "1000 orders/s" || l.Peak != "7 heap-MiB / 5 heap-MiB" {
		t.Fatalf("rate pair: %+v", l)
	}
	if l := lines[1]; l.Measure != "Review" || l.Ratio != "0.50×" || l.Product != "8ms/op" || l.Peak != "12 heap-MiB / —" {
		t.Fatalf("time pair: %+v", l)
	}
	if l := lines[2]; l.Measure != "MaskIoU" || l.Baseline != "—" {
		t.Fatalf("alone: %+v", l)
	}
}

// A product that reports goal-ratio has that goal on its line, by rate or
// by time per operation, and misses it below.
func TestGoBenchLinesCarryRatioGoals(t *testing.T) {
	out := `BenchmarkImportOrders/baseline=csv+copy-2   1   3000000000 ns/op   30000 orders/s
BenchmarkImportOrders/product=ImportOrders-2   1   5000000000 ns/op   20000 orders/s   0.6000 goal-ratio
BenchmarkYearOfMetrics/baseline=bare-query-2   100   1000000 ns/op
BenchmarkYearOfMetrics/product=GetMetrics-2   100   2000000 ns/op   0.6000 goal-ratio
BenchmarkEmptyStoreMetrics/baseline=bare-query-2   100   1000000 ns/op
BenchmarkEmptyStoreMetrics/product=GetMetrics-2   100   2000000 ns/op
`
	lines := GoBenchLines(strings.NewReader(out))
	if len(lines) != 3 {
		t.Fatalf("%d lines: %+v", len(lines), lines)
	}
	if l := lines[0]; l.Ratio != "0.67×" || l.Goal != "≥ 0.6×" || l.Missed {
		t.Fatalf("met by rate: %+v", l)
	}
	if l := lines[1]; l.Ratio != "0.50×" || l.Goal != "≥ 0.6×" || !l.Missed {
		t.Fatalf("missed by time: %+v", l)
	}
	if l := lines[2]; l.Goal != "" || l.Missed {
		t.Fatalf("no goal: %+v", l)
	}
}

// A benchmark of mask quality has a line per case, product beside
// baseline by IoU (not by the time the measurement took), and the mean's
// goal is checked.
func TestGoBenchLinesShowIoUPerCase(t *testing.T) {
	out := `BenchmarkRealPhotoIoU/handbag/product-2    1   4305197746 ns/op   0.9772 IoU
BenchmarkRealPhotoIoU/handbag/baseline-2   1   1828467982 ns/op   0.9761 IoU
BenchmarkRealPhotoIoU/wicker/product-2     1   1654801909 ns/op   0.8499 IoU
BenchmarkRealPhotoIoU/wicker/baseline-2    1   1039576713 ns/op   0.9079 IoU
BenchmarkRealPhotoIoU/mean/product-2       1   161.0 ns/op   0.8842 IoU   0.9000 goal-IoU
BenchmarkRealPhotoIoU/mean/baseline-2      1   150.0 ns/op   0.8525 IoU
`
	lines := GoBenchLines(strings.NewReader(out))
	if len(lines) != 3 {
		t.Fatalf("%d lines: %+v", len(lines), lines)
	}
	if l := lines[0]; l.Measure != "RealPhotoIoU/handbag" || l.Product != "0.977 IoU" || l.Baseline != "0.976 IoU" || l.Ratio != "1.00×" || l.Goal != "" {
		t.Fatalf("handbag: %+v", l)
	}
	if l := lines[1]; l.Measure != "RealPhotoIoU/wicker" || l.Ratio != "0.94×" {
		t.Fatalf("wicker: %+v", l)
	}
	if l := lines[2]; l.Measure != "RealPhotoIoU/mean" || l.Product != "0.884 IoU" || l.Goal != "IoU ≥ 0.90" || !l.Missed {
		t.Fatalf("mean: %+v", l)
	}
}

func TestAPILinesAreMediansOfRounds(t *testing.T) {
	r := Row{Measure: Measures[0],
		Product: []Result{{PerSecond: 100, CPUPerRequest: 400 * time.Microsecond}, {PerSecond: 300, CPUPerRequest: 250 * time.Microsecond},
			{PerSecond: 200, CPUPerRequest: 300 * time.Microsecond}},
		Bare: []Result{{PerSecond: 400, CPUPerRequest: 100 * time.Microsecond}, {PerSecond: 400, CPUPerRequest: 100 * time.Microsecond},
			{PerSecond: 500, CPUPerRequest: 120 * time.Microsecond}},
		ProductHalf: []Result{{PerSecond: 100, P99: 4 * time.Millisecond}, {PerSecond: 100, P99: 9 * time.Millisecond}, {PerSecond: 100, P99: 5 * time.Millisecond}},
		BareHalf:    []Result{{P99: time.Millisecond}, {P99: time.Millisecond}, {P99: time.Millisecond}},
		ProductPeak: []int64{30 << 20, 40 << 20, 50 << 20}, BarePeak: []int64{10 << 20, 10 << 20, 10 << 20},
	}
	lines := APILines([]Row{r})
	// The ratio is the median of the rounds' ratios (0.25, 0.75, 0.40),
	// not 200 ÷ 400 from medians taken in different rounds.
	if l := lines[0]; l.Product != "200 req/s" || l.Baseline != "400 req/s" || l.Ratio != "0.40×" || l.Peak != "40 MiB / 10 MiB" {
		t.Fatalf("throughput: %+v", l)
	}
	if l := lines[1]; l.Product != "300 µs" || l.Baseline != "100 µs" || l.Ratio != "0.40×" {
		t.Fatalf("CPU per request: %+v", l)
	}
	if l := lines[2]; l.Product != "5.00 ms" || l.Baseline != "1.00 ms" || l.Ratio != "0.20×" || !strings.Contains(l.Measure, "100 req/s") {
		t.Fatalf("p99: %+v", l)
	}
}

func TestAPILinesMarkTheGoalsMissed(t *testing.T) {
	r := Row{Measure: Measures[0], // ≥ 0.5×, CPU ≤ 3×, p99 ≤ 3× the bare handler's
		Product: []Result{{PerSecond: 100, CPUPerRequest: 400 * time.Microsecond}}, Bare: []Result{{PerSecond: 400, CPUPerRequest: 100 * time.Microsecond}},
		ProductHalf: []Result{{P99: 9 * time.Millisecond}}, BareHalf: []Result{{P99: 3 * time.Millisecond}},
		ProductPeak: []int64{1}, BarePeak: []int64{1},
	}
	lines := APILines([]Row{r})
	if l := lines[0]; !l.Missed || l.Goal != "≥ 0.5×" {
		t.Fatalf("0.25× against ≥ 0.5×: %+v", l)
	}
	if l := lines[1]; !l.Missed || l.Goal != "≤ 3× the bare CPU" {
		t.Fatalf("4× the CPU against ≤ 3×: %+v", l)
	}
	if l := lines[2]; l.Missed || l.Goal != "p99 ≤ 3× the bare p99" {
		t.Fatalf("9 ms against the bare 3 ms, p99 ≤ 3×: %+v", l)
	}
	r.ProductHalf[0].P99 = 10 * time.Millisecond
	if l := APILines([]Row{r})[2]; !l.Missed {
		t.Fatalf("10 ms against the bare 3 ms, p99 ≤ 3×: %+v", l)
	}
	w := Row{Measure: Measures[1], Product: r.Product, Bare: r.Bare, ProductHalf: r.ProductHalf, BareHalf: r.BareHalf, ProductPeak: r.ProductPeak, BarePeak: r.BarePeak}
	if l := APILines([]Row{w})[1]; l.Goal != "" || l.Missed {
		t.Fatalf("a write's CPU has no goal: %+v", l)
	}
}

func TestReportGoesOnPastMissesAndFailures(t *testing.T) {
	api := []Line{{Measure: "GET internal/users/{id} max", Product: "1659 req/s", Ratio: "0.27×", Goal: "≥ 0.6×", Missed: true},
		{Measure: "  p99 at half the product's max", Product: "5 ms", Goal: "p99 ≤ 10 ms"},
		{Measure: "PUT internal/categories/{id}/label max", Product: "300 req/s", Ratio: "0.9×", Goal: "≥ 0.5×"},
		{Measure: "  p99 at half the product's max", Product: "60 ms", Ratio: "1.2×", Goal: "p99 ≤ 20 ms", Missed: true}}
	goOut := []byte(`BenchmarkParse/baseline=encoding-csv-2   10   100000000 ns/op   2000 orders/s
BenchmarkParse/product=ordercsv-2   10   200000000 ns/op   1000 orders/s
--- FAIL: BenchmarkReviewWithSilentAssetHost-2
    bench_test.go:170: a review took 2.5s with a silent asset host; the target is 2s
FAIL
`)
	web := []Line{{Measure: "web Lighthouse, Analytics (signed in)", Product: "score 90, LCP 1.14 s", Goal: "score ≥ 98, LCP ≤ 1 s", Missed: true}}
	var out strings.Builder
	if failed := Report(&out, api, goOut, web); failed != 1 {
		t.Errorf("%d failed, want 1", failed)
	}
	for _, want := range []string{"Parse", "0.50×", "web Lighthouse, Analytics (signed in)",
		"Goals missed (3):\n  GET internal/users/{id} max: 1659 req/s, 0.27× (goal ≥ 0.6×)\n" +
			"  PUT internal/categories/{id}/label, p99 at half the product's max: 60 ms, 1.2× (goal p99 ≤ 20 ms)\n" +
			"  web Lighthouse, Analytics (signed in): score 90, LCP 1.14 s (goal score ≥ 98, LCP ≤ 1 s)\n",
		"failed (their output: .local/bench/go.txt): BenchmarkReviewWithSilentAssetHost-2"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}
