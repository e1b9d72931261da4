package analysis

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"uplift.dev/categories/internal/analysis/lab"
)

// TestLabBrowserMeetsTheFetchersPolicy runs the browser on a page from the
// one allow-listed origin that embeds an image from another loopback
// server: the browser's requests go through the guarded fetcher's proxy,
// so the page loads and the other server is never reached.
func TestLabBrowserMeetsTheFetchersPolicy(t *testing.T) {
	if testing.Short() {
		t.Skip("a real browser: not in -short")
	}
	if _, err := os.Stat("/usr/bin/chromium"); err != nil && os.Getenv("CHROME_PATH") == "" {
		t.Skip("no Chromium (make and .ci/run install it)")
	}
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
	if testing.Short() {
		t.Skip("a real browser: not in -short")
	}
	if _, err := os.Stat("/usr/bin/chromium"); err != nil && os.Getenv("CHROME_PATH") == "" {
		t.Skip("no Chromium (make and .ci/run install it)")
	}
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
