package analysis

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"uplift.dev/categories/internal/domain"
)

// corpusRows reads INDEX.tsv: file → column → value.
func corpusRows(t *testing.T) []map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(corpusDir, "INDEX.tsv"))
	if err != nil {
		t.Skipf("store corpus not available at %s: %v", corpusDir, err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, row := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			if i < len(row) {
				m[h] = row[i]
			}
		}
		out = append(out, m)
	}
	return out
}

// atOriginalHost serves a corpus page at / and makes the analyzer resolve
// the page's original host name to it, so the review sees the store's real
// address (its name, its domain) while everything stays on loopback.
func atOriginalHost(t *testing.T, row map[string]string, o Options) (*Analyzer, string) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(corpusDir, row["file"]))
	if err != nil {
		t.Fatal(err)
	}
	srv := servePage(t, body)
	a := newTestAnalyzer(t, srv, o)
	a.f.resolve = func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	orig, _ := url.Parse(row["url"])
	port := srv.URL[strings.LastIndexByte(srv.URL, ':'):]
	return a, "http://" + orig.Hostname() + port + "/"
}

func TestStoreNamesOnRealPages(t *testing.T) {
	want := map[string]string{
		"formasaurus-1.html": "RadioShack", "formasaurus-2.html": "RadioShack", "formasaurus-3.html": "RadioShack",
		"formasaurus-4.html": "Olivia The Shop", "formasaurus-5.html": "Micromania", "formasaurus-6.html": "Musikdreiklang",
		"formasaurus-7.html": "Stylelocker", "formasaurus-8.html": "Интернет-магазин Fozzy", "formasaurus-9.html": "LuckyBrand",
		"metascraper-shopping-1.html": "Pottery Barn", "metascraper-shopping-2.html": "Costco Wholesale",
		"peb-1.html": "MediaMarkt", "peb-2.html": "Almedina", "peb-3.html": "Vsezaoci.si",
	}
	for _, row := range corpusRows(t) {
		t.Run(row["file"], func(t *testing.T) {
			a, u := atOriginalHost(t, row, Options{})
			s, err := a.read(context.Background(), u, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := StoreName(s); got != want[row["file"]] {
				t.Errorf("store name %q, want %q", got, want[row["file"]])
			}
		})
	}
}

func TestStoreNameNeverComesFromNavigation(t *testing.T) {
	for _, tt := range []struct{ head, body, want string }{
		// A "logout" class contains "logo"; a logo link says "… Logo".
		{`<title>Inicio</title>`, `<a class="header__logout" href="/account/logout">Cerrar sesión</a><a class="logo" href="/">Green Roads Logo</a>`, "Green Roads"},
		{`<title>Welcome to Green Roads</title>`, `<a class="site-logo" href="/">Welcome to Green Roads Logo</a>`, "Green Roads"},
		{`<title>Shop | Acme Candles</title><meta property="og:site_name" content="Acme">`, ``, "Acme"},
		{`<title>Acme Candles</title><script type="application/ld+json">{"@type":"WebSite","name":"Acme Co"}</script>`, ``, "Acme Co"},
		{`<title>Soy candles – Acme</title><script type="application/ld+json">[{"@type":"WebSite","name":"Acme Site"},{"@type":"Organization","name":"Acme Ltd"}]</script>`, ``, "Acme Ltd"},
	} {
		p := ParsePage("https://green-roads.example/", []byte("<html><head>"+tt.head+"</head><body>"+tt.body+"</body></html>"))
		s := &Site{URL: "https://green-roads.example/", Home: p}
		if got := StoreName(s); got != tt.want {
			t.Errorf("%s: store name %q, want %q", tt.head, got, tt.want)
		}
	}
}

// dayRE finds the dates plans are written in ("Fri 27 Nov").
var dayRE = regexp.MustCompile(`\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b`)

// datesIn resolves each date in text to the year that puts it nearest to
// today, and checks its weekday, so a wrong year cannot hide a past date.
func datesIn(t *testing.T, text string, today time.Time) []time.Time {
	t.Helper()
	var out []time.Time
	for _, m := range dayRE.FindAllStringSubmatch(text, -1) {
		var best time.Time
		for _, y := range []int{today.Year() - 1, today.Year(), today.Year() + 1} {
			d, err := time.Parse("2 Jan 2006", fmt.Sprintf("%s %s %d", m[2], m[3], y))
			if err != nil {
				t.Fatal(err)
			}
			if best.IsZero() || absDays(d, today) < absDays(best, today) {
				best = d
			}
		}
		if best.Format("Mon") != m[1] {
			t.Errorf("%q: %s is a %s", m[0], best.Format(time.DateOnly), best.Format("Monday"))
		}
		out = append(out, best)
	}
	return out
}

func absDays(a, b time.Time) float64 {
	d := a.Sub(b).Hours() / 24
	if d < 0 {
		return -d
	}
	return d
}

// clocks are the moments the plans are tested at: two days before Black
// Friday, Christmas Eve evening on the US west coast (already Christmas
// Day in UTC), the night New York leaves daylight saving time, London's
// spring change, a day before Valentine's Day in Auckland, New Year's Eve
// in Tokyo, and the real clock.
func clocks(t *testing.T) map[string]time.Time {
	t.Helper()
	zone := func(name string) *time.Location {
		l, err := time.LoadLocation(name)
		if err != nil {
			t.Skipf("time zone %s: %v", name, err)
		}
		return l
	}
	return map[string]time.Time{
		"two days before Black Friday": time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC),
		"24 December, Los Angeles":     time.Date(2026, 12, 24, 20, 0, 0, 0, zone("America/Los_Angeles")),
		"DST ends, New York":           time.Date(2026, 11, 1, 1, 30, 0, 0, zone("America/New_York")),
		"DST starts, London":           time.Date(2026, 3, 29, 1, 30, 0, 0, zone("Europe/London")),
		"13 February, Auckland":        time.Date(2027, 2, 13, 23, 30, 0, 0, zone("Pacific/Auckland")),
		"New Year's Eve, Tokyo":        time.Date(2026, 12, 31, 23, 59, 0, 0, zone("Asia/Tokyo")),
		"now":                          time.Now(),
	}
}

