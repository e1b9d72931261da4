package review

import (
	"net/http"
	"testing"
	"time"

	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/site"
)

// TestLighthouseCriteria checks each audit's criterion on pages built to
// pass or fail it the way Lighthouse 13 decides (core/audits/seo).
func TestLighthouseCriteria(t *testing.T) {
	const u = "https://shop.example/products/mug"
	for _, tt := range []struct {
		name, audit, head, body string
		header                  http.Header
		status                  int
		pass                    bool
	}{
		{"title present", "document-title", `<title>Mug</title>`, ``, nil, 200, true},
		{"title empty", "document-title", `<title>  </title>`, ``, nil, 200, false},
		{"no title", "document-title", ``, ``, nil, 200, false},
		{"description", "meta-description", `<meta name="description" content="A mug.">`, ``, nil, 200, true},
		{"description empty", "meta-description", `<meta name="description" content=" ">`, ``, nil, 200, false},
		{"status 200", "http-status-code", ``, ``, nil, 200, true},
		{"status 404", "http-status-code", ``, ``, nil, 404, false},
		{"indexable", "is-crawlable", `<meta name="robots" content="index, follow">`, ``, nil, 200, true},
		{"meta noindex", "is-crawlable", `<meta name="robots" content="noindex">`, ``, nil, 200, false},
		{"meta none", "is-crawlable", `<meta name="robots" content="none">`, ``, nil, 200, false},
		{"only Googlebot kept out by meta", "is-crawlable", `<meta name="googlebot" content="none">`, ``, nil, 200, true},
		{"Googlebot let in by its own meta", "is-crawlable", `<meta name="robots" content="noindex"><meta name="googlebot" content="index">`, ``, nil, 200, true},
		{"every crawler's meta says noindex", "is-crawlable", `<meta name="robots" content="noindex"><meta name="googlebot" content="noindex">`, ``, nil, 200, false},
		{"header noindex", "is-crawlable", ``, ``, http.Header{"X-Robots-Tag": {"noindex, nofollow"}}, 200, false},
		{"header for Googlebot only", "is-crawlable", ``, ``, http.Header{"X-Robots-Tag": {"Googlebot: noindex"}}, 200, true},
		{"header for another bot", "is-crawlable", ``, ``, http.Header{"X-Robots-Tag": {"otherbot: noindex"}}, 200, true},
		{"header unavailable_after a past date", "is-crawlable", ``, ``, http.Header{"X-Robots-Tag": {"unavailable_after: 2020-01-01"}}, 200, false},
		{"unavailable after a past date", "is-crawlable", `<meta name="robots" content="unavailable_after: 2020-01-01">`, ``, nil, 200, false},
		{"unavailable after a future date", "is-crawlable", `<meta name="robots" content="unavailable_after: 2099-01-01">`, ``, nil, 200, true},
		{"hreflang valid", "hreflang", `<link rel="alternate" hreflang="en-GB" href="https://shop.example/uk/"><link rel="alternate" hreflang="x-default" href="https://shop.example/">`, ``, nil, 200, true},
		{"hreflang unknown language", "hreflang", `<link rel="alternate" hreflang="english" href="https://shop.example/en/">`, ``, nil, 200, false},
		{"hreflang three letters for a two-letter language", "hreflang", `<link rel="alternate" hreflang="eng" href="https://shop.example/en/">`, ``, nil, 200, false},
		{"hreflang three letters with no two-letter code", "hreflang", `<link rel="alternate" hreflang="haw" href="https://shop.example/haw/">`, ``, nil, 200, true},
		{"hreflang relative", "hreflang", `<link rel="alternate" hreflang="fr" href="/fr/">`, ``, nil, 200, false},
		{"hreflang in body is left out", "hreflang", ``, `<link rel="alternate" hreflang="fr" href="/fr/">`, nil, 200, true},
		{"hreflang to another scheme", "hreflang", `<link rel="alternate" hreflang="fr" href="ftp://shop.example/fr/">`, ``, nil, 200, false},
		{"no canonical is not applicable", "canonical", ``, ``, nil, 200, true},
		{"canonical valid", "canonical", `<link rel="canonical" href="https://shop.example/products/mug">`, ``, nil, 200, true},
		{"canonical relative", "canonical", `<link rel="canonical" href="/products/mug">`, ``, nil, 200, false},
		{"canonicals conflict", "canonical", `<link rel="canonical" href="https://shop.example/a"><link rel="canonical" href="https://shop.example/b">`, ``, nil, 200, false},
		{"canonical to the home page", "canonical", `<link rel="canonical" href="https://shop.example/">`, ``, nil, 200, false},
		{"canonical to another language", "canonical", `<link rel="canonical" href="https://shop.example/fr/products/mug"><link rel="alternate" hreflang="fr" href="https://shop.example/fr/products/mug"><link rel="alternate" hreflang="en" href="https://shop.example/products/mug">`, ``, nil, 200, false},
		{"canonical in body ignored", "canonical", ``, `<link rel="canonical" href="/x">`, nil, 200, true},
		{"canonical in a Link header", "canonical", ``, ``, http.Header{"Link": {`<https://shop.example/products/mug>; rel="canonical"`}}, 200, true},
		{"relative canonical in a Link header", "canonical", ``, ``, http.Header{"Link": {`</products/mug>; rel="canonical"`}}, 200, false},
		{"Link header canonical against <head>'s", "canonical", `<link rel="canonical" href="https://shop.example/products/mug">`, ``, http.Header{"Link": {`<https://shop.example/products/cup>; rel=canonical`}}, 200, false},
		{"hreflang in a Link header", "hreflang", ``, ``, http.Header{"Link": {`<https://shop.example/fr/>; rel="alternate"; hreflang="french", <https://shop.example/>; rel="alternate"; hreflang="x-default"`}}, 200, false},
		{"descriptive links", "link-text", ``, `<a href="/shipping">Shipping policy</a><a href="#top">more</a><a href="javascript:void(0)">here</a>`, nil, 200, true},
		{"click here", "link-text", ``, `<a href="/shipping">click here</a>`, nil, 200, false},
		{"a bare URL as text is not on Lighthouse's list", "link-text", ``, `<a href="/x">https://shop.example/x</a>`, nil, 200, true},
		{"Tamil in a Tamil page", "link-text", ``, `<div lang="ta"><a href="/x">மேலும் அறிக</a></div>`, nil, 200, false},
		{"German in a German page", "link-text", ``, `<div lang="de"><a href="/x">Weiterlesen</a></div>`, nil, 200, false},
		{"German word in an English page", "link-text", ``, `<div lang="en"><a href="/x">weiterlesen</a></div>`, nil, 200, true},
		{"lang in capitals matches no list", "link-text", ``, `<div lang="EN-US"><a href="/x">click here</a></div>`, nil, 200, true},
		{"text hidden inside the link is not read", "link-text", ``, `<a href="/x"><span style="display: none">Shipping policy</span>here</a>`, nil, 200, false},
		{"nofollow is not judged", "link-text", ``, `<a href="/x" rel="nofollow">here</a>`, nil, 200, true},
		{"NoFollow is, as Lighthouse matches it case-sensitively", "link-text", ``, `<a href="/x" rel="NoFollow">here</a>`, nil, 200, false},
		{"crawlable links", "crawlable-anchors", ``, `<a href="/a">A</a><a id="top"></a><a role="button">Menu</a><a href="mailto:x@y.z">Mail</a><a name="n">N</a>`, nil, 200, true},
		{"javascript:void(0)", "crawlable-anchors", ``, `<a href="javascript:void(0)">Menu</a>`, nil, 200, false},
		{"https:foo on an https page is relative to it", "crawlable-anchors", ``, `<a href="https:foo">Foo</a>`, nil, 200, true},
		{"http:// has no host", "crawlable-anchors", ``, `<a href="http://">Foo</a>`, nil, 200, false},
		{"// has no host either", "crawlable-anchors", ``, `<a href="//">Foo</a>`, nil, 200, false},
		{"placeholder without href", "crawlable-anchors", ``, `<a class="thumbnail">Pic</a>`, nil, 200, true},
		{"placeholder for the current page", "crawlable-anchors", ``, `<a aria-current="page">Home</a>`, nil, 200, true},
		{"placeholder with a click handler", "crawlable-anchors", ``, `<a class="btn" onclick="wishlist.add('98')">Save</a>`, nil, 200, false},
		{"no href but a target", "crawlable-anchors", ``, `<a target="_blank">Pic</a>`, nil, 200, false},
		{"file: link", "crawlable-anchors", ``, `<a href="file:///c:/price-list.pdf" role="">List</a>`, nil, 200, false},
		{"alt everywhere", "image-alt", ``, `<img src="/a.jpg" alt="Mug"><img src="/b.jpg" alt=""><img src="/c.jpg" role="presentation">`, nil, 200, true},
		{"an image without alt", "image-alt", ``, `<img src="/a.jpg">`, nil, 200, false},
		{"a hidden image without alt", "image-alt", ``, `<div style="display: none"><img src="/a.jpg"></div>`, nil, 200, true},
	} {
		p := page.ParsePage(u, []byte("<!doctype html><html><head>"+tt.head+"</head><body>"+tt.body+"</body></html>"))
		p.Status = tt.status
		p.XRobotsTag = tt.header.Values("X-Robots-Tag")
		p.AddLinkHeaders(tt.header.Values("Link"))
		s := &site.Site{URL: u, Origin: "https://shop.example", Home: p, ReadAt: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)}
		var found bool
		for _, c := range Checks {
			if c.Audit != tt.audit {
				continue
			}
			found = true
			if got := c.passes(p, s); got != tt.pass {
				t.Errorf("%s: %s pass=%v, want %v", tt.name, tt.audit, got, tt.pass)
			}
		}
		if !found {
			t.Fatalf("no check for %s", tt.audit)
		}
	}
}

