package page

import (
	"html"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"uplift.dev/review/internal/analysis/words"
)

// MaxProducts bounds how much of a catalogue one read keeps.
const MaxProducts = 250

// Product is one item the store sells, as read from its public catalogue
// (Shopify's /products.json) or from the structured data on its pages.
type Product struct {
	// ID names the product for the product studio's `?product=`: Shopify's
	// product id, else the structured data's productID or sku, else the
	// last segment of its address.
	ID             string  `json:"id,omitempty"`
	Name           string  `json:"name"`
	URL            string  `json:"url,omitempty"`
	Type           string  `json:"type,omitempty"`
	Vendor         string  `json:"vendor,omitempty"`
	Price          float64 `json:"price,omitempty"`          // lowest variant price
	MaxPrice       float64 `json:"maxPrice,omitempty"`       // highest variant price
	CompareAt      float64 `json:"compareAtPrice,omitempty"` // highest "was" price, 0 when not on sale
	Currency       string  `json:"currency,omitempty"`
	Description    string  `json:"description,omitempty"` // plain text, shortened
	HasDescription bool    `json:"-"`
	Images         int     `json:"-"` // -1 when unknown
	Variants       int     `json:"-"`
	Available      bool    `json:"available"`
	Source         string  `json:"-"` // "products.json", "json-ld" or "meta"
	// ImageURLs are the product's photos, absolute, main photo first (the
	// product studio fetches them through the guarded fetcher).
	ImageURLs []string `json:"imageUrls,omitempty"`
}

var tagRE = regexp.MustCompile(`(?s)<[^>]*>`)

// StripTags turns a fragment of HTML into plain text.
func StripTags(s string) string {
	return html.UnescapeString(tagRE.ReplaceAllString(s, " "))
}

// ProductsFrom reads the products a page describes in JSON-LD, or, for a
// product page without JSON-LD, from its Open Graph product tags.
func ProductsFrom(p *Page) []Product {
	var out []Product
	var visit func(obj map[string]any, depth int)
	visit = func(obj map[string]any, depth int) {
		if depth > 3 {
			return
		}
		if JSONLDIs(obj, "product", "productgroup") {
			if pr, ok := jsonldProduct(obj, p.URL); ok {
				out = append(out, pr)
			}
			return
		}
		if JSONLDIs(obj, "itemlist", "offercatalog") {
			items, _ := obj["itemListElement"].([]any)
			for _, it := range items {
				m, ok := it.(map[string]any)
				if !ok {
					continue
				}
				if inner, ok := m["item"].(map[string]any); ok {
					m = inner
				}
				visit(m, depth+1)
			}
		}
	}
	for _, obj := range p.JSONLD {
		visit(obj, 0)
	}
	if len(out) == 0 && strings.Contains(strings.ToLower(p.OG["og:type"]), "product") {
		price := ParsePrice(words.FirstNonEmpty(p.OG["product:price:amount"], p.OG["og:price:amount"], p.OG["itemprop:price"]))
		name := words.FirstNonEmpty(p.OG["og:title"], words.First(p.H1), p.Title)
		if name != "" {
			out = append(out, Product{
				Name: name, URL: p.URL, Price: price, MaxPrice: price,
				Currency:    strings.ToUpper(words.FirstNonEmpty(p.OG["product:price:currency"], p.OG["og:price:currency"])),
				Description: words.Truncate(words.FirstNonEmpty(p.OG["og:description"], p.MetaDesc), 300),
				Images:      -1, Available: true, Source: "meta",
				ImageURLs: AbsoluteURLs(p.URL, p.OG["og:image"]),
			})
			out[0].ID = LastSegment(p.URL)
			out[0].HasDescription = len(out[0].Description) >= 20
		}
	}
	return out
}

func jsonldProduct(obj map[string]any, pageURL string) (Product, bool) {
	name := words.Collapse(html.UnescapeString(JSONString(obj["name"])))
	if name == "" {
		return Product{}, false
	}
	desc := words.Collapse(StripTags(html.UnescapeString(JSONString(obj["description"]))))
	pr := Product{
		Name: name, URL: words.FirstNonEmpty(JSONString(obj["url"]), pageURL), Description: words.Truncate(desc, 300),
		HasDescription: len(desc) >= 20, Images: -1, Source: "json-ld",
		Type: words.Collapse(JSONString(obj["category"])),
	}
	pr.ImageURLs = AbsoluteURLs(pageURL, jsonldImages(obj["image"])...)
	pr.ID = words.FirstNonEmpty(words.Collapse(JSONString(obj["productID"])), words.Collapse(JSONString(obj["sku"])), LastSegment(pr.URL))
	if b, ok := obj["brand"].(map[string]any); ok {
		pr.Vendor = words.Collapse(JSONString(b["name"]))
	} else {
		pr.Vendor = words.Collapse(JSONString(obj["brand"]))
	}
	var offers []map[string]any
	switch o := obj["offers"].(type) {
	case map[string]any:
		offers = append(offers, o)
		if inner, ok := o["offers"].([]any); ok {
			for _, e := range inner {
				if m, ok := e.(map[string]any); ok {
					offers = append(offers, m)
				}
			}
		}
	case []any:
		for _, e := range o {
			if m, ok := e.(map[string]any); ok {
				offers = append(offers, m)
			}
		}
	}
	pr.Price = math.Inf(1)
	for _, o := range offers {
		// A price may sit on the offer or in its priceSpecification (one
		// or several, e.g. a sale price and a list price).
		priced := []map[string]any{o}
		switch ps := o["priceSpecification"].(type) {
		case map[string]any:
			priced = append(priced, ps)
		case []any:
			for _, e := range ps {
				if m, ok := e.(map[string]any); ok {
					priced = append(priced, m)
				}
			}
		}
		for _, src := range priced {
			for _, key := range []string{"price", "lowPrice", "highPrice", "minPrice", "maxPrice"} {
				if v := ParsePrice(JSONString(src[key])); v > 0 {
					pr.Price = min(pr.Price, v)
					pr.MaxPrice = max(pr.MaxPrice, v)
				}
			}
			if c := JSONString(src["priceCurrency"]); c != "" && pr.Currency == "" {
				pr.Currency = strings.ToUpper(c)
			}
		}
		if buyable(JSONString(o["availability"])) {
			pr.Available = true
		}
	}
	if len(offers) == 0 {
		pr.Available = true
	}
	if math.IsInf(pr.Price, 1) {
		pr.Price = 0
	}
	pr.Variants = len(offers)
	return pr, true
}

