package analysis

import (
	"compress/gzip"
	"crypto/x509"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The small store websites the tests serve on loopback.

// fixedNow is the clock of every test: 20 Jan 2026, so Valentine's Day
// (14 Feb) is the next occasion and Easter (5 Apr) is out of the window.
var fixedNow = func() time.Time { return time.Date(2026, time.January, 20, 9, 0, 0, 0, time.UTC) }

// newTestAnalyzer allows loopback and trusts srv's certificate when it has one.
func newTestAnalyzer(t *testing.T, srv *httptest.Server, o Options) *Analyzer {
	t.Helper()
	o.AllowLoopback = true
	if o.Now == nil {
		o.Now = fixedNow
	}
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Second
	}
	if srv != nil && srv.Certificate() != nil {
		o.RootCAs = x509.NewCertPool()
		o.RootCAs.AddCert(srv.Certificate())
	}
	return New(o)
}

// gzipped compresses responses for clients that accept gzip, as a good host does.
func gzipped(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		zw := gzip.NewWriter(w)
		zw.Write(rec.Body.Bytes())
		zw.Close()
	})
}

func pad(n int) string {
	return "<!-- " + strings.Repeat("padding ", n/8) + " -->"
}

// ---- the good store: HTTPS, complete markup, fast, trustworthy ----

const goodHead = `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/assets/app.css">
<script src="/assets/app.js" defer></script>`

func goodPage(title, desc, canonical, h1, extraHead, body string) string {
	return fmt.Sprintf(`<!doctype html><html lang="en"><head>%s
<title>%s</title>
<meta name="description" content="%s">
<link rel="canonical" href="%s">
%s
</head><body>
<header><a href="/">Juniper Candle Co.</a> <a href="/collections/all">Shop candles</a></header>
<h1>%s</h1>
%s
<footer>
<a href="/pages/contact">Contact us</a> <a href="/policies/refund-policy">Returns &amp; refunds</a>
<a href="/policies/shipping-policy">Shipping</a> <a href="/policies/privacy-policy">Privacy policy</a>
<form action="/newsletter" method="post"><p>Join our list for new scents</p><input type="email" name="email"><button type="submit">Subscribe</button></form>
</footer>%s</body></html>`, goodHead, title, desc, canonical, extraHead, h1, body, pad(1200))
}

func goodStore(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	var base string
	html := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, strings.ReplaceAll(body, "BASE", base))
		}
	}
	mux.HandleFunc("/{$}", html(goodPage("Juniper Candle Co. – Hand-poured soy candles",
		"Hand-poured soy candles made in Portland: Cedar &amp; Smoke, Fig Leaf and Sea Salt candles from $24, shipped in 2 days with free returns.",
		"BASE/", "Hand-poured soy candles",
		`<meta property="og:title" content="Juniper Candle Co."><meta property="og:description" content="Hand-poured soy candles from Portland."><meta property="og:image" content="BASE/img/hero.jpg">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Juniper Candle Co.","url":"BASE/"}</script>`,
		`<img src="/img/hero.jpg" alt="Three lit soy candles on a shelf">
<p>Every Juniper candle is hand-poured in small batches from American soy wax and burns clean for fifty hours or more.</p>
<a href="/products/cedar-smoke" class="button">Shop Cedar &amp; Smoke</a> <a href="/products/fig-leaf">Fig Leaf</a>
<div class="product-reviews">★★★★★ 212 reviews</div>`)))
	product := func(slug, name, price, desc string) {
		mux.HandleFunc("/products/"+slug, html(goodPage(name+" soy candle – Juniper Candle Co.", desc, "BASE/products/"+slug, name,
			fmt.Sprintf(`<meta property="og:type" content="product"><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":%q,"description":%q,"offers":{"@type":"Offer","price":%q,"priceCurrency":"USD","availability":"https://schema.org/InStock"},"aggregateRating":{"@type":"AggregateRating","ratingValue":"4.9","reviewCount":"88"}}</script>`, name, desc, price),
			fmt.Sprintf(`<img src="/img/%s.jpg" alt="%s candle"><form action="/cart/add" method="post"><button type="submit">Add to cart</button></form>`, slug, name))))
	}
	product("cedar-smoke", "Cedar & Smoke", "32.00", "A warm blend of cedarwood and campfire smoke in a 9 oz amber jar; fifty hours of clean burn.")
	product("fig-leaf", "Fig Leaf", "28.00", "Green fig leaves and creamy sandalwood in a 9 oz jar, hand-poured in Portland from soy wax.")
	product("sea-salt", "Sea Salt", "24.00", "Bright sea salt and driftwood in a 6 oz travel tin, perfect for small rooms and gifts.")
	for _, p := range []struct{ path, title string }{
		{"/collections/all", "All candles – Juniper Candle Co."},
		{"/pages/contact", "Contact us – Juniper Candle Co."},
		{"/policies/refund-policy", "Returns and refunds – Juniper Candle Co."},
		{"/policies/shipping-policy", "Shipping policy – Juniper Candle Co."},
		{"/policies/privacy-policy", "Privacy policy – Juniper Candle Co."},
	} {
		mux.HandleFunc(p.path, html(goodPage(p.title, "Everything you need to know about ordering soy candles from Juniper Candle Co. in Portland, Oregon.", "BASE"+p.path, strings.Split(p.title, " – ")[0], "", "<p>Details for our customers, written plainly and kept up to date by the team.</p>")))
	}
	asset := func(ct, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			fmt.Fprint(w, body)
		}
	}
	mux.HandleFunc("/assets/app.css", asset("text/css", "body{font-family:serif}"))
	mux.HandleFunc("/assets/app.js", asset("application/javascript", "console.log('hi')"))
	mux.HandleFunc("/img/", asset("image/jpeg", strings.Repeat("j", 40<<10)))
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nDisallow: /cart\nSitemap: %s/sitemap.xml\n", base)
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, p := range []string{"/", "/products/cedar-smoke", "/products/fig-leaf", "/products/sea-salt", "/collections/all", "/pages/contact", "/policies/refund-policy", "/policies/shipping-policy", "/policies/privacy-policy"} {
			fmt.Fprintf(w, "<url><loc>%s%s</loc></url>", base, p)
		}
		fmt.Fprint(w, `</urlset>`)
	})
	srv := httptest.NewTLSServer(gzipped(mux))
	base = srv.URL
	t.Cleanup(srv.Close)
	return srv
}

