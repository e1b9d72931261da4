package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	reviewv1 "uplift.dev/proto/gen/uplift/review/v1"

	"uplift.dev/platform/servicetest"
	"uplift.dev/review/domain"
	"uplift.dev/review/internal/adapters/engine"
	review "uplift.dev/review/internal/service"
	"uplift.dev/review/migrations"
)

// start runs the real review service (gRPC server, its schema on
// PostgreSQL, NATS) allowed to read the loopback stores tests serve, and
// returns a client that calls it with no signed-in caller, as categories'
// schedules and the public score do.
func start(t *testing.T) reviewv1.ReviewServiceClient {
	t.Helper()
	s := review.Settings{Engine: engine.Settings{AllowLoopback: true}}
	conn, _ := servicetest.Run(t, "review", servicetest.Base(t), migrations.FS, review.Wire(&s))
	return reviewv1.NewReviewServiceClient(conn)
}

// photo is a PNG's signature padded to n bytes.
func photo(n int) []byte {
	return append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, n-8)...)
}

// store serves a small shop: a home page with one product in structured
// data, and its photo.
func store(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html lang="en"><head><title>Clay &amp; Co mugs</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Frost mug","url":"/products/frost-mug",
"image":"/img/frost.png","offers":{"@type":"Offer","price":"18.00","priceCurrency":"EUR"}}</script></head>
<body><h1>Hand-made mugs</h1><p>Stoneware mugs from 18 EUR.</p><a href="/contact">Contact</a></body></html>`))
	})
	mux.HandleFunc("/img/frost.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(photo(4096))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestCheckSiteSaysWhichKindOfFailure: a readable site is no answer's
// problem; each way a site is not read comes back as its kind, with the
// reason an owner reads, not as a failed call.
func TestCheckSiteSaysWhichKindOfFailure(t *testing.T) {
	t.Parallel()
	c := start(t)
	ctx := context.Background()
	res, err := c.CheckSite(ctx, &reviewv1.CheckSiteRequest{SiteUrl: store(t).URL})
	if err != nil || res.GetUnreadable() != nil {
		t.Fatalf("a readable store: %v, %v", res, err)
	}
	for _, tc := range []struct {
		site    string
		problem reviewv1.SiteProblem
		reason  string
	}{
		{"https://no-such-store.invalid/", reviewv1.SiteProblem_SITE_PROBLEM_NOT_FOUND, ""},
		{"http://10.0.0.1/", reviewv1.SiteProblem_SITE_PROBLEM_PRIVATE, ""},
		{"http://127.0.0.1:1/", reviewv1.SiteProblem_SITE_PROBLEM_UNREADABLE, "its server refused the connection"},
	} {
		res, err := c.CheckSite(ctx, &reviewv1.CheckSiteRequest{SiteUrl: tc.site})
		u := res.GetUnreadable()
		if err != nil || u.GetProblem() != tc.problem || (tc.reason != "" && u.GetReason() != tc.reason) || u.GetDetail() == "" {
			t.Errorf("%s: %v, %v; want %v %q", tc.site, u, err, tc.problem, tc.reason)
		}
	}
}

// TestScoreSiteCarriesTheReview: the score's review arrives whole, in the
// review domain's JSON form categories stores.
func TestScoreSiteCarriesTheReview(t *testing.T) {
	t.Parallel()
	c := start(t)
	res, err := c.ScoreSite(context.Background(), &reviewv1.ScoreSiteRequest{SiteUrl: store(t).URL})
	if err != nil || res.GetUnreadable() != nil {
		t.Fatalf("score: %v, %v", res, err)
	}
	var r domain.Review
	if err := json.Unmarshal(res.GetReviewJson(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Score <= 0 || len(r.Checks) == 0 || r.SiteURL == "" {
		t.Errorf("review %+v", r)
	}
	res, err = c.ScoreSite(context.Background(), &reviewv1.ScoreSiteRequest{SiteUrl: "http://10.0.0.1/"})
	if err != nil || res.GetUnreadable().GetProblem() != reviewv1.SiteProblem_SITE_PROBLEM_PRIVATE || len(res.GetReviewJson()) != 0 {
		t.Errorf("a private address: %v, %v", res, err)
	}
}

// TestCatalogueAndPhotos: the studio's catalogue lists the store's
// products with their photos; a photo is read up to the size asked for,
// and one larger is said to be too large.
func TestCatalogueAndPhotos(t *testing.T) {
	t.Parallel()
	c := start(t)
	ctx := context.Background()
	site := store(t)
	cat, err := c.ReadCatalogue(ctx, &reviewv1.ReadCatalogueRequest{SiteUrl: site.URL})
	if err != nil || cat.GetUnreadable() != nil || len(cat.GetProducts()) != 1 {
		t.Fatalf("catalogue: %v, %v", cat, err)
	}
	p := cat.GetProducts()[0]
	if p.GetName() != "Frost mug" || p.GetPrice() != 18 || p.GetCurrency() != "EUR" || len(p.GetImageUrls()) != 1 {
		t.Fatalf("product %v", p)
	}
	img, err := c.FetchImage(ctx, &reviewv1.FetchImageRequest{ImageUrl: p.GetImageUrls()[0], LimitBytes: 1 << 20})
	if err != nil || !bytes.Equal(img.GetData(), photo(4096)) {
		t.Errorf("photo: %d bytes, %v", len(img.GetData()), err)
	}
	img, err = c.FetchImage(ctx, &reviewv1.FetchImageRequest{ImageUrl: p.GetImageUrls()[0], LimitBytes: 1000})
	if err != nil || !img.GetTooLarge() || len(img.GetData()) != 0 {
		t.Errorf("over the limit: %v, %v", img, err)
	}
	img, err = c.FetchImage(ctx, &reviewv1.FetchImageRequest{ImageUrl: site.URL + "/img/gone.png", LimitBytes: 1000})
	if err != nil || img.GetFailure() == "" {
		t.Errorf("a missing photo: %v, %v", img, err)
	}
	cat, err = c.ReadCatalogue(ctx, &reviewv1.ReadCatalogueRequest{SiteUrl: "http://127.0.0.1:1/"})
	if err != nil || cat.GetUnreadable().GetProblem() != reviewv1.SiteProblem_SITE_PROBLEM_UNREADABLE {
		t.Errorf("an unreadable store: %v, %v", cat, err)
	}
}

// TestNextOccasionIsTheStoresDay: what is still to come is decided by the
// store's calendar day, not the server's: at 20:00 UTC on the day before
// Black Friday it is already Black Friday in Auckland, so the next date
// there is Cyber Monday.
func TestNextOccasionIsTheStoresDay(t *testing.T) {
	t.Parallel()
	c := start(t)
	at := timestamppb.New(time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC))
	for zone, want := range map[string]string{"": "Black Friday", "UTC": "Black Friday", "America/New_York": "Black Friday", "Pacific/Auckland": "Cyber Monday"} {
		res, err := c.NextOccasion(context.Background(), &reviewv1.NextOccasionRequest{AfterTime: at, SiteUrl: "https://mugs.example.com/", TimeZone: zone})
		if err != nil || res.GetName() != want {
			t.Errorf("%q: %v, %v; want %s", zone, res, err, want)
		}
	}
	if res := must(c.NextOccasion(context.Background(), &reviewv1.NextOccasionRequest{AfterTime: at, SiteUrl: "https://mugs.example.com/"})); res.GetOccurTime().AsTime() != time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC) {
		t.Errorf("Black Friday 2026 is on %v", res.GetOccurTime().AsTime())
	}
	_, err := c.NextOccasion(context.Background(), &reviewv1.NextOccasionRequest{AfterTime: at, TimeZone: "Mars/Olympus"})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("an unknown zone: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
