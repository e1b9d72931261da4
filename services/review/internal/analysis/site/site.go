// Package site reads a store website through a fetch session: the home
// page, robots.txt and sitemaps, a bounded set of its pages, its catalogue
// and a sample of its files, each within time and size bounds.
package site

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"uplift.dev/platform/clock"
	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/fetch"
	"uplift.dev/review/internal/analysis/page"
)

// Bounds of one read beyond the per-request ones in Options.
const (
	maxSitemaps      = 4   // sitemap documents read (index plus children)
	maxSitemapURLs   = 500 // page URLs kept from sitemaps
	maxAssets        = 10  // images, stylesheets and scripts measured
	maxImagesMeasure = 5
	fetchWorkers     = 4
)

// Site is everything read from one store website.
type Site struct {
	URL          string // the home page's final URL
	Origin       string // scheme://host of the home page
	Home         *page.Page
	Pages        []*page.Page // other HTML pages read, in a stable order
	Broken       map[string]int
	RobotsStatus int
	SitemapURL   string // the sitemap read, "" when none was found
	SitemapURLs  []string
	Catalogue    Catalogue
	Assets       []Asset
	Platform     string   // the store platform, see platform.go
	SlowHosts    []string // asset hosts that ran out of time
	// ReadAt is when the site was read, on the reader's clock: a page's
	// "unavailable_after" date is judged as of then.
	ReadAt time.Time
}

// Asset is a resource of the home page that was measured.
type Asset struct {
	URL        string
	Kind       string // "image", "stylesheet" or "script"
	Bytes      int64  // -1 when unknown
	CacheCtl   string
	Expires    string
	Date       string
	Status     int
	Compressed bool
}

// All returns the home page followed by the other pages read.
func (s *Site) All() []*page.Page {
	return append([]*page.Page{s.Home}, s.Pages...)
}

// ReadOptions choose how much of a site a read covers.
type ReadOptions struct {
	Now       clock.Clock       // dates ReadAt; nil is the wall clock
	Catalogue bool              // read /products.json on Shopify stores
	MaxPages  int               // same-site pages read besides the home page
	Progress  func(int, string) // nil = no progress reports
	// SkipAssets leaves images and scripts unmeasured (a catalogue read
	// for the product studio needs the products only).
	SkipAssets bool
	// ProductPages, with Catalogue, reads up to this many more product
	// pages (linked from the pages read or listed in the sitemap, on the
	// store's own site) so that the catalogue lists every product the
	// store shows, not only the few a review samples (the product
	// studio's picker). A product page without structured data is then
	// listed by its heading, without photos.
	ProductPages int
}

// ErrUnreadable wraps every reason a site cannot be read (bad URL, refused
// address, DNS, timeout, non-HTML, HTTP error), so callers show one message.
var ErrUnreadable = errors.New("website cannot be read")

// unreadable wraps a reason a site cannot be read in ErrUnreadable.
func unreadable(err error) error {
	if errors.Is(err, ErrUnreadable) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnreadable, err)
}

// StatusError is a home page that answered with an HTTP error status.
type StatusError struct{ Status int }

func (e StatusError) Error() string { return fmt.Sprintf("home page answered HTTP %d", e.Status) }

// NotHTMLError is a home page that is not a web page.
type NotHTMLError struct{ ContentType string }

func (e NotHTMLError) Error() string { return fmt.Sprintf("home page is %q, not HTML", e.ContentType) }

// ReadHome fetches and checks the home page.
func ReadHome(ctx context.Context, sess *fetch.Session, siteURL string) (*fetch.Response, error) {
	u, err := domain.NormalizeSiteURL(siteURL)
	if err != nil {
		return nil, unreadable(err)
	}
	resp, err := sess.Get(ctx, http.MethodGet, u, 0)
	if err != nil {
		return nil, unreadable(err)
	}
	if resp.Status >= 400 {
		return nil, unreadable(StatusError{Status: resp.Status})
	}
	if !resp.IsHTML() {
		return nil, unreadable(NotHTMLError{ContentType: resp.Header.Get("Content-Type")})
	}
	return resp, nil
}

