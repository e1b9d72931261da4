// Package analysis reads a store's website and turns it into what a store
// owner can act on: a summary of the business, a scored website review whose
// every lost point is explained with the exact fix, insights with evidence,
// and campaign ideas grounded in the store's own products, prices and the
// coming seasonal dates.
//
// All website reads go through one guarded fetcher (package fetch): it
// resolves names itself and dials only public addresses it has checked,
// on every redirect, within time, size and redirect bounds, honouring
// robots.txt with an honest user agent. A store URL is user input; this is
// what keeps it from reaching the service's own network.
package analysis

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"time"

	"uplift.dev/review/internal/analysis/lab"
	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/review"
	"uplift.dev/review/internal/analysis/words"

	"uplift.dev/platform/clock"
	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/fetch"
	"uplift.dev/review/internal/analysis/site"
	"uplift.dev/review/internal/analysis/write"
)

// Defaults of Options.
const (
	DefaultUserAgent = "UpliftBot/1.0 (+https://uplift.example/bot)"
	DefaultTimeout   = 10 * time.Second
	DefaultMaxPages  = 8
	DefaultMaxBytes  = 2 << 20
)

// Options configure an Analyzer. The zero value is production-ready.
type Options struct {
	AllowLoopback bool // tests only: permit 127.0.0.1/::1 targets
	// AllowOrigins are origins ("http://127.0.0.1:9400") read even on
	// loopback: a local stack's demo store. Private addresses stay refused.
	AllowOrigins []string
	UserAgent    string              // default DefaultUserAgent
	Timeout      time.Duration       // per request, default 10s
	MaxPages     int                 // same-site pages read besides the home page, default 8
	MaxBytes     int64               // per response, default 2 MiB
	Generator    write.TextGenerator // nil = the built-in deterministic generator
	// Now is the service's clock: campaign ideas are dated by it and
	// noindex dates judged by it. nil is the wall clock.
	Now clock.Clock
	// RenderJS reads the home page again in Chromium, after its scripts
	// ran, when the served HTML shows no products (a catalogue drawn by
	// JavaScript). The browser's requests go through the guarded fetcher.
	// Off in the service until the review runs in a worker with a browser.
	RenderJS bool
	// Lab, when set, measures the home page's speed in Chromium after the
	// review (Review.Speed), with these options; a browser that cannot be
	// had leaves the review standing with Speed saying why. Nil (the API,
	// the public score) measures nothing in a browser.
	Lab *lab.Options
	// Resolve and RootCAs are the fetcher's (see fetch.Options): tests map
	// names to loopback and trust their own certificates with them.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	RootCAs *x509.CertPool
}

// Analyzer reads store websites. Safe for concurrent use.
type Analyzer struct {
	opts Options
	f    *fetch.Fetcher
	gen  write.TextGenerator
	now  clock.Clock
}

// ErrUnreadable wraps every reason a site cannot be read (bad URL, refused
// address, DNS, timeout, non-HTML, HTTP error), so callers show one message.
var ErrUnreadable = site.ErrUnreadable

// New returns an Analyzer with defaults filled in.
func New(o Options) *Analyzer {
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	f := fetch.New(fetch.Options{UserAgent: o.UserAgent, Timeout: o.Timeout, MaxBytes: o.MaxBytes,
		AllowLoopback: o.AllowLoopback, AllowOrigins: o.AllowOrigins, Resolve: o.Resolve, RootCAs: o.RootCAs})
	a := &Analyzer{opts: o, f: f, gen: o.Generator, now: o.Now}
	if a.gen == nil {
		a.gen = write.Deterministic{}
	}
	return a
}

// Check fetches the home page only, quickly: nil if the site can be read.
func (a *Analyzer) Check(ctx context.Context, siteURL string) error {
	_, err := site.ReadHome(ctx, a.f.Session(), siteURL)
	return err
}

// Lab measures the site's page in a real browser (see package lab), after
// the guarded fetcher has read it, with every request of the browser sent
// through the fetcher's proxy so it reaches only what the fetcher may.
func (a *Analyzer) Lab(ctx context.Context, siteURL string, o lab.Options) (lab.Result, error) {
	if err := a.Check(ctx, siteURL); err != nil {
		return lab.Result{}, err
	}
	u, err := domain.NormalizeSiteURL(siteURL)
	if err != nil {
		return lab.Result{}, err
	}
	return a.measure(ctx, u, o)
}

