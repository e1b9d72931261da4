// Package labtest holds what the tests of the lab, the review and the
// review worker share to build pages that are slow on purpose.
package labtest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"
)

// HeroPNG is a 400×300 gradient, large enough to be a page's largest paint.
func HeroPNG(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	pic := image.NewRGBA(image.Rect(0, 0, 400, 300))
	for x := range 400 {
		for y := range 300 {
			pic.Set(x, y, color.RGBA{uint8(x), uint8(y), 120, 255})
		}
	}
	if err := png.Encode(&b, pic); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// SlowImage serves img as a PNG after delay (or not at all once the
// browser gives up on it).
func SlowImage(img []byte, delay time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(img)
	}
}

// SlowStore serves page as a store's home page, with its /hero.png (the
// page's largest paint, HeroPNG) arriving after 3 s.
func SlowStore(t testing.TB, page string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page)
	})
	mux.HandleFunc("/hero.png", SlowImage(HeroPNG(t), 3*time.Second))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// Chromium returns the browser the lab would use, or skips the test when
// there is none (make and .ci/run install it) or in -short.
func Chromium(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a real browser: not in -short")
	}
	chrome := "/usr/bin/chromium"
	if p := os.Getenv("CHROME_PATH"); p != "" {
		chrome = p
	}
	if _, err := os.Stat(chrome); err != nil {
		t.Skip("no Chromium (make and .ci/run install it)")
	}
	return chrome
}
