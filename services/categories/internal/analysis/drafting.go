package analysis

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode"
)

// genericTitles are title parts that name no store.
var genericTitles = map[string]bool{"home": true, "homepage": true, "home page": true, "welcome": true, "index": true, "shop": true, "store": true, "online store": true, "accueil": true, "startseite": true, "inicio": true}

// titleSeparators split a page title into brand and description parts.
var titleSeparators = []string{" | ", " – ", " — ", " - ", " :: ", ": ", " · "}

// storeName is the store's name from its own markup: og:site_name, the
// business in JSON-LD, the brand part of the home title, or the host name.
func storeName(s *site) string {
	h := s.Home
	if n := h.OG["og:site_name"]; n != "" {
		return n
	}
	for _, obj := range h.JSONLD {
		if jsonldIs(obj, orgTypes...) && !jsonldIs(obj, "website") {
			if n := collapse(str(obj["name"])); n != "" && len(n) <= 60 {
				return n
			}
		}
	}
	parts := splitTitle(h.Title)
	parts = slices.DeleteFunc(parts, func(p string) bool { return genericTitles[strings.ToLower(p)] })
	if h.Logo != "" && len(parts) != 1 {
		return h.Logo
	}
	if len(parts) > 1 {
		// The brand is usually the shortest part ("Acme | Soy candles").
		best := parts[0]
		for _, p := range parts[1:] {
			if len(p) < len(best) {
				best = p
			}
		}
		if len(best) <= 40 {
			return best
		}
	} else if len(parts) == 1 && len(parts[0]) <= 30 {
		return parts[0]
	}
	if h.Logo != "" {
		return h.Logo
	}
	u, err := url.Parse(s.URL)
	if err != nil || net.ParseIP(u.Hostname()) != nil {
		return "your store"
	}
	host := strings.TrimPrefix(u.Hostname(), "www.")
	if i := strings.IndexByte(host, '.'); i > 0 {
		host = host[:i]
	}
	return titleCase(strings.ReplaceAll(host, "-", " "))
}

