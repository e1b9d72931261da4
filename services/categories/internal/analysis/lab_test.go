package analysis

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
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