func TestPlansAreNeverInThePast(t *testing.T) {
	rows := corpusRows(t)
	for name, now := range clocks(t) {
		t.Run(name, func(t *testing.T) {
			today := date(now.Year(), now.Month(), now.Day())
			for _, row := range rows {
				a, u := atOriginalHost(t, row, Options{Now: func() time.Time { return now }})
				res, err := a.Analyze(context.Background(), u, nil, nil)
				if err != nil {
					t.Fatalf("%s: %v", row["file"], err)
				}
				checkIdeaText(t, row["file"], res, today)
			}
			// A store with a catalogue gets the occasion ideas too.
			srv := shopifyStore(t)
			res := analyze(t, newTestAnalyzer(t, srv, Options{Now: func() time.Time { return now }}), srv.URL, nil)
			checkIdeaText(t, "shopify store", res, today)
			if !strings.HasPrefix(res.Ideas[0].Timing, "Send ") {
				t.Errorf("first idea is not a dated campaign: %+v", res.Ideas[0])
			}
		})
	}
}

// checkIdeaText checks what a store owner reads in the ideas: no date
// before today, no empty product list, no "1 days".
func checkIdeaText(t *testing.T, page string, res domain.Analysis, today time.Time) {
	t.Helper()
	for _, i := range res.Ideas {
		text := strings.Join([]string{i.Title, i.WhyNow, i.SubjectLine, i.Body, i.Timing}, "\n")
		for _, d := range datesIn(t, text, today) {
			if d.Before(today) {
				t.Errorf("%s on %s: idea %q names %s, before today:\n%s", page, today.Format(time.DateOnly), i.Title, d.Format("Mon 2 Jan 2006"), text)
			}
		}
		if strings.Contains(text, "this season:\n\n\n") || strings.Contains(text, ":\n\n\n") {
			t.Errorf("%s: idea %q lists no products:\n%s", page, i.Title, text)
		}
		for _, bad := range []string{"1 days", "1 products", "1 posts", " 0 days"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s: idea %q says %q", page, i.Title, bad)
			}
		}
	}
}

