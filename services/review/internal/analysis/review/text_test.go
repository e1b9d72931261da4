package review

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/corpus"
	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/site"
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
	p := page.ParsePage("https://shop.example/", []byte(`<html><head><title>Acme Candles</title></head><body>
<a href="/collections/candles" aria-label="Soy candles"><img src="/img/Servicedropdown_191001.jpg"></a>
<figure><img src="/img/5134.jpg"><figcaption>Our workshop in Portland</figcaption></figure>
<h1>Hand-poured soy candles</h1>
<img src="/img/IMG_2231-hero-banner.png">
<img src="/img/IMG_2232.png">
<img src="/files/amber-jar-candle_800x.jpg">
<img src="https://cdn.shopify.com/s/assets/global/payment_types/creditcards_american_express-54be4e6bfc1d.svg">
<button><img src="/img/close.svg"></button>
</body></html>`))
	s := &site.Site{URL: p.URL, Origin: "https://shop.example", Home: p,
		Catalogue: site.Catalogue{Products: []page.Product{{Name: "Amber Jar Candle", URL: "https://shop.example/products/amber-jar-candle"}}}}
	r := &reviewer{s: s, store: StoreName(s)}
	type alt struct {
		text  string
		known bool
	}
	var got []alt
	for _, img := range p.Images {
		a, ok := r.suggestAlt(p, img, false)
		got = append(got, alt{a, ok})
	}
	want := []alt{
		{"Soy candles", true}, {"Our workshop in Portland", true},
		{"", false}, {"", false}, // nothing on the page says what these show: never "IMG 2231 hero banner"
		{"Amber Jar Candle", true}, // named after the product's address
		{"American Express", true}, // a theme's payment icon
		{"", true},                 // a button's icon only decorates
	}
	if !slices.Equal(got, want) {
		t.Errorf("alt suggestions\n got %+v\nwant %+v", got, want)
	}
	// The page's first image nothing describes stands for its topic: the
	// home page's tagline.
	if a, ok := r.suggestAlt(p, p.Images[2], true); a != "Hand-poured soy candles" || !ok {
		t.Errorf("hero alt %q %v", a, ok)
	}
	// In the finding: the tagline once, the other image asked for by name.
	var fix string
	for _, f := range Review(s, nil).Findings {
		if f.Check == CheckImageAlt {
			fix = f.Fix
		}
	}
	for _, want := range []string{`IMG_2231-hero-banner.png → alt="Hand-poured soy candles"`, `amber-jar-candle_800x.jpg → alt="Amber Jar Candle"`,
		`close.svg → alt="" (it only decorates)`, "for IMG_2232.png, a few words on what it shows"} {
		if !strings.Contains(fix, want) {
			t.Errorf("the alt fix lacks %q:\n%s", want, fix)
		}
	}
	if strings.Contains(fix, "describe the image") || strings.Count(fix, "Hand-poured soy candles") != 1 {
		t.Errorf("the alt fix repeats itself or asks for nothing in particular:\n%s", fix)
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

// contentRE and altRE read the drafts back out of a fix.
var (
	contentRE = regexp.MustCompile(`content="([^"]*)"`)
	altRE     = regexp.MustCompile(`(\S+) → alt="([^"]*)"`)
)

// TestDraftsOnRealPagesSayEachFactOnce reads the corpus's real store pages
// and checks the meta descriptions and alt text the review drafts for
// them: made of the page's own facts, each said once (an owner once saw a
// product list twice in one description), whole and within what search
// engines show, and alt text never a file name nor a request to "describe
// the image".
func TestDraftsOnRealPagesSayEachFactOnce(t *testing.T) {
	for _, row := range corpus.Rows(t) {
		p := page.ParsePage(row["url"], corpus.Page(t, row["file"]))
		s := &site.Site{URL: row["url"], Origin: row["url"], Home: p, Catalogue: site.Catalogue{Products: page.ProductsFrom(p)}}
		store := StoreName(s)
		rv := Review(s, nil)
		var descs []string
		for _, f := range append(rv.Findings, rv.Notes...) {
			fixes := []string{f.Fix}
			for _, pl := range f.Places {
				fixes = append(fixes, pl.Fix)
			}
			for _, fix := range fixes {
				switch {
				case f.Check == CheckMetaDesc || f.Check == CheckMetaDescLength || (f.Check == CheckOpenGraph && strings.Contains(f.Title, "og:description")):
					for _, m := range contentRE.FindAllStringSubmatch(fix, -1) {
						descs = append(descs, m[1])
					}
				case f.Check == CheckImageAlt:
					if strings.Contains(fix, "describe the image") {
						t.Errorf("%s: asks to %q", row["file"], fix)
					}
					seen := map[string]string{}
					for _, m := range altRE.FindAllStringSubmatch(fix, -1) {
						file, alt := m[1], m[2]
						stem := strings.ToLower(strings.TrimSuffix(file, path.Ext(file)))
						isPayment := slices.Contains(slices.Collect(maps.Values(paymentNames)), alt) // a theme's payment icon, named for it
						if alt != "" && !isPayment && strings.Contains(strings.ToLower(alt), stem) {
							t.Errorf("%s: %s → alt=%q is its file name", row["file"], file, alt)
						}
						if other, ok := seen[alt]; ok && alt != "" {
							t.Errorf("%s: %s and %s both get alt=%q", row["file"], other, file, alt)
						}
						seen[alt] = file
					}
				}
			}
		}
		if row["meta_desc"] == "n" && len(descs) == 0 {
			t.Errorf("%s: no meta description drafted for a page without one", row["file"])
		}
		for _, d := range descs {
			if n := len([]rune(d)); n < 20 || n > 156 {
				t.Errorf("%s: a drafted description of %d characters: %q", row["file"], n, d)
			}
			if strings.Count(d, store) > 1 {
				t.Errorf("%s: names %s twice: %q", row["file"], store, d)
			}
			sentences := strings.SplitAfter(d, ". ")
			for i, a := range sentences {
				for _, b := range sentences[i+1:] {
					if strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) {
						t.Errorf("%s: says %q twice: %q", row["file"], a, d)
					}
				}
			}
			if pr := page.ProductsFrom(p); page.IsProductPage(p) && len(pr) == 1 && !strings.Contains(d, strings.ReplaceAll(pr[0].Name, `"`, "'")) {
				t.Errorf("%s: the product page's description does not name %s: %q", row["file"], pr[0].Name, d)
			}
		}
	}
}

