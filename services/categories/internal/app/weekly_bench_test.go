package app_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	pgrepo "uplift.dev/categories/internal/adapters/postgres"
	"uplift.dev/categories/internal/app"
	"uplift.dev/categories/internal/domain"
	"uplift.dev/categories/migrations"
	"uplift.dev/platform/benchmem"
	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
	"uplift.dev/review/reviewtest"
)

// weeklyStores is how many businesses one weekly re-review covers: the
// store base the weekly schedule is sized for.
const weeklyStores = 1000

// weeklyReviewers is how many reviews run at once on both sides: a few
// worker replicas' worth, on the 2-core machine the sites also share.
const weeklyReviewers = 4

// weeklySites serves weeklyStores small stores (home, four products,
// robots.txt and a sitemap), each on its own loopback port so each is its
// own origin as real stores are, from one in-process HTTP server. Each
// store's pages carry its number, so no two reviews read the same text.
func weeklySites(b *testing.B) []string {
	b.Helper()
	products := []string{"/products/tallow-soap", "/products/oat-soap", "/products/gift-box", "/products/soap-dish"}
	page := func(store, title, body string) string {
		links := ""
		for _, p := range products {
			links += fmt.Sprintf(`<a href="%s">%s</a> `, p, strings.TrimPrefix(p, "/products/"))
		}
		return fmt.Sprintf(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>%s – Soap Works %s</title>
<meta name="description" content="Small-batch soap made by hand in store %s, shipped in two days with free returns.">
<link rel="stylesheet" href="/assets/app.css"></head>
<body><h1>%s</h1><img src="/img/hero.jpg" alt="Soap bars">%s<footer>%s</footer>%s</body></html>`,
			title, store, store, title, body, links, strings.Repeat("<p>Made by hand, cured six weeks. </p>", 200))
	}
	mux := http.NewServeMux()
	store := func(r *http.Request) string { _, port, _ := net.SplitHostPort(r.Host); return port }
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, page(store(r), "Handmade soap", `<a href="/products/tallow-soap">Shop soap</a>`))
	})
	for i, p := range products {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, page(store(r), strings.TrimPrefix(p, "/products/"), fmt.Sprintf(
				`<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Soap %d","offers":{"price":"%d","priceCurrency":"USD","availability":"https://schema.org/InStock"}}</script>
<form action="/cart/add"><button>Add to cart</button></form>`, i, 8+i)))
		})
	}
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: http://%s/sitemap.xml\n", r.Host)
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range products {
			fmt.Fprintf(w, "<url><loc>http://%s%s</loc></url>", r.Host, p)
		}
		fmt.Fprint(w, `</urlset>`)
	})
	mux.HandleFunc("/img/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=31536000")
		w.Write(make([]byte, 30<<10))
	})
	mux.HandleFunc("/assets/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=31536000")
		io.WriteString(w, "/* asset */")
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	b.Cleanup(func() { _ = srv.Close() })
	sites := make([]string, weeklyStores)
	for i := range sites {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		go func() { _ = srv.Serve(l) }()
		sites[i] = "http://" + l.Addr().String()
	}
	return sites
}

// each runs fn on every item, weeklyReviewers at a time.
func each[T any](items []T, fn func(T)) {
	next := make(chan T)
	var wg sync.WaitGroup
	for range weeklyReviewers {
		wg.Go(func() {
			for it := range next {
				fn(it)
			}
		})
	}
	for _, it := range items {
		next <- it
	}
	close(next)
	wg.Wait()
}

// BenchmarkWeeklyReReview1000Stores times the weekly re-review of 1,000
// businesses whose websites are served on loopback. The product is the
// categories service's own weekly path on the real PostgreSQL: at the
// week's slot StartDueWeeklyReviews claims each business's week and writes
// its new report with the ReviewRequested event (outbox), then each report
// is reviewed by the engine and recorded as the review service's events
// arrive (RunReview, the tests' stand-in for it: progress rows, fetch and
// analyse, store the review with its ideas and the WeeklyReviewReady
// event), weeklyReviewers at once. Left out: relaying the outbox to NATS,
// the review service's own run rows, and the worker's Chromium speed run (one browser load
// per store takes seconds; the engine here is the API's, without the
// browser). The baseline is the bare analysis engine reviewing the same
// 1,000 sites, as many at once: no database, no schedule, no events.
func BenchmarkWeeklyReReview1000Stores(b *testing.B) {
	sites := weeklySites(b)
	ctx := context.Background()
	report := func(b *testing.B, peak func() float64) {
		b.ReportMetric(float64(weeklyStores*b.N)/b.Elapsed().Seconds(), "stores/s")
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/1000-stores")
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	}

	b.Run("baseline=analysis-engine", func(b *testing.B) {
		eng := reviewtest.Linked()
		peak := benchmem.WatchHeap()
		for b.Loop() {
			each(sites, func(site string) {
				if _, err := eng.Analyze(ctx, site, nil, time.UTC, func(int, string) {}); err != nil {
					b.Errorf("%s: %v", site, err)
				}
			})
		}
		report(b, peak)
	})

	b.Run("product=weekly-rereview", func(b *testing.B) {
		// Each reviewer holds a connection for a review's short
		// transactions; room for them and the schedule's.
		u, err := url.Parse(pgtest.URL(b))
		if err != nil {
			b.Fatal(err)
		}
		q := u.Query()
		q.Set("pool_max_conns", fmt.Sprint(2*weeklyReviewers+2))
		u.RawQuery = q.Encode()
		pool, err := postgres.Open(ctx, u.String(), "categories")
		if err != nil {
			b.Fatal(err)
		}
		defer pool.Close()
		if err := postgres.Migrate(ctx, pool, events.Migrations(), migrations.FS); err != nil {
			b.Fatal(err)
		}
		repo := pgrepo.New(pool)
		ids := make([]string, len(sites))
		for i, site := range sites {
			ids[i] = uuid.NewString()
			if _, err := repo.Ensure(ctx, domain.Category{ID: ids[i], OwnerID: fmt.Sprintf("owner-%d", i), Name: fmt.Sprintf("Soap Works %d", i)}); err != nil {
				b.Fatal(err)
			}
			if _, err := repo.Update(ctx, ids[i], func(c *domain.Category) (domain.Effects, error) {
				c.SiteURL = site
				return domain.Effects{}, nil
			}); err != nil {
				b.Fatal(err)
			}
		}
		// The engine linked in stands in for the review service: no save
		// checks a site here and no store has competitors.
		base := app.New(repo, reviewtest.Linked(), nil,
			slog.New(slog.DiscardHandler), app.Options{})
		peak := benchmem.WatchHeap()
		week := 0
		for b.Loop() {
			// Each round is the next week, so every business is due again.
			now := time.Now().AddDate(0, 0, 7*week)
			week++
			a := base.WithClock(func() time.Time { return now })
			n, err := a.StartDueWeeklyReviews(ctx)
			if err != nil || n != weeklyStores {
				b.Fatalf("started %d of %d weekly reviews: %v", n, weeklyStores, err)
			}
			each(ids, func(id string) {
				rep, err := repo.LatestReport(ctx, id)
				if err != nil || rep == nil || rep.Week == "" {
					b.Errorf("%s: no weekly report (%v)", id, err)
					return
				}
				if err := a.RunReview(ctx, app.ReviewRequest{CategoryID: id, ReportID: rep.ID, SiteURL: rep.SiteURL}); err != nil {
					b.Errorf("%s: %v", id, err)
				}
			})
		}
		report(b, peak)
		b.ReportMetric(0.5, "goal-ratio") // issue 25: ≥ 0.5× the bare engine's rate
		// Every business has this week's review stored, not a failure.
		for _, id := range ids {
			rep, err := repo.LatestReadyReport(ctx, id)
			if err != nil || rep == nil || rep.Week == "" || rep.Review == nil || rep.Review.Score == 0 {
				b.Fatalf("%s: the week's review was not stored: %+v, %v", id, rep, err)
			}
		}
	})
}
