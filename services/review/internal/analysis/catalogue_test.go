package analysis

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// A store with more products than a review reads: the home page links to
// a collection page that links to eight products, and the sitemap lists a
// ninth that no page links to. The catalogue lists them all, a product
// page without structured data by its heading (without a photo), and
// never follows a product link to another site.
func TestCatalogueListsEveryProductTheStoreShows(t *testing.T) {
	var offSite atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { offSite.Add(1) }))
	t.Cleanup(other.Close)
	mux := http.NewServeMux()
	var base string
	html := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>Kiln &amp; Co</title></head><body>%s</body></html>`, body)
	}
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		html(w, `<h1>Kiln &amp; Co</h1><a href="/collections/all">Shop all</a> <a href="/pages/contact">Contact</a>`)
	})
	var names []string
	links := ""
	for i := 1; i <= 8; i++ {
		names = append(names, fmt.Sprintf("Stoneware Bowl %d", i))
		links += fmt.Sprintf(`<a href="/products/bowl-%d">Stoneware Bowl %d</a> `, i, i)
	}
	// a product page that is gone, and another site's product
	// (on another host name: a site is its host, whatever the port)
	elsewhere := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) + "/products/elsewhere"
	links += `<a href="/products/retired-jug">Retired jug</a> <a href="` + elsewhere + `">Elsewhere</a>`
	mux.HandleFunc("/collections/all", func(w http.ResponseWriter, r *http.Request) { html(w, "<h1>All</h1>"+links) })
	mux.HandleFunc("/pages/contact", func(w http.ResponseWriter, r *http.Request) { html(w, "<h1>Contact</h1>") })
	mux.HandleFunc("/products/{handle}", func(w http.ResponseWriter, r *http.Request) {
		h := r.PathValue("handle")
		var n int
		if _, err := fmt.Sscanf(h, "bowl-%d", &n); err != nil || n < 1 || n > 9 {
			http.NotFound(w, r)
			return
		}
		name := fmt.Sprintf("Stoneware Bowl %d", n)
		cart := `<form action="/cart/add" method="post"><button>Add to cart</button></form>`
		if n == 4 {
			// no structured data: listed by its heading
			html(w, "<h1>"+name+"</h1>"+cart)
			return
		}
		html(w, fmt.Sprintf(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":%q,"sku":"BOWL-%d",
"image":"%s/photos/bowl-%d.jpg","offers":{"@type":"Offer","price":"%d.00","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script><h1>%s</h1>%s`,
			name, n, base, n, 20+n, name, cart))
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/products/bowl-9</loc></url></urlset>`, base)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	base = srv.URL
	names = append(names, "Stoneware Bowl 9")

	// a review reads three pages besides the home page
	a := newTestAnalyzer(t, srv, Options{MaxPages: 3})
	cat, err := a.Catalogue(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range cat.Products {
		got = append(got, p.Name)
		switch p.Name {
		case "Stoneware Bowl 4":
			if p.ID != "bowl-4" || len(p.ImageURLs) != 0 || p.Price != 0 {
				t.Errorf("the product without structured data: %+v", p)
			}
		case "Stoneware Bowl 7":
			if p.ID != "BOWL-7" || len(p.ImageURLs) != 1 || p.ImageURLs[0] != base+"/photos/bowl-7.jpg" || p.Price != 27 {
				t.Errorf("a product with structured data: %+v", p)
			}
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, names) {
		t.Errorf("catalogue lists %q\nwant %q", got, names)
	}
	if n := offSite.Load(); n != 0 {
		t.Errorf("another site's product link was read %d times", n)
	}

}