// ---- the poor store: plain HTTP, thin markup, slow, no trust pages ----

func poorStore(t *testing.T) *httptest.Server {
	t.Helper()
	return poorStoreNamed(t, "Bramble Honey")
}

// poorStoreNamed is the poor store under another name (og:site_name).
func poorStoreNamed(t *testing.T, name string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	head := `<title>Home</title><meta property="og:site_name" content="` + html.EscapeString(name) + `">
<script src="/js/jquery.js"></script><script src="/js/slider.js"></script>
<link rel="stylesheet" href="/css/a.css"><link rel="stylesheet" href="/css/b.css"><link rel="stylesheet" href="/css/c.css"><link rel="stylesheet" href="/css/d.css"><link rel="stylesheet" href="/css/e.css">`
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><head>%s</head><body>
<div class="logo">Bramble Honey</div>
<img src="/img/banner.jpg"><img src="/img/bees.png">
<p>Raw honey from our own hives in the Cotswolds, jarred by hand and sent out every week.</p>
<a href="/products/wildflower-honey">Wildflower Honey</a> <a href="/products/heather-honey">Heather Honey</a> <a href="/products/honeycomb">Honeycomb</a>
<a href="/contact">Contact</a>
%s</body></html>`, head, pad(3000))
	})
	product := func(slug, name, price string) {
		mux.HandleFunc("/products/"+slug, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<html><head><title>%s</title><meta property="og:type" content="product"><meta property="og:title" content="%s"><meta property="product:price:amount" content="%s"><meta property="product:price:currency" content="GBP"></head>
<body><h1>%s</h1><h1>Bramble Honey</h1><img src="/img/%s.jpg"><p>%s</p><p>Email us to order.</p>%s</body></html>`, name, name, price, name, slug, "£"+price, pad(2000))
		})
	}
	product("wildflower-honey", "Wildflower Honey 340g", "12.00")
	product("heather-honey", "Heather Honey 340g", "18.50")
	product("honeycomb", "Cut Honeycomb 400g", "45.00")
	mux.HandleFunc("/contact", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><head><title>Contact Bramble Honey</title></head><body><h1>Contact</h1><form action="/send"><input type="email" name="email"><textarea name="msg"></textarea><button>Send</button></form>%s</body></html>`, pad(1500))
	})
	mux.HandleFunc("/img/banner.jpg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(make([]byte, 900<<10))
	})
	mux.HandleFunc("/img/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(make([]byte, 20<<10))
	})
	mux.HandleFunc("/css/", func(w http.ResponseWriter, r *http.Request) { w.Header().Set("Content-Type", "text/css") })
	mux.HandleFunc("/js/", func(w http.ResponseWriter, r *http.Request) { w.Header().Set("Content-Type", "application/javascript") })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// ---- the Shopify-like store: products.json and a sitemap index ----

const shopifyProductsJSON = `{"products":[
{"title":"Linen Apron","handle":"linen-apron","body_html":"<p>Stonewashed European linen apron with two deep pockets and adjustable ties.</p>","product_type":"Aprons","vendor":"Hearth & Loom","images":[{},{}],"variants":[{"title":"Natural","price":"38.00","compare_at_price":null,"available":true},{"title":"Rust","price":"38.00","available":true}]},
{"title":"Waffle Tea Towel Set","handle":"waffle-tea-towels","body_html":"<p>Three absorbent cotton waffle towels that dry fast and soften with every wash.</p>","product_type":"Tea towels","vendor":"Hearth & Loom","images":[{},{},{}],"variants":[{"title":"Default","price":"24.00","compare_at_price":"30.00","available":true}]},
{"title":"Oven Mitt Pair","handle":"oven-mitts","body_html":"","product_type":"Tea towels","vendor":"Hearth & Loom","images":[{}],"variants":[{"title":"Default","price":"19.00","available":true}]},
{"title":"Linen Table Runner","handle":"table-runner","body_html":"<p>A long linen runner for everyday tables and celebrations, hemmed by hand.</p>","product_type":"Table linen","vendor":"Hearth & Loom","images":[{},{}],"variants":[{"title":"Default","price":"45.00","available":false}]},
{"title":"Napkin Set of 4","handle":"napkins","body_html":"","product_type":"Table linen","vendor":"Hearth & Loom","images":[{},{}],"variants":[{"title":"Default","price":"32.00","available":true}]},
{"title":"Heirloom Tablecloth","handle":"tablecloth","body_html":"<p>Heavyweight linen tablecloth woven in Lithuania, made to last for decades.</p>","product_type":"Table linen","vendor":"Hearth & Loom","images":[{},{},{}],"variants":[{"title":"Large","price":"120.00","available":true},{"title":"Small","price":"95.00","available":true}]}
]}`

func shopifyStore(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	var base string
	page := func(title, h1, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html lang="en-GB"><head>
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>%s</title><meta property="og:site_name" content="Hearth &amp; Loom">
<link rel="stylesheet" href="//cdn.shopify.com/s/files/theme.css">
<script>var Shopify = Shopify || {}; Shopify.shop = "hearth-loom.myshopify.com"; Shopify.currency = {"active":"GBP","rate":"1.0"}; Shopify.theme = {"name":"Dawn"};</script>
</head><body><h1>%s</h1>%s
<a href="/collections/all">Shop all linen</a> <a href="/pages/contact">Contact</a> <a href="/policies/refund-policy">Refund policy</a>
</body></html>`, title, h1, body)
		}
	}
	mux.HandleFunc("/{$}", page("Hearth & Loom | Linen for the kitchen and table", "Linen for the kitchen and table",
		`<form method="post" action="/contact#contact_form"><input type="hidden" name="form_type" value="customer"><input type="email" name="contact[email]"><button>Subscribe</button></form>`))
	mux.HandleFunc("/products/", page("Linen Apron – Hearth & Loom", "Linen Apron", `<form action="/cart/add" method="post"><button>Add to cart</button></form>`))
	mux.HandleFunc("/collections/all", page("All products – Hearth & Loom", "All products", ""))
	mux.HandleFunc("/pages/", page("Contact – Hearth & Loom", "Contact", ""))
	mux.HandleFunc("/policies/", page("Refund policy – Hearth & Loom", "Refund policy", ""))
	mux.HandleFunc("/products.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, shopifyProductsJSON)
	})
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nDisallow: /checkout\nDisallow: /cart\n\nSitemap: %s/sitemap.xml\n", base)
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<sitemapindex><sitemap><loc>%s/sitemap_pages_1.xml</loc></sitemap><sitemap><loc>%s/sitemap_products_1.xml</loc></sitemap></sitemapindex>`, base, base)
	})
	mux.HandleFunc("/sitemap_products_1.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset><url><loc>%[1]s/products/linen-apron</loc></url><url><loc>%[1]s/products/napkins</loc></url></urlset>`, base)
	})
	mux.HandleFunc("/sitemap_pages_1.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset><url><loc>%[1]s/pages/contact</loc></url><url><loc>%[1]s/policies/shipping-policy</loc></url></urlset>`, base)
	})
	srv := httptest.NewServer(mux)
	base = srv.URL
	t.Cleanup(srv.Close)
	return srv
}