// measure runs the lab on a page the fetcher has read already.
func (a *Analyzer) measure(ctx context.Context, u string, o lab.Options) (lab.Result, error) {
	addr, stop, err := a.f.Proxy()
	if err != nil {
		return lab.Result{}, err
	}
	defer stop()
	o.Proxy = addr
	return lab.Measure(ctx, u, o)
}

// readRendered adds the products the home page shows once its scripts
// have run. A browser that cannot be had leaves the catalogue as it was.
func (a *Analyzer) readRendered(ctx context.Context, s *site.Site) {
	addr, stop, err := a.f.Proxy()
	if err != nil {
		return
	}
	defer stop()
	html, err := lab.Render(ctx, s.URL, lab.Options{Proxy: addr})
	if err != nil {
		return
	}
	found := page.ProductsFrom(page.ParsePage(s.URL, []byte(html)))
	for i := range found {
		found[i].Currency = words.FirstNonEmpty(found[i].Currency, s.Catalogue.Currency)
	}
	if len(found) > 0 {
		s.Catalogue.Products = found[:min(len(found), page.MaxProducts)]
		s.Catalogue.Source = "the page as shown in a browser"
		if s.Catalogue.Currency == "" {
			s.Catalogue.Currency = found[0].Currency
		}
	}
}

// budget bounds a whole read, beyond the per-request timeout.
func (a *Analyzer) budget(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, 6*a.opts.Timeout)
}

// Analyze reads the site and produces everything. previous (may be nil) is
// the last review, to mark each finding new/open and list fixed ones.
// progress (may be nil) is called with 0..100 and a short step for people.
func (a *Analyzer) Analyze(ctx context.Context, siteURL string, previous *domain.Review, progress func(pct int, step string)) (domain.Analysis, error) {
	return a.AnalyzeIn(ctx, siteURL, previous, nil, progress)
}

// AnalyzeIn is Analyze for a store in the time zone loc: "today" in its
// campaign plans is the store's calendar day, not the server's (a review
// run at 03:00 UTC on 25 December is still Christmas Eve for a store in
// Los Angeles). A nil loc keeps the clock's own zone (the CLI's: the
// person running it).
func (a *Analyzer) AnalyzeIn(ctx context.Context, siteURL string, previous *domain.Review, loc *time.Location, progress func(pct int, step string)) (domain.Analysis, error) {
	if progress == nil {
		progress = func(int, string) {}
	}
	ctx, cancel := a.budget(ctx)
	defer cancel()
	progress(0, "Starting")
	s, err := site.Read(ctx, a.f.Session(), siteURL, site.ReadOptions{Catalogue: true, MaxPages: a.opts.MaxPages, Progress: progress, Now: a.now})
	if err != nil {
		return domain.Analysis{}, err
	}
	if a.opts.RenderJS && len(s.Catalogue.Products) == 0 {
		progress(70, "Reading products your pages draw with JavaScript")
		a.readRendered(ctx, s)
	}
	progress(75, "Reviewing your website")
	rv := review.Review(s, previous)
	if a.opts.Lab != nil {
		progress(78, "Measuring your home page's speed in a phone's browser")
		rv.Speed = a.speed(ctx, s.URL)
	}
	now := a.now.Now()
	if loc != nil {
		now = now.In(loc)
	}
	brief := write.BuildBrief(s, rv, now)
	progress(85, "Writing campaign ideas")
	text, err := a.gen.Generate(ctx, brief)
	if err != nil || write.ValidateText(&text, brief) != nil {
		text, _ = write.Deterministic{}.Generate(ctx, brief)
	}
	// Names end many of the sentences written about a store (any writer's):
	// one that ends in its own stop ("Fernhill Tea Co.") gets no second one.
	stop := words.OneStop
	out := domain.Analysis{Summary: stop(text.Summary), Review: rv}
	for _, in := range write.Insights(s, rv) {
		in.Text, in.Evidence = stop(in.Text), stop(in.Evidence)
		out.Insights = append(out.Insights, in)
	}
	for _, it := range text.Ideas {
		out.Ideas = append(out.Ideas, domain.Idea{
			ID: write.IdeaID(s.URL, it.Title), Title: stop(it.Title), WhyNow: stop(it.WhyNow), Channel: it.Channel,
			SubjectLine: stop(it.SubjectLine), Body: stop(it.Body), Products: it.Products, Timing: stop(it.Timing), CreatedAt: now,
		})
	}
	progress(100, "Done")
	return out, nil
}

