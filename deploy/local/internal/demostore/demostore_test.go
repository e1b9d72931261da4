package demostore

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, base, path string) (int, string, string) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
}

func TestEveryPageTheReviewReads(t *testing.T) {
	srv := httptest.NewServer(nil)
	srv.Config.Handler = Handler(srv.URL)
	defer srv.Close()

	for _, path := range []string{"/", "/collections/all", "/pages/contact", "/policies/shipping-policy",
		"/policies/refund-policy", "/policies/privacy-policy", "/products/morning-assam"} {
		status, ctype, body := get(t, srv.URL, path)
		if status != http.StatusOK || !strings.HasPrefix(ctype, "text/html") {
			t.Fatalf("%s: %d %s", path, status, ctype)
		}
		if !strings.Contains(body, `<link rel="canonical" href="`+srv.URL+path+`">`) {
			t.Errorf("%s: no canonical link to itself", path)
		}
	}
	if status, _, _ := get(t, srv.URL, "/products/no-such-tea"); status != http.StatusNotFound {
		t.Errorf("unknown product: %d, want 404", status)
	}
	if status, _, _ := get(t, srv.URL, "/nowhere"); status != http.StatusNotFound {
		t.Errorf("unknown page: %d, want 404", status)
	}
	_, _, robots := get(t, srv.URL, "/robots.txt")
	if !strings.Contains(robots, "Sitemap: "+srv.URL+"/sitemap.xml") {
		t.Errorf("robots.txt names no sitemap: %q", robots)
	}
	_, _, sitemap := get(t, srv.URL, "/sitemap.xml")
	for _, p := range Catalogue {
		if !strings.Contains(sitemap, srv.URL+"/products/"+p.Handle) {
			t.Errorf("sitemap misses %s", p.Handle)
		}
	}
}

var jsonLD = regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`)

func TestProductPagesCarryPricesInStructuredData(t *testing.T) {
	srv := httptest.NewServer(nil)
	srv.Config.Handler = Handler(srv.URL)
	defer srv.Close()

	withData := 0
	for _, p := range Catalogue {
		_, _, body := get(t, srv.URL, "/products/"+p.Handle)
		if !strings.Contains(body, p.Price()) {
			t.Errorf("%s: price %s not shown", p.Handle, p.Price())
		}
		m := jsonLD.FindStringSubmatch(body)
		if p.NoStructuredData {
			if m != nil {
				t.Errorf("%s: should lack structured data (a deliberate finding)", p.Handle)
			}
			continue
		}
		if m == nil {
			t.Fatalf("%s: no JSON-LD", p.Handle)
		}
		var doc struct {
			Type   string `json:"@type"`
			Name   string `json:"name"`
			Offers struct {
				Price, PriceCurrency string
			} `json:"offers"`
		}
		if err := json.Unmarshal([]byte(m[1]), &doc); err != nil {
			t.Fatalf("%s: JSON-LD does not parse: %v\n%s", p.Handle, err, m[1])
		}
		if doc.Type != "Product" || doc.Name != p.Title || doc.Offers.PriceCurrency != "USD" ||
			"$"+doc.Offers.Price != p.Price() {
			t.Errorf("%s: JSON-LD %+v", p.Handle, doc)
		}
		withData++
	}
	if withData == 0 || withData == len(Catalogue) {
		t.Errorf("%d of %d product pages have structured data; want most but not all", withData, len(Catalogue))
	}
}

func TestHomePageIsImperfectOnPurpose(t *testing.T) {
	srv := httptest.NewServer(nil)
	srv.Config.Handler = Handler(srv.URL)
	defer srv.Close()

	_, _, home := get(t, srv.URL, "/")
	if strings.Contains(home, `name="description"`) {
		t.Error("home has a meta description; the review should find it missing")
	}
	if strings.Contains(home, `property="og:`) {
		t.Error("home has Open Graph tags; the review should find them missing")
	}
	if !regexp.MustCompile(`<img src="/images/banner.svg" width="600" height="400">`).MatchString(home) {
		t.Error("the banner should have no alt text")
	}
	_, _, product := get(t, srv.URL, "/products/morning-assam")
	if !strings.Contains(product, `name="description"`) {
		t.Error("product pages should have a meta description")
	}
}
