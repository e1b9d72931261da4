package analysis

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"uplift.dev/platform/benchmem"
)

// reviewTarget is the bound for one page's review, whatever slow
// asset hosts do.
const reviewTarget = 2 * time.Second

// benchStore serves a 20-page store (home, 12 products, 3 collections and 4
// policy pages) with a sitemap, images and scripts, gzip like a real host.
func benchStore(b *testing.B, assetHost string) (*httptest.Server, []string) {
	b.Helper()
	var paths []string
	for i := range 12 {
		paths = append(paths, fmt.Sprintf("/products/candle-%d", i))
	}
	paths = append(paths, "/collections/all", "/collections/gifts", "/collections/new",
		"/pages/contact", "/policies/refund-policy", "/policies/shipping-policy", "/policies/privacy-policy")
	mux := http.NewServeMux()
	var base string
	links := ""
	for _, p := range paths {
		links += fmt.Sprintf(`<a href="%s">%s</a> `, p, strings.Trim(p, "/"))
	}
	page := func(title, body string) string {
		asset := base
		if assetHost != "" {
			asset = assetHost
		}
		return fmt.Sprintf(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>%s – Juniper Candle Co.</title>
<meta name="description" content="Hand-poured soy candles from Portland, shipped in two days with free returns on every order.">
<link rel="canonical" href="%s"><link rel="stylesheet" href="%s/assets/app.css"><script src="%s/assets/app.js" defer></script></head>
<body><h1>%s</h1><img src="%s/img/hero.jpg" alt="Candles"><img src="%s/img/b.jpg" alt="Shelf">%s<footer>%s
<form action="/newsletter"><input type="email" name="email"><button>Subscribe</button></form></footer>%s</body></html>`,
			title, base, asset, asset, title, asset, asset, body, links, pad(20000))
	}
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, page("Hand-poured soy candles", `<a href="/collections/all">Shop candles</a>`))
	})
	for i, p := range paths {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			body := ""
			if strings.HasPrefix(p, "/products/") {
				body = fmt.Sprintf(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Candle %d","offers":{"price":"%d","priceCurrency":"USD","availability":"https://schema.org/InStock"},"aggregateRating":{"ratingValue":"4.8","reviewCount":"12"}}</script>
<form action="/cart/add"><button>Add to cart</button></form>`, i, 20+i)
			}
			io.WriteString(w, page(strings.Trim(p, "/"), body))
		})
	}
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/sitemap.xml\n", base)
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range paths {
			fmt.Fprintf(w, "<url><loc>%s%s</loc></url>", base, p)
		}
		fmt.Fprint(w, `</urlset>`)
	})
	mux.HandleFunc("/img/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=31536000")
		w.Write(make([]byte, 60<<10))
	})
	mux.HandleFunc("/assets/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=31536000")
		io.WriteString(w, "/* asset */")
	})
	srv := httptest.NewServer(gzipped(mux))
	base = srv.URL
	b.Cleanup(srv.Close)
	return srv, append([]string{"/"}, paths...)
}

// BenchmarkReview20PageStore reviews a 20-page local store. The baseline
// is a bare fetch of the same 20 pages with net/http, four at a time as
// the review reads them: what is left is the review's own work (parsing,
// checks, catalogue, text) and its robots, sitemap and asset requests.
func BenchmarkReview20PageStore(b *testing.B) {
	srv, paths := benchStore(b, "")
	ctx := context.Background()
	b.Run("baseline=fetch-20-pages", func(b *testing.B) {
		peak := benchmem.WatchHeap()
		for b.Loop() {
			var wg sync.WaitGroup
			next := make(chan string)
			for range 4 {
				wg.Go(func() {
					for p := range next {
						resp, err := http.Get(srv.URL + p)
						if err != nil {
							b.Error(err)
							continue
						}
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				})
			}
			for _, p := range paths {
				next <- p
			}
			close(next)
			wg.Wait()
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/store")
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
	b.Run("product=review", func(b *testing.B) {
		a := New(Options{AllowLoopback: true, MaxPages: len(paths) - 1, Now: fixedNow})
		peak := benchmem.WatchHeap()
		for b.Loop() {
			res, err := a.Analyze(ctx, srv.URL, nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Ideas) < 3 {
				b.Fatalf("%d ideas", len(res.Ideas))
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/store")
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
}

// BenchmarkReviewWithSilentAssetHost reviews one page whose images,
// stylesheet and script come from a host that never answers; the target is
// reviewTarget for the whole review.
func BenchmarkReviewWithSilentAssetHost(b *testing.B) {
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}))
	b.Cleanup(silent.Close)
	srv, _ := benchStore(b, silent.URL)
	a := New(Options{AllowLoopback: true, MaxPages: 1, Now: fixedNow})
	worst := time.Duration(0)
	for b.Loop() {
		start := time.Now()
		if _, err := a.Score(context.Background(), srv.URL); err != nil {
			b.Fatal(err)
		}
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/review")
	b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
	if worst > reviewTarget {
		b.Errorf("a review took %v with a silent asset host; the target is %v", worst, reviewTarget)
	}
}