func TestTheNextOccasionThatLeavesTime(t *testing.T) {
	srv := shopifyStore(t)
	for _, tt := range []struct {
		now                    time.Time
		emailFor, timingPrefix string
	}{
		// Two days before Black Friday: too late for an email campaign,
		// so the email is for Cyber Monday, sent today.
		{time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC), "Cyber Monday", "Send today (Wed 25 Nov), 5 days before"},
		// Christmas Eve: Christmas is tomorrow; the email is for New Year.
		{time.Date(2026, 12, 24, 9, 0, 0, 0, time.UTC), "New Year", "Send today (Thu 24 Dec), 8 days before"},
		// Mid-November: Black Friday, ten days ahead, with every step.
		{time.Date(2026, 11, 10, 9, 0, 0, 0, time.UTC), "Black Friday", "Send Tue 17 Nov, 10 days before; reminder Tue 24 Nov; last order date Sun 22 Nov"},
	} {
		res := analyze(t, newTestAnalyzer(t, srv, Options{Now: func() time.Time { return tt.now }}), srv.URL, nil)
		var email *domain.Idea
		for i := range res.Ideas {
			if res.Ideas[i].Channel == ChannelEmail && strings.Contains(res.Ideas[i].Title, tt.emailFor) {
				email = &res.Ideas[i]
			}
		}
		if email == nil {
			t.Errorf("%s: no email idea for %s: %+v", tt.now.Format(time.DateOnly), tt.emailFor, res.Ideas)
			continue
		}
		if !strings.HasPrefix(email.Timing, tt.timingPrefix) {
			t.Errorf("%s: timing %q, want it to start %q", tt.now.Format(time.DateOnly), email.Timing, tt.timingPrefix)
		}
	}
}

func TestPluralsAndRanges(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Plural(1, "product", "products"), "1 product"},
		{Plural(2, "product", "products"), "2 products"},
		{SomeOf(1, 6, "is sold out.", "are sold out."), "1 of your 6 products is sold out."},
		{SomeOf(2, 6, "is sold out.", "are sold out."), "2 of your 6 products are sold out."},
		{SomeOf(1, 1, "is sold out.", "are sold out."), "Your only product is sold out."},
		{PriceRange(19.99, 19.99, "USD"), "$19.99"},
		{PriceRange(12, 45, "GBP"), "£12–£45"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	// One product at one price: no "$19.99–$19.99", no "1 products".
	b := Brief{StoreName: "Acme", SiteURL: "https://acme.example/", Currency: "USD", Today: "2026-11-10",
		Products:  []BriefProduct{{Name: "Mug", Price: 19.99, Display: "$19.99", Available: true}},
		Prices:    PriceStats{Count: 1, Min: 19.99, Max: 19.99, Median: 19.99, Low: 19.99, High: 19.99},
		Occasions: []BriefDate{{Name: "Black Friday", Date: "2026-11-27", DaysAway: 17, Gift: true}}}
	text, _ := Deterministic{}.Generate(context.Background(), b)
	all := text.Summary
	for _, i := range text.Ideas {
		all += "\n" + strings.Join([]string{i.Title, i.WhyNow, i.SubjectLine, i.Body, i.Timing}, "\n")
	}
	for _, bad := range []string{"$19.99–$19.99", "1 products"} {
		if strings.Contains(all, bad) {
			t.Errorf("text says %q:\n%s", bad, all)
		}
	}
}

