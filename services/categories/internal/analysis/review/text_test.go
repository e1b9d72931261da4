package review

import (
	"strings"
	"testing"

	"uplift.dev/categories/internal/analysis/corpus"
	"uplift.dev/categories/internal/analysis/page"
	"uplift.dev/categories/internal/analysis/site"
	"uplift.dev/categories/internal/domain"
)

func TestStoreNamesOnRealPages(t *testing.T) {
	want := map[string]string{
		"formasaurus-1.html": "RadioShack", "formasaurus-2.html": "RadioShack", "formasaurus-3.html": "RadioShack",
		"formasaurus-4.html": "Olivia The Shop", "formasaurus-5.html": "Micromania", "formasaurus-6.html": "Musikdreiklang",
		"formasaurus-7.html": "Stylelocker", "formasaurus-8.html": "Интернет-магазин Fozzy", "formasaurus-9.html": "LuckyBrand",
		"metascraper-shopping-1.html": "Pottery Barn", "metascraper-shopping-2.html": "Costco Wholesale",
		"peb-1.html": "MediaMarkt", "peb-2.html": "Almedina", "peb-3.html": "Vsezaoci.si",
	}
	for _, row := range corpus.Rows(t) {
		p := page.ParsePage(row["url"], corpus.Page(t, row["file"]))
		s := &site.Site{URL: row["url"], Home: p}
		if got := StoreName(s); got != want[row["file"]] {
			t.Errorf("%s: store name %q, want %q", row["file"], got, want[row["file"]])
		}
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
		p := page.ParsePage("https://green-roads.example/", []byte("<html><head>"+tt.head+"</head><body>"+tt.body+"</body></html>"))
		s := &site.Site{URL: "https://green-roads.example/", Home: p}
		if got := StoreName(s); got != tt.want {
			t.Errorf("%s: store name %q, want %q", tt.head, got, tt.want)
		}
	}
}

func TestAddToCartAndViewportAsBrowsersRead(t *testing.T) {
	p := page.ParsePage("https://shop.example/products/x", []byte(`<html><head>
<meta name="viewport" content="initial-scale=1"></head><body>
<div role="button" class="btn" tabindex="0">Add to cart</div></body></html>`))
	if !page.HasAddToCart(p) {
		t.Error(`a div role="button" add-to-cart is not recognised`)
	}
	s := &site.Site{URL: p.URL, Home: p}
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
<script src="https://sdks.shopifycdn.com/buy-button/latest/buy-button-storefront.min.js"></script></body>`, page.PlatformSquarespace},
		{`<body><script>/* powered by shopify.com */</script></body>`, ""},
		{`<head><link rel="stylesheet" href="//cdn.shopify.com/s/files/1/theme.css"></head>`, page.PlatformShopify},
		{`<head><meta name="generator" content="WooCommerce 8.2.1"></head>`, page.PlatformWooCommerce},
		{`<head><link rel="stylesheet" href="https://cdn11.bigcommerce.com/s-abc/stencil/theme.css"></head>`, page.PlatformBigCommerce},
		{`<head><meta name="generator" content="Wix.com Website Builder"></head>`, page.PlatformWix},
		{`<head><meta name="generator" content="PrestaShop"></head>`, page.PlatformPrestaShop},
		{`<body><script type="text/x-magento-init">{}</script></body>`, page.PlatformMagento},
	} {
		p := page.ParsePage("https://shop.example/", []byte("<html>"+tt.html+"</html>"))
		if p.Platform != tt.want {
			t.Errorf("platform %q, want %q for %s", p.Platform, tt.want, tt.html)
		}
	}
	// The fix names the platform's own menus, or none at all.
	for platform, want := range map[string]string{page.PlatformSquarespace: "In Squarespace:", page.PlatformShopify: "In Shopify:", "": ""} {
		p := page.ParsePage("https://shop.example/", []byte(`<html><body></body></html>`))
		s := &site.Site{URL: p.URL, Origin: "https://shop.example", Home: p, Platform: platform}
		rv := Review(s, nil)
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
	p := page.ParsePage("https://shop.example/", []byte(`<html><body>
<a href="/collections/candles" aria-label="Soy candles"><img src="/img/Servicedropdown_191001.jpg"></a>
<figure><img src="/img/5134.jpg"><figcaption>Our workshop in Portland</figcaption></figure>
<img src="/img/IMG_2231-hero-banner.png">
</body></html>`))
	s := &site.Site{URL: p.URL, Origin: "https://shop.example", Home: p}
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
	reviewTitle := func(title string) domain.Review {
		p := page.ParsePage("https://shop.example/", []byte(`<html><head><title>`+title+`</title></head><body></body></html>`))
		return Review(&site.Site{URL: p.URL, Origin: "https://shop.example", Home: p}, nil)
	}
	lost := func(rv domain.Review, check string) int {
		for _, c := range rv.Checks {
			if c.Check == check {
				return c.Weight - c.Earned
			}
		}
		return -1
	}
	missing := reviewTitle("")
	slightly := reviewTitle(strings.Repeat("a", 62))
	far := reviewTitle(strings.Repeat("word ", 30))
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