// TestAHomeDescriptionListsItsProductsOnce: the draft an owner met, "Shop
// Morning Assam and First Flush Darjeeling at Fernhill Tea Co.: Morning
// Assam, First Flush Darjeeling and Sencha Kagoshima", names each product
// once, beside the store's own tagline.
func TestAHomeDescriptionListsItsProductsOnce(t *testing.T) {
	p := page.ParsePage("https://fernhill.example/", []byte(`<html><head><title>Fernhill Tea Co. – loose-leaf tea from single estates</title></head><body>
<h1>Loose-leaf tea from single estates</h1><p>Fernhill Tea Co. sources black, green and herbal teas directly from small estates in India, Japan and Egypt, and packs every tin by hand in Portland, Oregon.</p></body></html>`))
	products := []page.Product{{Name: "Morning Assam", Price: 14.5}, {Name: "First Flush Darjeeling", Price: 22}, {Name: "Sencha Kagoshima", Price: 18}}
	s := &site.Site{URL: p.URL, Origin: "https://fernhill.example", Home: p, Catalogue: site.Catalogue{Products: products, Currency: "USD"}}
	r := &reviewer{s: s, store: StoreName(s)}
	got := r.suggestDescription(p)
	want := "Fernhill Tea Co.: Loose-leaf tea from single estates. Shop Morning Assam, First Flush Darjeeling and Sencha Kagoshima."
	if got != want {
		t.Errorf("home description\n got %q\nwant %q", got, want)
	}
	// With product types known, the types say what it sells.
	for i, ty := range []string{"Black tea", "Black tea", "Green tea"} {
		s.Catalogue.Products[i].Type = ty
	}
	if got, want := r.suggestDescription(p), "Fernhill Tea Co.: Loose-leaf tea from single estates. Shop black tea and green tea."; got != want {
		t.Errorf("home description with types\n got %q\nwant %q", got, want)
	}
}