func splitTitle(t string) []string {
	parts := []string{t}
	for _, sep := range titleSeparators {
		var next []string
		for _, p := range parts {
			next = append(next, strings.Split(p, sep)...)
		}
		parts = next
	}
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// pageTopic is the best short statement of what a page is about.
func pageTopic(p *page) string {
	if pr := productsFromPage(p); len(pr) == 1 && isProductPage(p) {
		return pr[0].Name
	}
	if len(p.H1) > 0 && p.H1[0] != "" && len(p.H1[0]) <= 70 {
		return p.H1[0]
	}
	if parts := splitTitle(p.Title); len(parts) > 0 {
		return parts[0]
	}
	u, _ := url.Parse(p.URL)
	if u != nil && u.Path != "/" && u.Path != "" {
		return titleCase(strings.NewReplacer("-", " ", "_", " ").Replace(path.Base(u.Path)))
	}
	return ""
}

// suggestTitle drafts a title: "Topic – Store" for inner pages, and
// "Store – what it sells" for the home page.
func (r *reviewer) suggestTitle(p *page) string {
	if p == r.s.Home {
		what := r.sellsPhrase()
		if what == "" {
			return r.store
		}
		return truncateWords(r.store+" – "+what, 60)
	}
	topic := pageTopic(p)
	if topic == "" || strings.EqualFold(topic, r.store) {
		return r.store
	}
	return truncateWords(topic+" – "+r.store, 60)
}

// sellsPhrase names what the store sells from its catalogue or headings.
func (r *reviewer) sellsPhrase() string {
	types := topTypes(r.s.Catalogue.Products, 3)
	if len(types) > 0 {
		return joinAnd(types)
	}
	if n := len(r.s.Catalogue.Products); n > 0 {
		names := make([]string, 0, 2)
		for _, p := range r.s.Catalogue.Products[:min(2, n)] {
			names = append(names, p.Name)
		}
		return joinAnd(names)
	}
	if len(r.s.Home.H1) > 0 && !strings.EqualFold(r.s.Home.H1[0], r.store) && len(r.s.Home.H1[0]) <= 50 {
		return r.s.Home.H1[0]
	}
	return ""
}

// suggestDescription drafts a 155-character meta description from the page's
// own content: its product, its first paragraph, or the catalogue.
func (r *reviewer) suggestDescription(p *page) string {
	var text string
	if isProductPage(p) {
		if pr := productsFromPage(p); len(pr) > 0 {
			price := ""
			if pr[0].Price > 0 {
				price = " for " + money(pr[0].Price, firstNonEmpty(pr[0].Currency, r.s.Catalogue.Currency))
			}
			text = fmt.Sprintf("%s%s at %s. %s", pr[0].Name, price, r.store, pr[0].Description)
		}
	}
	if text == "" && p == r.s.Home {
		names := productNames(r.s.Catalogue.Products, 3)
		lead := firstOf(p.Paragraphs)
		if len(names) > 0 {
			text = fmt.Sprintf("Shop %s at %s: %s. %s", firstNonEmpty(r.sellsPhrase(), "our range"), r.store, joinAnd(names), lead)
		} else if lead != "" {
			text = r.store + ": " + lead
		}
	}
	if text == "" {
		text = firstNonEmpty(firstOf(p.Paragraphs), p.OG["og:description"])
		if topic := pageTopic(p); topic != "" {
			text = strings.TrimSpace(topic + " – " + r.store + ". " + text)
		}
	}
	if text == "" {
		text = "Shop " + r.store + " online."
	}
	return strings.ReplaceAll(truncateWords(collapse(text), 155), `"`, "'")
}

func (r *reviewer) suggestH1(p *page) string {
	if t := pageTopic(p); t != "" {
		return t
	}
	return r.store
}

// suggestAlt turns an image's file name (or the product it shows) into alt text.
func (r *reviewer) suggestAlt(img imageRef) string {
	base := path.Base(img.Src)
	if u, err := url.Parse(img.Src); err == nil {
		base = path.Base(u.Path)
	}
	base = strings.TrimSuffix(base, path.Ext(base))
	// Drop size suffixes and hashes such as "_800x" or "-1a2b3c4d".
	var words []string
	for _, w := range strings.FieldsFunc(base, func(c rune) bool { return c == '-' || c == '_' || c == '.' || c == '@' }) {
		lw := strings.ToLower(w)
		if len(w) >= 8 && strings.IndexFunc(w, unicode.IsDigit) >= 0 || strings.Contains(lw, "x") && strings.IndexFunc(lw, unicode.IsDigit) == 0 {
			continue
		}
		if lw == "img" || lw == "image" || lw == "photo" || lw == "copy" || lw == "large" || lw == "small" || lw == "thumb" {
			continue
		}
		words = append(words, lw)
	}
	for _, p := range r.s.Catalogue.Products {
		if strings.Contains(strings.ToLower(strings.Join(words, " ")), strings.ToLower(p.Name)) {
			return p.Name
		}
	}
	if len(words) == 0 {
		return "Describe what this image shows"
	}
	s := strings.Join(words, " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// productSnippet drafts Product JSON-LD for a product page from what the page
// and the catalogue say about it.
func (r *reviewer) productSnippet(p *page) string {
	name := pageTopic(p)
	var pr *product
	for i := range r.s.Catalogue.Products {
		c := &r.s.Catalogue.Products[i]
		if strings.EqualFold(c.Name, name) || c.URL == p.URL {
			pr = c
			break
		}
	}
	obj := map[string]any{"@context": "https://schema.org", "@type": "Product", "name": name}
	if len(p.Images) > 0 {
		obj["image"] = p.Images[0].Src
	}
	desc := firstNonEmpty(p.MetaDesc, firstOf(p.Paragraphs))
	if pr != nil {
		desc = firstNonEmpty(pr.Description, desc)
	}
	if desc != "" {
		obj["description"] = truncateWords(desc, 200)
	}
	offer := map[string]any{"@type": "Offer", "availability": "https://schema.org/InStock", "url": p.URL}
	price := parsePrice(firstNonEmpty(p.OG["product:price:amount"], p.OG["og:price:amount"], p.OG["itemprop:price"]))
	if pr != nil && pr.Price > 0 {
		price = pr.Price
	}
	if price > 0 {
		offer["price"] = fmt.Sprintf("%.2f", price)
	} else {
		offer["price"] = "PRICE"
	}
	offer["priceCurrency"] = firstNonEmpty(r.s.Catalogue.Currency, "USD")
	obj["offers"] = offer
	b, _ := json.Marshal(obj)
	return string(b)
}

func (r *reviewer) ctaLabel() string {
	if t := topTypes(r.s.Catalogue.Products, 1); len(t) > 0 {
		return strings.ToLower(t[0])
	}
	return "now"
}

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