// TestUnavailableAfterIsJudgedWhenTheSiteWasRead: a page that asks to
// leave search results after a date is indexable in a read before it and
// not in one after, by the reader's clock (Site.ReadAt), whatever the
// wall clock says.
func TestUnavailableAfterIsJudgedWhenTheSiteWasRead(t *testing.T) {
	const u = "https://shop.example/"
	p := page.ParsePage(u, []byte(`<!doctype html><html><head><meta name="robots" content="unavailable_after: 2031-01-01"></head><body></body></html>`))
	p.Status = 200
	for _, c := range []struct {
		readAt time.Time
		pass   bool
	}{
		{time.Date(2030, 12, 31, 23, 0, 0, 0, time.UTC), true},
		{time.Date(2031, 1, 1, 1, 0, 0, 0, time.UTC), false},
	} {
		s := &site.Site{URL: u, Origin: "https://shop.example", Home: p, ReadAt: c.readAt}
		if got := auditIndexable(p, s); got != c.pass {
			t.Errorf("read at %v: indexable %v, want %v", c.readAt, got, c.pass)
		}
		rv, noindex := Review(s, nil), false
		for _, f := range append(rv.Findings, rv.Notes...) {
			noindex = noindex || f.Title == "Search engines are told not to list this page"
		}
		if noindex == c.pass {
			t.Errorf("read at %v: a noindex finding %v, want %v", c.readAt, noindex, !c.pass)
		}
	}
}