// Read reads the site through sess: home page, sitemap, a bounded set of
// same-site pages, the Shopify catalogue and a sample of assets.
func Read(ctx context.Context, sess *fetch.Session, siteURL string, o ReadOptions) (*Site, error) {
	progress := o.Progress
	if progress == nil {
		progress = func(int, string) {}
	}
	progress(5, "Reading your home page")
	resp, err := ReadHome(ctx, sess, siteURL)
	if err != nil {
		return nil, err
	}
	home := page.ParsePage(resp.URL, resp.Body)
	fillResponse(home, resp)
	hu, _ := url.Parse(resp.URL)
	s := &Site{URL: resp.URL, Origin: hu.Scheme + "://" + hu.Host, Home: home, Broken: map[string]int{}, Platform: home.Platform,
		ReadAt: o.Now.Now()}
	status, sitemaps := sess.Robots(ctx, hu)
	s.RobotsStatus = status

	progress(15, "Reading your sitemap")
	s.readSitemaps(ctx, sess, sitemaps)

	targets := s.choosePages(o.MaxPages)
	progress(25, fmt.Sprintf("Checking %d pages", len(targets)+1))
	pages := make([]*page.Page, len(targets))
	statuses := make([]int, len(targets))
	parallel(len(targets), func(i int) {
		pages[i], statuses[i] = readPage(ctx, sess, targets[i])
	})
	for i, p := range pages {
		if p != nil {
			s.Pages = append(s.Pages, p)
		} else if statuses[i] != 0 {
			s.Broken[targets[i]] = statuses[i]
		}
	}

	if o.Catalogue && o.ProductPages > 0 {
		progress(45, "Reading your product pages")
		s.readProductPages(ctx, sess, o.ProductPages)
	}

	currency := page.Currency(home, resp.Body)
	if o.Catalogue && s.Platform == page.PlatformShopify {
		progress(55, "Reading your product catalogue")
		if r, err := sess.Get(ctx, http.MethodGet, s.Origin+"/products.json?limit=250", 0); err == nil && r.Status == http.StatusOK {
			if ps, err := parseShopifyProducts(r.Body, s.Origin, currency); err == nil && len(ps) > 0 {
				s.Catalogue = Catalogue{Products: ps, Source: "products.json"}
			}
		}
	}
	for _, p := range s.All() {
		found := page.ProductsFrom(p)
		if len(found) == 0 && o.ProductPages > 0 {
			found = headingProduct(p)
		}
		if s.Catalogue.Source == "" && len(found) > 0 {
			s.Catalogue.Source = "structured data"
		}
		s.Catalogue.Products = mergeProducts(s.Catalogue.Products, found...)
	}
	s.Catalogue.Currency = currency
	for i := range s.Catalogue.Products {
		if s.Catalogue.Products[i].Currency == "" {
			s.Catalogue.Products[i].Currency = currency
		} else if s.Catalogue.Currency == "" {
			s.Catalogue.Currency = s.Catalogue.Products[i].Currency
		}
	}

	if !o.SkipAssets {
		progress(65, "Checking images and files")
		s.measureAssets(ctx, sess)
	}
	return s, nil
}

// readPage reads one page of the site in the session: the page when it
// answered HTML, else nil with the failing status (HTTP 4xx/5xx, -1 when it
// did not answer, 0 when it answered something that is not a page).
func readPage(ctx context.Context, sess *fetch.Session, u string) (*page.Page, int) {
	r, err := sess.Get(ctx, http.MethodGet, u, 0)
	switch {
	case err != nil:
		return nil, -1
	case r.Status >= 400:
		return nil, r.Status
	case r.IsHTML():
		p := page.ParsePage(r.URL, r.Body)
		fillResponse(p, r)
		return p, 0
	}
	return nil, 0
}

