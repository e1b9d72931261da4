package apibench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Line is one line of the `make bench` table; Missed says its goal is not met.
type Line struct {
	Measure, Product, Baseline, Ratio, Peak, Goal string
	Missed                                        bool `json:",omitempty"`
}

// APILines turns the rounds into medians: throughput as a ratio of the
// bare handler's, and p99 at half of the product's maximum. Each ratio is
// the median of the rounds' own ratios: product and baseline ran one right
// after the other within a round, so a round's ratio is taken at one load
// of the shared machine, where the medians of each side may come from
// rounds far apart.
func APILines(rows []Row) []Line {
	var out []Line
	for _, r := range rows {
		p := median(r.Product, func(x Result) float64 { return x.PerSecond })
		b := median(r.Bare, func(x Result) float64 { return x.PerSecond })
		ratio := medianRatio(r.Product, r.Bare, func(p, b Result) float64 { return p.PerSecond / b.PerSecond })
		p99Ratio := medianRatio(r.ProductHalf, r.BareHalf, func(p, b Result) float64 { return float64(b.P99) / float64(p.P99) })
		pp := median(r.ProductPeak, func(x int64) float64 { return float64(x) })
		bp := median(r.BarePeak, func(x int64) float64 { return float64(x) })
		out = append(out, Line{
			Measure: r.Measure.Name + " max", Product: fmt.Sprintf("%.0f req/s", p), Baseline: fmt.Sprintf("%.0f req/s", b),
			Ratio: fmt.Sprintf("%.2f×", ratio), Peak: fmt.Sprintf("%s / %s", mib(pp), mib(bp)),
			Goal: fmt.Sprintf("≥ %g×", r.Measure.MinRatio), Missed: ratio < r.Measure.MinRatio,
		})
		if pc := median(r.Product, func(x Result) float64 { return float64(x.CPUPerRequest) }); pc > 0 {
			bc := median(r.Bare, func(x Result) float64 { return float64(x.CPUPerRequest) })
			cpuRatio := medianRatio(r.Product, r.Bare, func(p, b Result) float64 {
				return float64(b.CPUPerRequest) / float64(p.CPUPerRequest)
			})
			l := Line{Measure: "  CPU per request at max (gateway + service)", Product: us(pc), Baseline: us(bc), Ratio: fmt.Sprintf("%.2f×", cpuRatio)}
			if m := r.Measure.MaxCPU; m > 0 {
				l.Goal, l.Missed = fmt.Sprintf("≤ %g× the bare CPU", m), cpuRatio < 1/m
			}
			out = append(out, l)
		}
		half := median(r.ProductHalf, func(x Result) float64 { return x.PerSecond })
		p99 := median(r.ProductHalf, func(x Result) float64 { return float64(x.P99) })
		b99 := median(r.BareHalf, func(x Result) float64 { return float64(x.P99) })
		out = append(out, Line{
			Measure: fmt.Sprintf("  p99 at half the product's max (%.0f req/s)", half),
			Product: ms(p99), Baseline: ms(b99), Ratio: fmt.Sprintf("%.2f×", p99Ratio), Peak: "",
			Goal: fmt.Sprintf("p99 ≤ %g× the bare p99", r.Measure.MaxP99), Missed: p99Ratio < 1/r.Measure.MaxP99,
		})
	}
	return out
}

// medianRatio is the median over rounds of ratio(product, baseline).
func medianRatio(product, baseline []Result, ratio func(p, b Result) float64) float64 {
	rs := make([]float64, 0, len(product))
	for i := range min(len(product), len(baseline)) {
		rs = append(rs, ratio(product[i], baseline[i]))
	}
	return median(rs, func(x float64) float64 { return x })
}

func mib(b float64) string { return fmt.Sprintf("%.0f MiB", b/(1<<20)) }

func us(ns float64) string {
	return fmt.Sprintf("%.0f µs", float64(time.Duration(ns))/float64(time.Microsecond))
}

func ms(ns float64) string {
	return fmt.Sprintf("%.2f ms", float64(time.Duration(ns))/float64(time.Millisecond))
}

var benchLine = regexp.MustCompile(`^(Benchmark[^\s]+?)(-\d+)?\s+(\d+)\s+(.*)$`)

type goBench struct {
	name    string
	metrics map[string]float64
	order   []string
}

