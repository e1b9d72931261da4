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
