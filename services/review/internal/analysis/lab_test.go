package analysis

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/lab"
	"uplift.dev/review/internal/analysis/lab/labtest"
)

// TestLabBrowserMeetsTheFetchersPolicy runs the browser on a page from the
// one allow-listed origin that embeds an image from another loopback
// server: the browser's requests go through the guarded fetcher's proxy,
// so the page loads and the other server is never reached.
func TestLabBrowserMeetsTheFetchersPolicy(t *testing.T) {
	labtest.Chromium(t)
	var other, allowed atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { other.Add(1) }))
	defer elsewhere.Close()
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		allowed.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><head><title>Shop</title></head><body><h1>Candles</h1><img src="%s/pixel.png"></body></html>`, elsewhere.URL)
	}))
	defer shop.Close()
	a := New(Options{AllowOrigins: []string{shop.URL}, Timeout: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := a.Lab(ctx, shop.URL, lab.Options{Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Median.FCP <= 0 || allowed.Load() < 2 {
		t.Errorf("the allowed page was not measured: %+v, %d requests", r.Median, allowed.Load())
	}
	if n := other.Load(); n != 0 {
		t.Errorf("the browser reached a loopback server the fetcher refuses (%d requests)", n)
	}
}

// TestCatalogueDrawnByJavaScript reviews a store whose home page adds its
// products (as JSON-LD, the way headless storefronts do) only when its
// script runs: read as served, no products; with the browser, the
// products, prices and ideas are the store's own.
func TestCatalogueDrawnByJavaScript(t *testing.T) {
	labtest.Chromium(t)
	srv := servePage(t, []byte(`<!doctype html><html lang="en"><head><title>Juniper Candle Co.</title></head><body>
<h1>Hand-poured soy candles</h1><div id="grid"></div>
<script>
const items = [["Cedar & Smoke", "32.00"], ["Fig Leaf", "28.00"], ["Sea Salt", "24.00"]];
const ld = document.createElement('script');
ld.type = 'application/ld+json';
ld.textContent = JSON.stringify({"@context": "https://schema.org", "@type": "ItemList", "itemListElement": items.map(([name, price]) =>
  ({"@type": "ListItem", "item": {"@type": "Product", "name": name, "offers": {"@type": "Offer", "price": price, "priceCurrency": "USD", "availability": "https://schema.org/InStock"}}}))});
document.head.appendChild(ld);
document.getElementById('grid').innerHTML = items.map(([n, p]) => '<div class="card">' + n + ' $' + p + '</div>').join('');
</script></body></html>`))
	served := analyze(t, newTestAnalyzer(t, srv, Options{}), srv.URL, nil)
	if strings.Contains(served.Summary, "Cedar & Smoke") {
		t.Fatalf("the served HTML has no products, yet: %s", served.Summary)
	}
	rendered := analyze(t, newTestAnalyzer(t, srv, Options{RenderJS: true}), srv.URL, nil)
	for _, want := range []string{"Cedar & Smoke", "$24", "$32"} {
		if !strings.Contains(rendered.Summary, want) {
			t.Errorf("summary lacks %q: %s", want, rendered.Summary)
		}
	}
	checkIdeas(t, rendered.Ideas, []string{"Cedar & Smoke", "Fig Leaf", "Sea Salt"})
}

// slowStore is a one-page store built to be slow: its hero image (the
// largest paint) arrives after 3 s and a script blocks the page for
// 600 ms after the first paint.
func slowStore(t *testing.T) *httptest.Server {
	return labtest.SlowStore(t, `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Juniper Candle Co. | Hand-poured soy candles</title><meta name="description" content="Hand-poured soy candles made in small batches in Portland, shipped in two days.">
</head><body><h1>Hand-poured soy candles</h1><img id="hero" src="/hero.png" width="400" height="300" alt="Cedar candle on a shelf">
<p>Cedar & Smoke $32.00 · Fig Leaf $28.00 · Sea Salt $24.00</p>
<script>setTimeout(() => { const end = Date.now() + 600; while (Date.now() < end) {} }, 200);</script></body></html>`)
}

// TestReviewMeasuresSpeedInTheBrowser: with the lab on (the review
// worker), the review a store owner sees carries the home page's real
// speed, the slowest element named; the review itself is unchanged.
func TestReviewMeasuresSpeedInTheBrowser(t *testing.T) {
	labtest.Chromium(t)
	srv := slowStore(t)
	plain := analyze(t, newTestAnalyzer(t, srv, Options{}), srv.URL, nil)
	if plain.Review.Speed != nil {
		t.Fatalf("a review without the lab has speed %+v", plain.Review.Speed)
	}
	res := analyze(t, newTestAnalyzer(t, srv, Options{Lab: &lab.Options{Runs: 1, Budget: time.Minute}}), srv.URL, nil)
	sp := res.Review.Speed
	if sp == nil || !sp.Measured || sp.Reason != "" {
		t.Fatalf("speed not measured: %+v", sp)
	}
	t.Logf("speed %+v", *sp)
	if sp.LCPMs < 3000 || sp.LCPMs > 12000 || !strings.Contains(sp.LCPElement, "hero") || sp.Ratings["lcp"] == "good" {
		t.Errorf("LCP %.0f ms on %q (%v), want 3–12 s on the hero image", sp.LCPMs, sp.LCPElement, sp.Ratings)
	}
	if sp.TBTMs < 400 || sp.INPMs < 550 || sp.FCPMs <= 0 || sp.SpeedIndexMs < sp.FCPMs || sp.Bytes < 1000 || sp.Runs != 1 {
		t.Errorf("TBT %.0f, INP %.0f, FCP %.0f, SI %.0f, %d bytes, %d runs", sp.TBTMs, sp.INPMs, sp.FCPMs, sp.SpeedIndexMs, sp.Bytes, sp.Runs)
	}
	if sp.Score <= 0 || sp.Score >= 90 {
		t.Errorf("a page this slow scores %d", sp.Score)
	}
	if res.Review.Score != plain.Review.Score || len(res.Review.Checks) != len(plain.Review.Checks) {
		t.Errorf("the lab changed the review: %d vs %d", res.Review.Score, plain.Review.Score)
	}
}

// TestReviewWithoutABrowserSaysSo: a worker whose Chromium is missing
// still delivers the whole review, and speed says it was not measured
// and why, never a zero that reads as fast.
func TestReviewWithoutABrowserSaysSo(t *testing.T) {
	srv := slowStore(t)
	res := analyze(t, newTestAnalyzer(t, srv, Options{Lab: &lab.Options{ExecPath: "/nonexistent/chromium"}}), srv.URL, nil)
	sp := res.Review.Speed
	if sp == nil || sp.Measured || sp.Reason != domain.SpeedNoBrowser || sp.Score != 0 || sp.LCPMs != 0 {
		t.Fatalf("speed %+v, want not measured with the reason", sp)
	}
	if res.Review.Score <= 0 || len(res.Review.Checks) == 0 || res.Summary == "" || len(res.Ideas) == 0 {
		t.Errorf("the review did not stand without the browser: score %d, %d checks, summary %q", res.Review.Score, len(res.Review.Checks), res.Summary)
	}
}