// GoBenchLines reads `go test -bench` output: benchmarks with product…
// and baseline… sub-benchmarks (the last part of the name, so
// BenchmarkX/case/product pairs with BenchmarkX/case/baseline: one line
// per case) become one line with their ratio (by the first "/s" metric,
// else an IoU, else time per op); others are listed alone. A product that
// reports goal-IoU has that goal on its line, and one that reports
// goal-ratio the least ratio to its baseline it should reach.
func GoBenchLines(r io.Reader) []Line {
	var benches []goBench
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		b := goBench{name: m[1], metrics: map[string]float64{}}
		f := strings.Fields(m[4])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			b.metrics[f[i+1]] = v
			b.order = append(b.order, f[i+1])
		}
		benches = append(benches, b)
	}
	type pair struct{ product, baseline *goBench }
	pairs := map[string]*pair{}
	var names []string
	var out []Line
	for i := range benches {
		b := &benches[i]
		i := strings.LastIndex(b.name, "/")
		ok := i >= 0
		parent, sub := b.name, ""
		if ok {
			parent, sub = b.name[:i], b.name[i+1:]
		}
		role := ""
		if ok && strings.HasPrefix(sub, "product") {
			role = "product"
		} else if ok && strings.HasPrefix(sub, "baseline") {
			role = "baseline"
		}
		if role == "" {
			continue
		}
		p, seen := pairs[parent]
		if !seen {
			p = &pair{}
			pairs[parent] = p
			names = append(names, parent)
		}
		if role == "product" {
			p.product = b
		} else {
			p.baseline = b
		}
	}
	paired := map[*goBench]bool{}
	for _, n := range names {
		p := pairs[n]
		if p.product == nil || p.baseline == nil {
			continue
		}
		paired[p.product], paired[p.baseline] = true, true
		unit, higher := primary(p.product)
		pv, bv := p.product.metrics[unit], p.baseline.metrics[unit]
		ratio, r := "—", 0.0
		if pv > 0 && bv > 0 {
			if r = bv / pv; higher {
				r = pv / bv
			}
			ratio = fmt.Sprintf("%.2f×", r)
		}
		l := Line{Measure: strings.TrimPrefix(n, "Benchmark"), Product: value(pv, unit), Baseline: value(bv, unit),
			Ratio: ratio, Peak: peak(p.product) + " / " + peak(p.baseline)}
		if g, ok := p.product.metrics["goal-"+unit]; ok && unit == iouUnit {
			l.Goal, l.Missed = fmt.Sprintf("%s ≥ %.2f", unit, g), pv < g
		} else if g, ok := p.product.metrics[ratioGoal]; ok {
			l.Goal, l.Missed = fmt.Sprintf("≥ %g×", g), r < g
		}
		out = append(out, l)
	}
	for i := range benches {
		b := &benches[i]
		if paired[b] {
			continue
		}
		unit, _ := primary(b)
		out = append(out, Line{Measure: strings.TrimPrefix(b.name, "Benchmark"), Product: value(b.metrics[unit], unit),
			Baseline: "—", Ratio: "—", Peak: peak(b)})
	}
	return out
}

// ratioGoal is the metric a product reports to put a goal for its ratio
// to the baseline on its line (b.ReportMetric(0.6, "goal-ratio")).
const ratioGoal = "goal-ratio"

// iouUnit is the metric of a mask's agreement with the truth (0–1,
// higher is better): the studio's cut-out quality.
const iouUnit = "IoU"

// primary is the metric a benchmark is judged by: the first rate it
// reports (higher is better), else an IoU (higher is better: a quality
// benchmark's time per operation is only what the measurement cost), else
// its time per operation.
func primary(b *goBench) (string, bool) {
	for _, u := range b.order {
		if strings.HasSuffix(u, "/s") {
			return u, true
		}
	}
	if _, ok := b.metrics[iouUnit]; ok {
		return iouUnit, true
	}
	return "ns/op", false
}

func value(v float64, unit string) string {
	switch unit {
	case "ns/op":
		return time.Duration(v).Round(time.Microsecond).String() + "/op"
	case iouUnit:
		return fmt.Sprintf("%.3f %s", v, unit)
	}
	return fmt.Sprintf("%.4g %s", v, unit)
}

func peak(b *goBench) string {
	for _, u := range []string{"peak-heap-MiB", "peak-MB"} {
		if v, ok := b.metrics[u]; ok {
			return fmt.Sprintf("%.0f %s", v, strings.TrimPrefix(u, "peak-"))
		}
	}
	return "—"
}

// Print writes the one table.
func Print(w io.Writer, lines []Line) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MEASURE\tPRODUCT\tBASELINE\tRATIO\tPEAK MEMORY (product / baseline)\tGOAL")
	for _, l := range lines {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.Measure, l.Product, l.Baseline, l.Ratio, l.Peak, l.Goal)
	}
	_ = tw.Flush()
}

// Report prints make bench's one table: the API's lines, the Go
// benchmarks' (from their raw output) and the web's, then the goals the
// table misses and the benchmarks that failed, so that one failure or miss
// neither hides the rest nor stops the run. It returns how many failed.
func Report(w io.Writer, api []Line, goOut []byte, web []Line) int {
	lines := append(append(slices.Clone(api), GoBenchLines(bytes.NewReader(goOut))...), web...)
	fmt.Fprintln(w)
	Print(w, lines)
	fmt.Fprintln(w, "\nRatio: product ÷ baseline throughput (for p99 rows, baseline ÷ product; for IoU rows, product ÷ baseline IoU), for API rows the median of each round's ratio; peak memory is peak RSS of the gateway and the service for API rows, peak Go heap otherwise; idle memory is the gateway's and the services' RSS summed before the API load.")
	var missed []string
	parent := ""
	for _, l := range lines {
		name := l.Measure
		if strings.HasPrefix(name, "  ") { // a row under the measure above it
			name = parent + ", " + strings.TrimSpace(name)
		} else {
			parent = strings.TrimSuffix(name, " max")
		}
		if !l.Missed {
			continue
		}
		got := l.Product
		if l.Ratio != "" && l.Ratio != "—" {
			got += ", " + l.Ratio
		}
		missed = append(missed, fmt.Sprintf("  %s: %s (goal %s)", name, got, l.Goal))
	}
	if len(missed) > 0 {
		fmt.Fprintf(w, "\nGoals missed (%d):\n%s\n", len(missed), strings.Join(missed, "\n"))
	} else {
		fmt.Fprintln(w, "\nEvery goal in the table is met.")
	}
	failed := FailedBenchmarks(goOut)
	if len(failed) > 0 {
		fmt.Fprintf(w, "Go benchmarks that failed (their output: .local/bench/go.txt): %s\n", strings.Join(failed, ", "))
	}
	return len(failed)
}

var failLine = regexp.MustCompile(`^\s*--- FAIL: (Benchmark\S+)`)

// FailedBenchmarks names the benchmarks `go test -bench` output says failed.
func FailedBenchmarks(out []byte) []string {
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := failLine.FindStringSubmatch(sc.Text()); m != nil {
			names = append(names, m[1])
		}
	}
	return names
}