// jsonldImages reads schema.org's image property: a URL, an ImageObject
// (url or contentUrl) or a list of either.
func jsonldImages(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case map[string]any:
		return []string{words.FirstNonEmpty(JSONString(t["url"]), JSONString(t["contentUrl"]))}
	case []any:
		var out []string
		for _, e := range t {
			out = append(out, jsonldImages(e)...)
		}
		return out
	}
	return nil
}

// MaxImageURLs bounds how many photos of one product are kept.
const MaxImageURLs = 10

// AbsoluteURLs resolves image addresses against the page they were found
// on, keeping http(s) ones only, without repeats.
func AbsoluteURLs(pageURL string, raw ...string) []string {
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range raw {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		u, err := base.Parse(r)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		u.Fragment = ""
		if s := u.String(); !slices.Contains(out, s) {
			out = append(out, s)
		}
		if len(out) == MaxImageURLs {
			break
		}
	}
	return out
}

// LastSegment is the last non-empty path segment of an address ("green-tea"
// for https://shop.example/products/green-tea/), "" when it has none.
func LastSegment(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	return parts[len(parts)-1]
}

// unavailable are the schema.org ItemAvailability values under which a
// product cannot be ordered. Every other value (InStock, BackOrder,
// PreOrder, PreSale, MadeToOrder, LimitedAvailability, OnlineOnly,
// InStoreOnly) can be, so it is not "sold out".
var unavailable = []string{"outofstock", "soldout", "discontinued", "reserved"}

// buyable reads an availability as schema.org defines it, written as a
// full URL ("https://schema.org/BackOrder"), a short name or a
// "schema:" term; an empty or unknown value is not taken as sold out.
func buyable(availability string) bool {
	a := strings.ToLower(strings.TrimSpace(availability))
	if i := strings.LastIndexAny(a, "/:"); i >= 0 {
		a = a[i+1:]
	}
	return !slices.Contains(unavailable, a)
}

// JSONString renders a JSON-LD scalar as a string.
func JSONString(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case []any:
		if len(t) > 0 {
			return JSONString(t[0])
		}
	}
	return ""
}

var priceRE = regexp.MustCompile(`\d[\d.,\s]*`)

// ParsePrice reads "1,299.00", "1.299,00", "12" or "12.5" as a number.
func ParsePrice(s string) float64 {
	m := strings.ReplaceAll(priceRE.FindString(s), " ", "")
	if m == "" {
		return 0
	}
	lastDot, lastComma := strings.LastIndexByte(m, '.'), strings.LastIndexByte(m, ',')
	switch {
	case lastComma > lastDot && len(m)-lastComma-1 != 3:
		// decimal comma: "1.299,00" or "12,5"
		m = strings.ReplaceAll(m, ".", "")
		m = strings.Replace(m, ",", ".", 1)
	default:
		m = strings.ReplaceAll(m, ",", "")
	}
	v, err := strconv.ParseFloat(strings.TrimRight(m, "."), 64)
	if err != nil {
		return 0
	}
	return v
}

var shopifyCurrencyRE = regexp.MustCompile(`Shopify\.currency\s*=\s*\{\s*"active"\s*:\s*"([A-Z]{3})"`)

// Currency finds the shop's currency in its page: Shopify's currency
// object, structured data or Open Graph price tags.
func Currency(p *Page, body []byte) string {
	if m := shopifyCurrencyRE.FindSubmatch(body); m != nil {
		return string(m[1])
	}
	for _, pr := range ProductsFrom(p) {
		if pr.Currency != "" {
			return pr.Currency
		}
	}
	return strings.ToUpper(words.FirstNonEmpty(p.OG["product:price:currency"], p.OG["og:price:currency"]))
}

// IsProductPage reports whether p is a single product's page.
func IsProductPage(p *Page) bool {
	if ks := Kinds(p.URL, ""); len(ks) > 0 && ks[0] == KindProduct {
		return true
	}
	if strings.Contains(strings.ToLower(p.OG["og:type"]), "product") {
		return true
	}
	for _, obj := range p.JSONLD {
		if JSONLDIs(obj, "product") {
			return true
		}
	}
	return false
}

// TopTypes returns the most common product types, most common first.
func TopTypes(products []Product, n int) []string {
	counts := map[string]int{}
	var order []string
	for _, p := range products {
		t := strings.TrimSpace(p.Type)
		if t == "" {
			continue
		}
		if counts[t] == 0 {
			order = append(order, t)
		}
		counts[t]++
	}
	slices.SortStableFunc(order, func(a, b string) int { return counts[b] - counts[a] })
	return order[:min(n, len(order))]
}

func ProductNames(products []Product, n int) []string {
	var out []string
	for _, p := range products {
		if len(out) == n {
			break
		}
		out = append(out, p.Name)
	}
	return out
}