func TestAvailabilityAndPriceSpecification(t *testing.T) {
	page := func(offer string) *page {
		return ParsePage("https://shop.example/products/x", []byte(`<html><head><script type="application/ld+json">
{"@context":"https://schema.org","@type":"Product","name":"Tent","offers":`+offer+`}</script></head><body></body></html>`))
	}
	for _, tt := range []struct {
		offer     string
		available bool
		price     float64
	}{
		{`{"@type":"Offer","price":"20","availability":"https://schema.org/BackOrder"}`, true, 20},
		{`{"@type":"Offer","price":"20","availability":"http://schema.org/PreOrder"}`, true, 20},
		{`{"@type":"Offer","price":"20","availability":"MadeToOrder"}`, true, 20},
		{`{"@type":"Offer","price":"20","availability":"https://schema.org/OutOfStock"}`, false, 20},
		{`{"@type":"Offer","price":"20","availability":"schema:SoldOut"}`, false, 20},
		{`{"@type":"Offer","price":"20","availability":"https://schema.org/Discontinued"}`, false, 20},
		{`{"@type":"Offer","priceSpecification":{"@type":"UnitPriceSpecification","price":"149.50","priceCurrency":"EUR"}}`, true, 149.5},
		{`{"@type":"Offer","priceSpecification":[{"@type":"UnitPriceSpecification","price":"99"},{"@type":"UnitPriceSpecification","price":"129","priceType":"https://schema.org/ListPrice"}]}`, true, 99},
	} {
		ps := ProductsFrom(page(tt.offer))
		if len(ps) != 1 || ps[0].Available != tt.available || ps[0].Price != tt.price {
			t.Errorf("%s: got %+v, want available=%v price=%v", tt.offer, ps, tt.available, tt.price)
		}
	}
}

func TestAddToCartAndViewportAsBrowsersRead(t *testing.T) {
	p := ParsePage("https://shop.example/products/x", []byte(`<html><head>
<meta name="viewport" content="initial-scale=1"></head><body>
<div role="button" class="btn" tabindex="0">Add to cart</div></body></html>`))
	if !hasAddToCart(p) {
		t.Error(`a div role="button" add-to-cart is not recognised`)
	}
	s := &Site{URL: p.URL, Home: p}
	r := &reviewer{s: s, points: map[string]int{CheckViewport: 7}}
	if d := r.viewport(); len(d) != 0 {
		t.Errorf("initial-scale=1 should be accepted, got %+v", d)
	}
}

func TestPlatformFromStrongSignalsOnly(t *testing.T) {
	for _, tt := range []struct{ html, want string }{
		// A Squarespace site with a Shopify Buy Button and a link to shopify.com.
		{`<head><script src="https://static1.squarespace.com/static/vta/x/scripts/site-bundle.js"></script></head><body>
<script>var client = ShopifyBuy.buildClient({domain: 'shop.myshopify.com'}); // see shopify.com</script>
<script src="https://sdks.shopifycdn.com/buy-button/latest/buy-button-storefront.min.js"></script></body>`, PlatformSquarespace},
		{`<body><script>/* powered by shopify.com */</script></body>`, ""},
		{`<head><link rel="stylesheet" href="//cdn.shopify.com/s/files/1/theme.css"></head>`, PlatformShopify},
		{`<head><meta name="generator" content="WooCommerce 8.2.1"></head>`, PlatformWooCommerce},
		{`<head><link rel="stylesheet" href="https://cdn11.bigcommerce.com/s-abc/stencil/theme.css"></head>`, PlatformBigCommerce},
		{`<head><meta name="generator" content="Wix.com Website Builder"></head>`, PlatformWix},
		{`<head><meta name="generator" content="PrestaShop"></head>`, PlatformPrestaShop},
		{`<body><script type="text/x-magento-init">{}</script></body>`, PlatformMagento},
	} {
		p := ParsePage("https://shop.example/", []byte("<html>"+tt.html+"</html>"))
		if p.Platform != tt.want {
			t.Errorf("platform %q, want %q for %s", p.Platform, tt.want, tt.html)
		}
	}
	// The fix names the platform's own menus, or none at all.
	for platform, want := range map[string]string{PlatformSquarespace: "In Squarespace:", PlatformShopify: "In Shopify:", "": ""} {
		p := ParsePage("https://shop.example/", []byte(`<html><body></body></html>`))
		s := &Site{URL: p.URL, Origin: "https://shop.example", Home: p, Platform: platform}
		rv := review(s, nil)
		for _, f := range rv.Findings {
			if f.Check != CheckShipping {
				continue
			}
			if want != "" && !strings.Contains(f.Fix, want) {
				t.Errorf("%s: shipping fix %q lacks %q", platform, f.Fix, want)
			}
			for _, other := range []string{"In Shopify:", "In Squarespace:", "In WordPress:"} {
				if other != want && strings.Contains(f.Fix, other) {
					t.Errorf("%s: shipping fix names another platform: %q", platform, f.Fix)
				}
			}
		}
	}
}