// readProductPages reads the product pages the pages already read link
// to, and those the sitemap lists, that were not read yet: at most limit,
// each through the session (the address policy, robots.txt and size
// bounds apply as to any page), on the store's own site only.
func (s *Site) readProductPages(ctx context.Context, sess *fetch.Session, limit int) {
	read := map[string]bool{}
	for _, p := range s.All() {
		read[s.Candidate(p.URL)] = true
	}
	var targets []string
	add := func(raw string) {
		c := s.Candidate(raw)
		if c == "" || read[c] || len(targets) >= limit {
			return
		}
		if ks := page.Kinds(c, ""); len(ks) == 0 || ks[0] != page.KindProduct {
			return
		}
		read[c] = true
		targets = append(targets, c)
	}
	for _, p := range s.All() {
		for _, l := range p.Links {
			add(l.Href)
		}
	}
	for _, u := range s.SitemapURLs {
		add(u)
	}
	pages := make([]*page.Page, len(targets))
	parallel(len(targets), func(i int) {
		pages[i], _ = readPage(ctx, sess, targets[i])
	})
	for _, p := range pages {
		if p != nil {
			s.Pages = append(s.Pages, p)
		}
	}
}

// headingProduct is a product page without structured data or Open Graph
// product tags (at a product address, with an add-to-cart form or
// button), as its first heading names it: the store sells it, so the
// catalogue lists it, with no price or photo it could vouch for.
func headingProduct(p *page.Page) []page.Product {
	if !page.IsProductPage(p) || !page.HasAddToCart(p) || len(p.H1) == 0 || strings.TrimSpace(p.H1[0]) == "" {
		return nil
	}
	return []page.Product{{ID: page.LastSegment(p.URL), Name: strings.TrimSpace(p.H1[0]), URL: p.URL,
		Images: -1, Available: true, Source: "page"}}
}

func fillResponse(p *page.Page, r *fetch.Response) {
	p.Status, p.Truncated, p.Compressed = r.Status, r.Truncated, r.Compressed
	p.CacheCtl = r.Header.Get("Cache-Control")
	p.XRobotsTag = r.Header.Values("X-Robots-Tag")
	p.AddLinkHeaders(r.Header.Values("Link"))
}

// parallel runs fn(0..n-1) on a few workers and waits.
func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(n, fetchWorkers) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// sitemapDoc covers both a sitemap index and a URL set.
type sitemapDoc struct {
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
	URLs []struct {
		Loc string `xml:"loc"`
	} `xml:"url"`
}

// readSitemaps reads the sitemaps robots.txt names (same site only), or
// /sitemap.xml, following an index to a few child sitemaps.
func (s *Site) readSitemaps(ctx context.Context, sess *fetch.Session, fromRobots []string) {
	var queue []string
	for _, sm := range fromRobots {
		if s.SameSite(sm) {
			queue = append(queue, sm)
		}
	}
	if len(queue) == 0 {
		queue = []string{s.Origin + "/sitemap.xml"}
	}
	seen := map[string]bool{}
	for read := 0; len(queue) > 0 && read < maxSitemaps; {
		sm := queue[0]
		queue = queue[1:]
		if seen[sm] {
			continue
		}
		seen[sm] = true
		read++
		r, err := sess.Get(ctx, http.MethodGet, sm, 0)
		if err != nil || r.Status != http.StatusOK {
			continue
		}
		var doc sitemapDoc
		if xml.Unmarshal(r.Body, &doc) != nil || (len(doc.URLs) == 0 && len(doc.Sitemaps) == 0) {
			continue
		}
		if s.SitemapURL == "" {
			s.SitemapURL = sm
		}
		var children []string
		for _, c := range doc.Sitemaps {
			if loc := strings.TrimSpace(c.Loc); s.SameSite(loc) {
				children = append(children, loc)
			}
		}
		// Products, pages and collections tell most about a store.
		slices.SortStableFunc(children, func(x, y string) int { return sitemapRank(x) - sitemapRank(y) })
		queue = append(queue, children...)
		for _, u := range doc.URLs {
			if loc := strings.TrimSpace(u.Loc); s.SameSite(loc) && len(s.SitemapURLs) < maxSitemapURLs {
				s.SitemapURLs = append(s.SitemapURLs, loc)
			}
		}
	}
}

