package page

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"uplift.dev/review/internal/analysis/corpus"
)

// FuzzParsePage throws arbitrary HTML at the one parser every website
// review goes through: real store pages from the shared corpus are the
// seeds (`make test` runs them; `go test -fuzz FuzzParsePage` mutates them).
// Whatever the page, parsing must not panic, must keep its bounds, must
// resolve every link to an absolute address (never javascript: or data:)
// and must give the
// same reading twice.
func FuzzParsePage(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir, "*.html"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add("https://shop.example.com/", b)
	}
	// Small pages for what real stores get wrong.
	for _, s := range []string{
		``,
		`<html><head><title>T</title><base href="javascript:alert(1)"></head><body><a href="//x">x</a></body></html>`,
		`<script type="application/ld+json">{"@type":"Product","name":"Tea","offers":{"price":"-1e309","priceCurrency":"EUR"}}</script>`,
		`<script type="application/ld+json">[[[[{"@graph":[{"@type":["Product",{}],"offers":[null,{"price":{}}]}]}]]]]</script>`,
		`<meta property="og:price:amount" content="NaN"><a href="http://[::1">bad</a><img src="data:,">`,
		"<title>\x00\xff\xfe</title><a href=\"/\u202e\">\x80</a>",
		`<form action="/cart/add"><input type=email><textarea></textarea></form><select><option>` + "\n",
	} {
		f.Add("https://shop.example.com/p/1", []byte(s))
	}
	f.Add("not a url", []byte(`<a href="/x">x</a>`))
	f.Fuzz(func(t *testing.T, pageURL string, body []byte) {
		p := ParsePage(pageURL, body)
		if p == nil || p.Bytes != len(body) {
			t.Fatalf("page %v for %d bytes", p, len(body))
		}
		if len(p.Anchors) > maxAnchors {
			t.Fatalf("%d anchors kept, the bound is %d", len(p.Anchors), maxAnchors)
		}
		// Pages come from fetched addresses; for any other the links may
		// stay relative, and only the rest is checked.
		base, err := url.Parse(pageURL)
		fetched := err == nil && base.IsAbs() && base.Host != ""
		for _, l := range p.Links {
			if !fetched {
				break
			}
			u, err := url.Parse(l.Href)
			if err != nil || !u.IsAbs() || u.Scheme == "javascript" || u.Scheme == "data" {
				t.Fatalf("link %q is not an absolute address a reader may follow", l.Href)
			}
		}
		products := ProductsFrom(p)
		_ = Kinds(string(body), StripTags(string(body)))
		_ = Currency(p, body)
		_ = IsProductPage(p)
		again := ParsePage(pageURL, body)
		if len(again.Links) != len(p.Links) || len(again.Anchors) != len(p.Anchors) || len(ProductsFrom(again)) != len(products) {
			t.Fatal("the same page read twice gives two readings")
		}
	})
}