// CatalogueProductPages bounds the product pages a catalogue read adds to
// the pages a review reads: a small store's whole range, read in a few
// seconds; a larger store is usually on Shopify, whose /products.json
// lists up to 250 products in one request.
const CatalogueProductPages = 60

// Catalogue reads the store's products, with their photos, as a review
// does (Shopify's /products.json, structured data on the pages read, and
// what the home page draws with scripts when the browser is on), and
// besides every product page those pages link to or the sitemap lists (up
// to CatalogueProductPages), without reviewing anything.
func (a *Analyzer) Catalogue(ctx context.Context, siteURL string) (site.Catalogue, error) {
	ctx, cancel := a.budget(ctx)
	defer cancel()
	s, err := site.Read(ctx, a.f.Session(), siteURL, site.ReadOptions{Catalogue: true, MaxPages: a.opts.MaxPages, SkipAssets: true,
		ProductPages: CatalogueProductPages})
	if err != nil {
		return site.Catalogue{}, err
	}
	if a.opts.RenderJS && len(s.Catalogue.Products) == 0 {
		a.readRendered(ctx, s)
	}
	return s.Catalogue, nil
}

// FetchImage reads one picture through the guarded fetcher (address
// policy, robots.txt, redirects checked): at most limit bytes, else
// ErrTooLarge. An HTTP error or a body that is not an image is
// ErrUnreadable.
func (a *Analyzer) FetchImage(ctx context.Context, rawURL string, limit int64) ([]byte, error) {
	r, err := a.f.Session().Get(ctx, http.MethodGet, rawURL, limit)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	if r.Status != http.StatusOK {
		return nil, fmt.Errorf("%w: HTTP %d", ErrUnreadable, r.Status)
	}
	if r.Truncated {
		return nil, ErrTooLarge
	}
	return r.Body, nil
}

// ErrTooLarge is a picture over FetchImage's limit.
var ErrTooLarge = errors.New("image too large")

// Score reviews a site for the public website-score page (review only, no
// catalogue and no ideas, so it is cheap enough to offer without sign-in).
func (a *Analyzer) Score(ctx context.Context, siteURL string) (domain.Review, error) {
	ctx, cancel := a.budget(ctx)
	defer cancel()
	s, err := site.Read(ctx, a.f.Session(), siteURL, site.ReadOptions{MaxPages: a.opts.MaxPages, Now: a.now})
	if err != nil {
		return domain.Review{}, err
	}
	return review.Review(s, nil), nil
}

// speed measures the home page in the browser for Review.Speed; when that
// cannot be done the review still stands and Speed says why.
func (a *Analyzer) speed(ctx context.Context, u string) *domain.Speed {
	r, err := a.measure(ctx, u, *a.opts.Lab)
	switch {
	case errors.Is(err, lab.ErrNoBrowser):
		return &domain.Speed{Reason: domain.SpeedNoBrowser}
	case err != nil:
		return &domain.Speed{Reason: domain.SpeedFailed}
	}
	return SpeedOf(r)
}

// SpeedOf is a lab result as the review keeps it.
func SpeedOf(r lab.Result) *domain.Speed {
	m := r.Median
	return &domain.Speed{Measured: true, Score: r.Score, Runs: len(r.Runs), FCPMs: m.FCP, LCPMs: m.LCP, TBTMs: m.TBT,
		SpeedIndexMs: m.SpeedIndex, INPMs: m.INP, CLS: m.CLS, Bytes: m.Bytes, Painted: m.Painted,
		LCPElement: m.LCPElement, Shifted: m.Shifted, Ratings: r.Ratings}
}