func sitemapRank(u string) int {
	l := strings.ToLower(u)
	switch {
	case strings.Contains(l, "product"):
		return 0
	case strings.Contains(l, "page"):
		return 1
	case strings.Contains(l, "collection") || strings.Contains(l, "categor"):
		return 2
	}
	return 3
}

// SameSite reports whether raw is on the store's own host (ignoring "www.").
func (s *Site) SameSite(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	o, _ := url.Parse(s.Origin)
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.") == strings.TrimPrefix(strings.ToLower(o.Hostname()), "www.")
}

// skipExt are file types that are not pages.
var skipExt = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".gif": true, ".webp": true, ".svg": true, ".pdf": true, ".zip": true, ".css": true, ".js": true, ".xml": true, ".json": true, ".ico": true, ".mp4": true}

// Candidate cleans a URL for crawling: same site, no query or fragment, no
// files, carts, accounts or searches. It returns "" to skip.
func (s *Site) Candidate(raw string) string {
	if !s.SameSite(raw) {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.RawQuery, u.Fragment = "", ""
	lp := strings.ToLower(u.Path)
	if skipExt[path.Ext(lp)] {
		return ""
	}
	for _, bad := range []string{"/cart", "/checkout", "/account", "/login", "/search", "/customer", "/wishlist", "/cdn-cgi/"} {
		if strings.HasPrefix(lp, bad) || strings.Contains(lp, bad+"/") {
			return ""
		}
	}
	if u.Path == "" {
		u.Path = "/"
	}
	out := u.String()
	if h, _ := url.Parse(s.URL); h != nil && strings.TrimRight(u.Path, "/") == strings.TrimRight(h.Path, "/") {
		return "" // the home page itself
	}
	return out
}

// choosePages picks up to max pages to read: the trust pages linked from the
// home page first, then products, collections and the rest, sitemap entries
// before home-page links so the choice does not depend on theme layout.
func (s *Site) choosePages(limit int) []string {
	type cand struct {
		url   string
		kinds []string
	}
	var cands []cand
	seen := map[string]bool{}
	add := func(raw, text string) {
		c := s.Candidate(raw)
		if c == "" || seen[c] {
			return
		}
		seen[c] = true
		cands = append(cands, cand{c, page.Kinds(c, text)})
	}
	// Home-page links first for trust pages: they are what shoppers see.
	for _, l := range s.Home.Links {
		if ks := page.Kinds(l.Href, l.Text); len(ks) > 0 && ks[0] != page.KindProduct && ks[0] != page.KindCollection {
			add(l.Href, l.Text)
		}
	}
	for _, u := range s.SitemapURLs {
		add(u, "")
	}
	for _, l := range s.Home.Links {
		add(l.Href, l.Text)
	}
	var out []string
	taken := map[string]bool{}
	take := func(c cand) {
		if len(out) < limit && !taken[c.url] {
			taken[c.url] = true
			out = append(out, c.url)
		}
	}
	covered := map[string]bool{}
	for _, k := range page.TrustKinds {
		for _, c := range cands {
			if !covered[k] && slices.Contains(c.kinds, k) {
				take(c)
				for _, ck := range c.kinds {
					covered[ck] = true
				}
			}
		}
	}
	quota := map[string]int{page.KindProduct: 3, page.KindCollection: 2}
	for _, k := range []string{page.KindProduct, page.KindCollection} {
		n := 0
		for _, c := range cands {
			if n < quota[k] && slices.Contains(c.kinds, k) && !taken[c.url] {
				take(c)
				n++
			}
		}
	}
	for _, c := range cands {
		take(c)
	}
	return out
}

// Time bounds of the asset checks: a slow or silent asset host (a CDN, a
// widget's server) must not hold up the review of the page.
const (
	AssetHostBudget  = time.Second             // all of one host's asset requests together
	AssetPhaseBudget = 1500 * time.Millisecond // the whole asset phase
	assetHostConns   = 3                       // requests to one host at once
)

// measureAssets sizes a few of the home page's images, stylesheets and
// scripts and reads their caching headers: all at once, each host within
// its own time budget. A host that runs out of time is named in SlowHosts
// and its files are left unmeasured rather than waited for.
func (s *Site) measureAssets(ctx context.Context, sess *fetch.Session) {
	var list []Asset
	seen := map[string]bool{}
	add := func(u, kind string) {
		if u != "" && !seen[u] && len(list) < maxAssets {
			seen[u] = true
			list = append(list, Asset{URL: u, Kind: kind, Bytes: -1})
		}
	}
	for i, img := range s.Home.Images {
		if i == maxImagesMeasure {
			break
		}
		add(img.Src, "image")
	}
	for _, css := range s.Home.Stylesheets[:min(3, len(s.Home.Stylesheets))] {
		add(css, "stylesheet")
	}
	for _, js := range s.Home.Scripts[:min(3, len(s.Home.Scripts))] {
		add(js, "script")
	}
	ctx, cancel := context.WithTimeout(ctx, AssetPhaseBudget)
	defer cancel()
	type host struct {
		ctx   context.Context
		conns chan struct{}
		slow  atomic.Bool
	}
	hosts := map[string]*host{}
	for _, as := range list {
		h := hostOf(as.URL)
		if hosts[h] == nil {
			hctx, hcancel := context.WithTimeout(ctx, AssetHostBudget)
			defer hcancel()
			hosts[h] = &host{ctx: hctx, conns: make(chan struct{}, assetHostConns)}
		}
	}
	var wg sync.WaitGroup
	for i := range list {
		as := &list[i]
		h := hosts[hostOf(as.URL)]
		wg.Go(func() {
			select {
			case h.conns <- struct{}{}:
				defer func() { <-h.conns }()
			case <-h.ctx.Done():
				h.slow.Store(true)
				return
			}
			r, err := sess.Get(h.ctx, http.MethodHead, as.URL, 0)
			if err == nil && (r.Status == http.StatusMethodNotAllowed || r.Size() < 0) {
				r, err = sess.Get(h.ctx, http.MethodGet, as.URL, 0)
			}
			if err != nil {
				if h.ctx.Err() != nil {
					h.slow.Store(true)
				}
				return
			}
			as.Status, as.Bytes, as.Compressed = r.Status, r.Size(), r.Compressed
			as.CacheCtl, as.Expires, as.Date = r.Header.Get("Cache-Control"), r.Header.Get("Expires"), r.Header.Get("Date")
		})
	}
	wg.Wait()
	for _, as := range list {
		if as.Status == http.StatusOK {
			s.Assets = append(s.Assets, as)
		}
	}
	for name, h := range hosts {
		if h.slow.Load() {
			s.SlowHosts = append(s.SlowHosts, name)
		}
	}
	slices.Sort(s.SlowHosts)
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Host
	}
	return ""
}

// CachedLong reports whether an asset may be cached by browsers for at least
// a day, by Cache-Control max-age/immutable or a far Expires date.
func (as Asset) CachedLong() bool {
	cc := strings.ToLower(as.CacheCtl)
	if strings.Contains(cc, "no-store") || strings.Contains(cc, "no-cache") {
		return false
	}
	if strings.Contains(cc, "immutable") {
		return true
	}
	for _, part := range strings.Split(cc, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok && (k == "max-age" || k == "s-maxage") {
			var n int
			if _, err := fmt.Sscanf(v, "%d", &n); err == nil && n >= 86400 {
				return true
			}
		}
	}
	// Expires is compared with the response's own Date so the verdict does
	// not depend on this machine's clock.
	exp, err1 := http.ParseTime(as.Expires)
	date, err2 := http.ParseTime(as.Date)
	if err1 == nil && err2 == nil && exp.Sub(date) >= 24*time.Hour {
		return true
	}
	return false
}
