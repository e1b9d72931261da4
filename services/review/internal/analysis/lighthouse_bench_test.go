package analysis

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"uplift.dev/review/internal/analysis/corpus"
	"uplift.dev/review/internal/lhcli"
)

// lighthouseBin is Lighthouse as `make bench` installs it
// (services/review/bench), found from the package's folder, where go test
// runs it.
func lighthouseBin(b *testing.B) string {
	b.Helper()
	bin := filepath.Join("..", "..", "bench", "node_modules", ".bin", "lighthouse")
	if _, err := os.Stat(bin); err != nil {
		b.Skip("Lighthouse is not installed (make bench installs it)")
	}
	return bin
}

// lighthouseSEO runs Lighthouse's SEO category on url in Debian's Chromium
// and returns each audit's verdict, counting one it could not apply as
// passed, as its score does.
func lighthouseSEO(b *testing.B, bin, url string) map[string]bool {
	b.Helper()
	seo, err := lhcli.RunSEO(context.Background(), bin, "/usr/bin/chromium", url)
	if err != nil {
		b.Fatal(err)
	}
	for id := range seo.NotApplicable {
		seo.Pass[id] = true
	}
	return seo.Pass
}

// reviewsPerOp is how many reviews one timed operation holds. A review
// waits on the page's unresolvable asset hosts for some 8 ms or some 370 ms
// depending on the resolver, and b.Loop sizes its run from its first
// operation: a fast single review made it run a hundred of them (~40 s of
// make bench) where ten give the average.
const reviewsPerOp = 10

// BenchmarkReviewBesideLighthouse reviews one real store page and runs
// Lighthouse's SEO category on the same page in the same run: the time of
// each, and whether every shared SEO verdict agrees.
func BenchmarkReviewBesideLighthouse(b *testing.B) {
	bin := lighthouseBin(b)
	srv := servePage(b, corpus.Page(b, "formasaurus-1.html"))
	var lh map[string]bool
	var lhTime time.Duration
	b.Run("baseline=lighthouse-seo", func(b *testing.B) {
		for b.Loop() {
			start := time.Now()
			lh = lighthouseSEO(b, bin, srv.URL+"/")
			lhTime = time.Since(start)
		}
		b.ReportMetric(float64(lhTime.Milliseconds()), "ms/page")
	})
	b.Run("product=review", func(b *testing.B) {
		a := New(Options{AllowLoopback: true, Now: fixedNow})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for b.Loop() {
			for range reviewsPerOp {
				rv, err := a.Score(context.Background(), srv.URL)
				if err != nil {
					b.Fatal(err)
				}
				for _, c := range rv.Checks {
					if c.Lighthouse == nil {
						continue
					}
					if want, ok := lh[c.Lighthouse.Audit]; ok && want != c.Lighthouse.Pass {
						b.Errorf("%s: review pass=%v, Lighthouse %v", c.Lighthouse.Audit, c.Lighthouse.Pass, want)
					}
				}
			}
		}
		// The page names assets on hosts this offline machine cannot
		// resolve: each costs the asset budget, as a dead host would.
		runtime.ReadMemStats(&after)
		reviews := float64(b.N * reviewsPerOp)
		each := b.Elapsed() / time.Duration(reviews)
		// Per review, as before a timed operation held ten.
		b.ReportMetric(float64(each.Nanoseconds()), "ns/op")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/reviews, "B/op")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/reviews, "allocs/op")
		b.ReportMetric(float64(each.Microseconds())/1000, "ms/page")
		if lhTime > 0 {
			b.ReportMetric(float64(lhTime)/float64(each), "x-faster")
		}
	})
}