func TestAltTextIsSuggestedFromThePageNeverTheFileName(t *testing.T) {
	p := ParsePage("https://shop.example/", []byte(`<html><body>
<a href="/collections/candles" aria-label="Soy candles"><img src="/img/Servicedropdown_191001.jpg"></a>
<figure><img src="/img/5134.jpg"><figcaption>Our workshop in Portland</figcaption></figure>
<img src="/img/IMG_2231-hero-banner.png">
</body></html>`))
	s := &Site{URL: p.URL, Origin: "https://shop.example", Home: p}
	r := &reviewer{s: s}
	var got []string
	for _, img := range p.Images {
		got = append(got, r.suggestAlt(p, img))
	}
	want := []string{"Soy candles", "Our workshop in Portland", "describe the image"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("alt suggestions %q, want %q", got, want)
	}
}

func TestTitleLengthIsGradedApartFromAMissingTitle(t *testing.T) {
	review := func(title string) domain.Review {
		p := ParsePage("https://shop.example/", []byte(`<html><head><title>`+title+`</title></head><body></body></html>`))
		return review(&Site{URL: p.URL, Origin: "https://shop.example", Home: p}, nil)
	}
	lost := func(rv domain.Review, check string) int {
		for _, c := range rv.Checks {
			if c.Check == check {
				return c.Weight - c.Earned
			}
		}
		return -1
	}
	missing := review("")
	slightly := review(strings.Repeat("a", 62))
	far := review(strings.Repeat("word ", 30))
	if lost(missing, CheckTitle) != 5 || lost(slightly, CheckTitle) != 0 || lost(far, CheckTitle) != 0 {
		t.Errorf("title check lost %d/%d/%d, want 5/0/0", lost(missing, CheckTitle), lost(slightly, CheckTitle), lost(far, CheckTitle))
	}
	if l := lost(slightly, CheckTitleLength); l != 0 {
		t.Errorf("a title 2 characters over loses %d points, want only a note", l)
	}
	if l := lost(far, CheckTitleLength); l != 2 {
		t.Errorf("a title of 150 characters loses %d length points, want 2", l)
	}
	var noted bool
	for _, n := range slightly.Notes {
		noted = noted || n.Check == CheckTitleLength
	}
	if !noted {
		t.Error("the slightly long title is not even noted")
	}
}

func TestFindingIDsSurviveAMoveOfSchemeHostAndPort(t *testing.T) {
	serve := func(tls bool) *httptest.Server {
		mux := http.NewServeMux()
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/":
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, `<html><head><title>Hi</title><script src="/js/a.js"></script></head><body><img src="/img/big.jpg"></body></html>`)
			case "/img/big.jpg":
				w.Write(make([]byte, 400<<10))
			case "/js/a.js":
				w.Write([]byte("x"))
			default:
				http.NotFound(w, r)
			}
		})
		var srv *httptest.Server
		if tls {
			srv = httptest.NewTLSServer(mux)
		} else {
			srv = httptest.NewServer(mux)
		}
		t.Cleanup(srv.Close)
		return srv
	}
	ids := func(srv *httptest.Server, host string) []string {
		a := newTestAnalyzer(t, srv, Options{})
		a.f.resolve = func(context.Context, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		u := strings.Replace(srv.URL, "127.0.0.1", host, 1)
		rv, err := a.Score(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range append(rv.Findings, rv.Notes...) {
			if !strings.HasPrefix(f.ID, CheckHTTPS) {
				out = append(out, f.ID)
			}
		}
		return out
	}
	before := ids(serve(false), "127.0.0.1")
	after := ids(serve(true), "example.com") // the test certificate's name
	if strings.Join(before, ",") != strings.Join(after, ",") || len(before) < 3 {
		t.Errorf("ids changed with scheme, host and port:\n%v\n%v", before, after)
	}
}
